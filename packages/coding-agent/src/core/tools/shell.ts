import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { getAgentDir, getSettingsPath } from "../config/paths.js";

export interface ShellConfig {
	shell: string;
	/** Arguments before the command string. */
	args: string[];
}

const shellCache = new Map<string, ShellConfig>();

function findOnPath(command: string): string | undefined {
	const lookup = process.platform === "win32" ? "where" : "which";
	const result = spawnSync(lookup, [command], { encoding: "utf8" });
	if (result.status !== 0 || !result.stdout) return undefined;
	const first = result.stdout.split(/\r?\n/)[0]?.trim();
	return first && existsSync(first) ? first : undefined;
}

/**
 * The shell that runs bash commands: `customShellPath` (settings `shellPath`) when given; on Windows Git
 * Bash, then `bash.exe` on PATH; elsewhere `/bin/bash`, then `bash` on PATH, then `sh`. Cached.
 */
export function resolveShell(customShellPath?: string): ShellConfig {
	const key = customShellPath ?? "";
	const cached = shellCache.get(key);
	if (cached) return cached;
	let config: ShellConfig;
	if (customShellPath) {
		if (!existsSync(customShellPath)) {
			throw new Error(
				`Custom shell path not found: ${customShellPath}\nPlease update shellPath in ${getSettingsPath()}`,
			);
		}
		config = { shell: customShellPath, args: ["-c"] };
	} else if (process.platform === "win32") {
		const candidates = [process.env.ProgramFiles, process.env["ProgramFiles(x86)"]]
			.filter((dir): dir is string => Boolean(dir))
			.map((dir) => join(dir, "Git", "bin", "bash.exe"));
		const gitBash = candidates.find((candidate) => existsSync(candidate)) ?? findOnPath("bash.exe");
		if (!gitBash) {
			throw new Error("No bash shell found. Install Git for Windows (Git Bash) or set shellPath in settings.");
		}
		config = { shell: gitBash, args: ["-c"] };
	} else if (existsSync("/bin/bash")) {
		config = { shell: "/bin/bash", args: ["-c"] };
	} else {
		config = { shell: findOnPath("bash") ?? "sh", args: ["-c"] };
	}
	shellCache.set(key, config);
	return config;
}

/** Where managed helper binaries live (`~/.agent/bin`). */
export function getManagedBinDir(): string {
	return join(getAgentDir(), "bin");
}

/** `process.env` with the managed bin directory on PATH. */
export function getShellEnv(baseEnv: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
	const binDir = getManagedBinDir();
	const pathKey = Object.keys(baseEnv).find((key) => key.toUpperCase() === "PATH") ?? "PATH";
	const current = baseEnv[pathKey] ?? "";
	const entries = current.split(delimiter).filter(Boolean);
	if (entries.includes(binDir)) return { ...baseEnv };
	return { ...baseEnv, [pathKey]: [binDir, ...entries].join(delimiter) };
}
