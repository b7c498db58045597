// The system clipboard: copying text (/copy) and reading an image (Ctrl+V). Text goes through the platform's
// clipboard tool when there is one, and always through OSC 52, which terminals (and tmux, and SSH sessions)
// forward to the local clipboard.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface ClipboardCommand {
	command: string;
	args: string[];
}

function copyCommands(platform: NodeJS.Platform, env: Record<string, string | undefined>): ClipboardCommand[] {
	if (platform === "darwin") return [{ command: "pbcopy", args: [] }];
	if (platform === "win32") return [{ command: "clip", args: [] }];
	const commands: ClipboardCommand[] = [];
	if (env.WAYLAND_DISPLAY) commands.push({ command: "wl-copy", args: [] });
	if (env.DISPLAY) {
		commands.push({ command: "xclip", args: ["-selection", "clipboard"] });
		commands.push({ command: "xsel", args: ["--clipboard", "--input"] });
	}
	return commands;
}

/** The OSC 52 sequence that sets the clipboard to `text`. */
export function osc52(text: string): string {
	return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

/**
 * Copies `text`: through a clipboard tool when one works, and through OSC 52 via `writeToTerminal`. Returns
 * false only when neither was possible.
 */
export function copyToClipboard(
	text: string,
	writeToTerminal: ((data: string) => void) | undefined,
	options: { platform?: NodeJS.Platform; env?: Record<string, string | undefined> } = {},
): boolean {
	let copied = false;
	for (const { command, args } of copyCommands(options.platform ?? process.platform, options.env ?? process.env)) {
		const result = spawnSync(command, args, { input: text, timeout: 2000, stdio: ["pipe", "ignore", "ignore"] });
		if (!result.error && result.status === 0) {
			copied = true;
			break;
		}
	}
	if (writeToTerminal) {
		writeToTerminal(osc52(text));
		copied = true;
	}
	return copied;
}

const IMAGE_TYPES: Record<string, string> = {
	"image/png": "png",
	"image/jpeg": "jpg",
	"image/gif": "gif",
	"image/webp": "webp",
};

function run(command: string, args: string[]): Buffer | undefined {
	const result = spawnSync(command, args, { timeout: 3000, maxBuffer: 64 * 1024 * 1024 });
	if (result.error || result.status !== 0 || !result.stdout || result.stdout.length === 0) return undefined;
	return result.stdout;
}

function readLinuxImage(env: Record<string, string | undefined>): { data: Buffer; ext: string } | undefined {
	if (env.WAYLAND_DISPLAY) {
		const types = run("wl-paste", ["--list-types"])?.toString("utf8").split("\n") ?? [];
		const type = types.map((line) => line.trim()).find((line) => line in IMAGE_TYPES);
		if (type) {
			const data = run("wl-paste", ["--type", type]);
			if (data) return { data, ext: IMAGE_TYPES[type] };
		}
	}
	if (env.DISPLAY) {
		const targets =
			run("xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"])?.toString("utf8").split("\n") ?? [];
		const type = targets.map((line) => line.trim()).find((line) => line in IMAGE_TYPES);
		if (type) {
			const data = run("xclip", ["-selection", "clipboard", "-t", type, "-o"]);
			if (data) return { data, ext: IMAGE_TYPES[type] };
		}
	}
	return undefined;
}

function readMacImage(): { data: Buffer; ext: string } | undefined {
	const data = run("pngpaste", ["-"]);
	if (data) return { data, ext: "png" };
	const path = join(tmpdir(), `agent-clipboard-${randomUUID()}.png`);
	const script = `set f to (open for access POSIX file "${path}" with write permission)\ntry\nwrite (the clipboard as «class PNGf») to f\nend try\nclose access f`;
	const result = spawnSync("osascript", ["-e", script], { timeout: 3000 });
	if (result.status !== 0) return undefined;
	try {
		const bytes = readFileSync(path);
		return bytes.length > 0 ? { data: bytes, ext: "png" } : undefined;
	} catch {
		return undefined;
	} finally {
		rmSync(path, { force: true });
	}
}

function readWindowsImage(): { data: Buffer; ext: string } | undefined {
	const script =
		"Add-Type -AssemblyName System.Windows.Forms; $i=[Windows.Forms.Clipboard]::GetImage(); if ($i) { $m=New-Object IO.MemoryStream; $i.Save($m,[Drawing.Imaging.ImageFormat]::Png); [Console]::OpenStandardOutput().Write($m.ToArray(),0,$m.Length) }";
	const data = run("powershell", ["-NoProfile", "-Command", script]);
	return data ? { data, ext: "png" } : undefined;
}

/**
 * Saves the clipboard's image to `<tmpdir>/agent-clipboard-<uuid>.<ext>` and returns its path; undefined when
 * the clipboard holds no image (or no tool could read it).
 */
export function saveClipboardImage(
	options: { platform?: NodeJS.Platform; env?: Record<string, string | undefined> } = {},
): string | undefined {
	const platform = options.platform ?? process.platform;
	const env = options.env ?? process.env;
	const image =
		platform === "darwin" ? readMacImage() : platform === "win32" ? readWindowsImage() : readLinuxImage(env);
	if (!image) return undefined;
	const path = join(tmpdir(), `agent-clipboard-${randomUUID()}.${image.ext}`);
	writeFileSync(path, image.data);
	return path;
}
