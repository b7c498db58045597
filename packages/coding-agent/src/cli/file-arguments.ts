// `@path` arguments (docs/cli.md "Input"): text files inlined into the first message, images attached to it.
import { readFile, stat } from "node:fs/promises";
import type { ImageContent } from "@agent/ai";
import { sniffImageMimeType } from "../core/tools/image-mime.js";
import { formatDimensionNote, resizeImage } from "../core/tools/image-resize.js";
import { resolveReadPath } from "../core/tools/path-utils.js";

/** A `@file` that cannot be used; the CLI prints `Error: <message>` and exits 1. */
export class FileArgumentError extends Error {
	override readonly name = "FileArgumentError";
}

export interface FileArgumentsResult {
	/** `<file name="…">…</file>\n` blocks, concatenated; empty when nothing was attached. */
	text: string;
	images: ImageContent[];
}

export interface FileArgumentOptions {
	cwd: string;
	/** `images.autoResize` (default true): fit images into 2000×2000 and ~4.5 MB. */
	autoResizeImages?: boolean;
}

/**
 * Why a file could not be read, in words: `it is a directory …`, `permission denied`. Node's own text
 * (`EISDIR: illegal operation on a directory, read`) names the system call, not the problem.
 */
export function describeReadFailure(error: unknown, path: string): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	switch (code) {
		case "EISDIR":
			return `it is a directory. Attach the files in it (@${path}/<file>), or ask about it in the message`;
		case "EACCES":
		case "EPERM":
			return "permission denied";
		case "ENOTDIR":
			return "a part of the path is not a directory";
		case "ELOOP":
			return "too many symbolic links";
		case "ENAMETOOLONG":
			return "the path is too long";
		default: {
			const message = error instanceof Error ? error.message : String(error);
			// `EIO: i/o error, read` → `i/o error`
			return message.replace(/^[A-Z0-9]+: /, "").replace(/, [a-z]+( '.*')?$/, "");
		}
	}
}

/** Reads every `@path` in order. Empty files are skipped; a missing or unreadable file throws. */
export async function processFileArguments(
	paths: readonly string[],
	options: FileArgumentOptions,
): Promise<FileArgumentsResult> {
	let text = "";
	const images: ImageContent[] = [];
	for (const path of paths) {
		const absolute = resolveReadPath(path, options.cwd);
		let size: number;
		try {
			const stats = await stat(absolute);
			if (stats.isDirectory()) throw Object.assign(new Error("EISDIR"), { code: "EISDIR" });
			size = stats.size;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT")
				throw new FileArgumentError(`File not found: ${absolute}`);
			throw new FileArgumentError(`Could not read file ${absolute}: ${describeReadFailure(error, absolute)}`);
		}
		if (size === 0) continue;

		let content: Buffer;
		try {
			content = await readFile(absolute);
		} catch (error) {
			throw new FileArgumentError(`Could not read file ${absolute}: ${describeReadFailure(error, absolute)}`);
		}

		const mimeType = sniffImageMimeType(content);
		if (!mimeType) {
			text += `<file name="${absolute}">\n${content.toString("utf8")}\n</file>\n`;
			continue;
		}
		if (options.autoResizeImages ?? true) {
			const resized = await resizeImage(content, mimeType);
			if (resized) {
				images.push({ type: "image", data: resized.data, mimeType: resized.mimeType });
				text += `<file name="${absolute}">${formatDimensionNote(resized) ?? ""}</file>\n`;
				continue;
			}
		}
		images.push({ type: "image", data: content.toString("base64"), mimeType });
		text += `<file name="${absolute}"></file>\n`;
	}
	return { text, images };
}
