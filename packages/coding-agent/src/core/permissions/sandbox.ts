// The optional OS sandbox for the bash tool: bubblewrap on Linux, sandbox-exec on macOS. Commands may write only
// to the working directory and the temporary directories; the network is off unless the settings allow it.
// Where neither is available the sandbox says so once and commands run as before (the rules still apply).
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import type { BashSpawnContext } from "../tools/bash.js";
import { resolveShell } from "../tools/shell.js";

export interface SandboxOptions {
	cwd: string;
	network: boolean;
	/** The shell the wrapped command runs in (the bash tool's shell). */
	shell: string;
	/** Directories writable besides the working directory. Default: the temporary directory ($TMPDIR, else /tmp). */
	writableDirs?: string[];
}

export type SandboxKind = "bubblewrap" | "sandbox-exec";

export type SandboxStatus = { available: true; kind: SandboxKind } | { available: false; reason: string };

export function sandboxUnavailableText(reason: string): string {
	return `Sandbox unavailable: ${reason}. Bash commands run without an OS sandbox; permission rules still apply.`;
}

export function sandboxActiveText(kind: SandboxKind, network: boolean): string {
	return `Bash commands run in a ${kind} sandbox: writes only to the working directory and temp, network ${network ? "on" : "off"}.`;
}

/** `'…'` for a POSIX shell. */
export function shellQuote(value: string): string {
	return `'${value.replace(/'/g, "'\\''")}'`;
}

function realOrSelf(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

function writableDirsOf(options: SandboxOptions): string[] {
	const dirs = options.writableDirs ?? [tmpdir()];
	return [...new Set([options.cwd, ...dirs].map(realOrSelf))];
}

/** The bubblewrap command line around `shell -c command`. */
export function bubblewrapArgs(command: string, options: SandboxOptions): string[] {
	const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
	for (const dir of writableDirsOf(options)) args.push("--bind", dir, dir);
	// A new PID namespace dies with its first process; --die-with-parent ties that to bwrap, which the bash tool
	// kills on abort or timeout.
	args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent");
	if (!options.network) args.push("--unshare-net");
	args.push("--chdir", realOrSelf(options.cwd), "--", options.shell, "-c", command);
	return args;
}

function sbplString(value: string): string {
	return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** The sandbox-exec profile: everything allowed except writes outside the writable directories (and the network). */
export function seatbeltProfile(options: SandboxOptions): string {
	const writable = writableDirsOf(options)
		.map((dir) => `(subpath ${sbplString(dir)})`)
		.join(" ");
	return [
		"(version 1)",
		"(allow default)",
		"(deny file-write*)",
		`(allow file-write* ${writable} (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))`,
		...(options.network
			? []
			: [
					"(deny network*)",
					'(allow network* (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
				]),
	].join("\n");
}

/** The command the bash tool's shell runs instead of `command`: the sandbox tool, in its place (`exec`). */
export function sandboxedCommand(kind: SandboxKind, command: string, options: SandboxOptions): string {
	if (kind === "bubblewrap") return `exec bwrap ${bubblewrapArgs(command, options).map(shellQuote).join(" ")}`;
	return `exec sandbox-exec -p ${shellQuote(seatbeltProfile(options))} ${shellQuote(options.shell)} -c ${shellQuote(command)}`;
}

/** Whether a sandbox can run here: the tool exists and a trivial command succeeds in it (checked once). */
export function detectSandbox(platform: NodeJS.Platform = process.platform): SandboxStatus {
	if (platform === "linux") {
		const probe = spawnSync("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net", "true"], {
			stdio: ["ignore", "ignore", "pipe"],
			encoding: "utf8",
			timeout: 10_000,
		});
		if (probe.error) return { available: false, reason: "bubblewrap (bwrap) is not installed" };
		if (probe.status !== 0) {
			const detail = probe.stderr?.trim().split("\n")[0];
			return { available: false, reason: `bubblewrap (bwrap) cannot run here${detail ? `: ${detail}` : ""}` };
		}
		return { available: true, kind: "bubblewrap" };
	}
	if (platform === "darwin") {
		const probe = spawnSync("sandbox-exec", ["-p", "(version 1)(allow default)", "/usr/bin/true"], {
			stdio: "ignore",
			timeout: 10_000,
		});
		if (probe.error || probe.status !== 0) return { available: false, reason: "sandbox-exec cannot run here" };
		return { available: true, kind: "sandbox-exec" };
	}
	return { available: false, reason: `no sandbox is supported on ${platform}` };
}

/** What the sandbox reads from settings, each time a command starts (so `/reload` applies). */
export interface SandboxSettingsSource {
	getSandboxSettings(): { enabled: boolean; network: boolean };
	getShellPath(): string | undefined;
}

/**
 * The bash tool's sandbox for one session: `spawnHook` wraps each command while `permissions.sandbox.enabled`
 * is set and a sandbox is available; `status()` says which (detected once, on first need).
 */
export class BashSandbox {
	private detected: SandboxStatus | undefined;

	constructor(
		private readonly settings: SandboxSettingsSource,
		private readonly detect: () => SandboxStatus = detectSandbox,
	) {}

	/** Undefined while the sandbox is off in settings. */
	status(): SandboxStatus | undefined {
		if (!this.settings.getSandboxSettings().enabled) return undefined;
		this.detected ??= this.detect();
		return this.detected;
	}

	/** A line for the user when the sandbox is on: active, or unavailable and why. */
	notice(): string | undefined {
		const status = this.status();
		if (!status) return undefined;
		if (!status.available) return sandboxUnavailableText(status.reason);
		return sandboxActiveText(status.kind, this.settings.getSandboxSettings().network);
	}

	readonly spawnHook = (context: BashSpawnContext): BashSpawnContext => {
		const status = this.status();
		if (!status?.available) return context;
		const shell = resolveShell(this.settings.getShellPath()).shell;
		const { network } = this.settings.getSandboxSettings();
		return {
			...context,
			command: sandboxedCommand(status.kind, context.command, { cwd: context.cwd, network, shell }),
		};
	};
}
