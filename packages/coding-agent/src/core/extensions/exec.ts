// `pi.exec(command, args, options)`: runs a program without a shell (docs/extensions.md "`ExtensionAPI`"). Abort or timeout sends
// SIGTERM, then SIGKILL after 5 s. It never rejects: a spawn failure resolves with code 1 and the error on
// stderr; a process ended by a signal resolves with code 0 (the reference's null-exit-code rule) and `killed`.
import { spawn } from "node:child_process";
import type { ExecOptions, ExecResult } from "./types.js";

export const EXEC_KILL_GRACE_MS = 5000;

export function execCommand(
	command: string,
	args: string[],
	cwd: string,
	options: ExecOptions = {},
): Promise<ExecResult> {
	return new Promise((resolve) => {
		let stdout = "";
		let stderr = "";
		let killed = false;
		let settled = false;
		let graceTimer: NodeJS.Timeout | undefined;
		let timeoutTimer: NodeJS.Timeout | undefined;

		const child = spawn(command, args, {
			cwd: options.cwd ?? cwd,
			shell: false,
			stdio: ["ignore", "pipe", "pipe"],
		});

		const kill = () => {
			if (killed || child.exitCode !== null) return;
			killed = true;
			child.kill("SIGTERM");
			graceTimer = setTimeout(() => child.kill("SIGKILL"), EXEC_KILL_GRACE_MS);
			graceTimer.unref();
		};
		const finish = (result: ExecResult) => {
			if (settled) return;
			settled = true;
			if (graceTimer) clearTimeout(graceTimer);
			if (timeoutTimer) clearTimeout(timeoutTimer);
			options.signal?.removeEventListener("abort", kill);
			resolve(result);
		};

		if (options.signal?.aborted) kill();
		else options.signal?.addEventListener("abort", kill, { once: true });
		if (options.timeout !== undefined && options.timeout > 0) timeoutTimer = setTimeout(kill, options.timeout);

		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		child.on("error", (error) => {
			finish({ stdout, stderr: stderr + error.message, code: 1, killed });
		});
		child.on("close", (code) => {
			finish({ stdout, stderr, code: code ?? 0, killed });
		});
	});
}
