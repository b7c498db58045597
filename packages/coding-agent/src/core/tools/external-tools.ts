import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { getManagedBinDir } from "./shell.js";

export type ExternalToolName = "rg" | "fd";

// Debian and Ubuntu ship fd as `fdfind`.
const COMMAND_NAMES: Record<ExternalToolName, string[]> = { rg: ["rg"], fd: ["fd", "fdfind"] };

const located = new Map<ExternalToolName, string | null>();
const fdFlagSupport = new Map<string, boolean>();

function isExecutableFile(path: string): boolean {
	try {
		if (!statSync(path).isFile()) return false;
		if (process.platform !== "win32") accessSync(path, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

function findOnPath(command: string, pathValue: string | undefined): string | undefined {
	const suffixes = process.platform === "win32" ? [".exe", ".cmd", ""] : [""];
	for (const dir of (pathValue ?? "").split(delimiter)) {
		if (!dir) continue;
		for (const suffix of suffixes) {
			const candidate = join(dir, command + suffix);
			if (isExecutableFile(candidate)) return candidate;
		}
	}
	return undefined;
}

/**
 * Path of `rg` or `fd`: the managed copy in `~/.agent/bin`, else the command on PATH (`fd` or `fdfind`).
 * Never downloads anything; returns undefined when the tool is not installed. Cached per process.
 */
export function findExternalTool(name: ExternalToolName): string | undefined {
	const cached = located.get(name);
	if (cached !== undefined) return cached ?? undefined;
	let found: string | undefined;
	for (const command of COMMAND_NAMES[name]) {
		const managed = join(getManagedBinDir(), process.platform === "win32" ? `${command}.exe` : command);
		found = isExecutableFile(managed) ? managed : findOnPath(command, process.env.PATH);
		if (found) break;
	}
	located.set(name, found ?? null);
	return found;
}

/** Forgets located tools (after installing one, or in tests that change PATH). */
export function clearExternalToolCache(): void {
	located.clear();
	fdFlagSupport.clear();
}

/** Whether this fd has `--no-require-git` (fd 8.7+), which makes it honour .gitignore outside git repos. */
export function fdSupportsNoRequireGit(fdPath: string): boolean {
	let supported = fdFlagSupport.get(fdPath);
	if (supported === undefined) {
		const help = spawnSync(fdPath, ["--help"], { encoding: "utf8" });
		supported = typeof help.stdout === "string" && help.stdout.includes("--no-require-git");
		fdFlagSupport.set(fdPath, supported);
	}
	return supported;
}

/**
 * The reference's name for locating a helper binary. Ours never downloads (users trust us with their machine
 * and network): it returns the managed or PATH copy, or undefined. `silent` is accepted for compatibility.
 */
export async function ensureTool(name: ExternalToolName, _silent = true): Promise<string | undefined> {
	return findExternalTool(name);
}
