// `@path` arguments (cli.md §6): text files inlined into the first message, images attached to it.
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

function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
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
			size = (await stat(absolute)).size;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT")
				throw new FileArgumentError(`File not found: ${absolute}`);
			throw new FileArgumentError(`Could not read file ${absolute}: ${errorMessage(error)}`);
		}
		if (size === 0) continue;

		let content: Buffer;
		try {
			content = await readFile(absolute);
		} catch (error) {
			throw new FileArgumentError(`Could not read file ${absolute}: ${errorMessage(error)}`);
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
