import { spawn } from "node:child_process";
import { OPERATION_ABORTED } from "./abort.js";

const MAX_STDERR_CHARS = 8192;

export interface ExternalToolExit {
	code: number | null;
	/** The start of stderr (about 8 KB at most), for an error message. */
	stderr: string;
}

export interface ExternalToolRunOptions {
	/** Names the program in `Failed to run <label>: …` when it cannot be started. */
	label: string;
	cwd?: string;
	signal?: AbortSignal;
	/** Each piece of stdout as it arrives; `stop()` kills the program, whose run then ends as usual. */
	onStdout(chunk: string, stop: () => void): void;
}

/**
 * Runs `rg` or `fd` and resolves once it has closed. Rejects with `Operation aborted` when `signal` fires (the
 * program is killed), and with `Failed to run <label>: …` when it cannot be started.
 */
export function runExternalTool(
	path: string,
	args: string[],
	options: ExternalToolRunOptions,
): Promise<ExternalToolExit> {
	const { signal } = options;
	return new Promise<ExternalToolExit>((resolve, reject) => {
		const child = spawn(path, args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
		let stderr = "";
		let aborted = false;
		let settled = false;
		const onAbort = () => {
			aborted = true;
			child.kill();
		};
		signal?.addEventListener("abort", onAbort, { once: true });
		const settle = (action: () => void) => {
			if (settled) return;
			settled = true;
			signal?.removeEventListener("abort", onAbort);
			action();
		};
		const stop = () => {
			child.kill();
		};
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (chunk: string) => options.onStdout(chunk, stop));
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (chunk: string) => {
			if (stderr.length < MAX_STDERR_CHARS) stderr += chunk;
		});
		child.once("error", (error) =>
			settle(() => reject(new Error(`Failed to run ${options.label}: ${error.message}`))),
		);
		child.once("close", (code) => {
			settle(() => (aborted ? reject(new Error(OPERATION_ABORTED)) : resolve({ code, stderr })));
		});
	});
}
