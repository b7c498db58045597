// Inside tmux, modified keys (Shift+Enter, Ctrl/Alt combinations) reach the program only with `extended-keys`
// on, and in a form it can read only when `extended-keys-format` is not xterm. Checked once, off the startup
// path, with the user's tmux.
import { execFile } from "node:child_process";

function tmuxOption(name: string): Promise<string | undefined> {
	return new Promise((resolve) => {
		execFile("tmux", ["show", "-gv", name], { timeout: 2000 }, (error, stdout) => {
			resolve(error ? undefined : stdout.trim());
		});
	});
}

/** Warnings about the tmux configuration; none outside tmux. */
export async function checkTmuxKeys(env: Record<string, string | undefined>): Promise<string[]> {
	if (!env.TMUX) return [];
	const [extendedKeys, format] = await Promise.all([tmuxOption("extended-keys"), tmuxOption("extended-keys-format")]);
	const warnings: string[] = [];
	if (extendedKeys === "off") {
		warnings.push(
			"tmux has extended-keys off, so Shift+Enter and some Ctrl/Alt keys do not reach agent. Add `set -g extended-keys on` to ~/.tmux.conf.",
		);
	}
	if (format === "xterm") {
		warnings.push(
			"tmux sends extended keys in xterm format, which hides some Ctrl/Alt keys. Add `set -g extended-keys-format csi-u` to ~/.tmux.conf.",
		);
	}
	return warnings;
}
