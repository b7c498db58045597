// read, edit and write for an ACP session. When the editor offers `fs/read_text_file` / `fs/write_text_file`,
// text goes through it (unsaved buffers are what the model reads; edits land in the editor, which saves
// them); otherwise through the local file system. Either way edit and write record the whole file before and
// after, so the editor can be shown a real diff.
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import type { AgentTool } from "@agent/agent-core";
import type { FileWriteOptions } from "../../core/tools/atomic-write.js";
import { createEditTool, type EditOperations, localEditOperations } from "../../core/tools/edit.js";
import { detectImageMimeTypeFromFile } from "../../core/tools/image-mime.js";
import { createReadTool, localReadOperations, type ReadOperations } from "../../core/tools/read.js";
import { readRegularFile } from "../../core/tools/regular-file.js";
import { createWriteTool, localWriteOperations, type WriteOperations } from "../../core/tools/write.js";
import type { FileChange } from "./tool-calls.js";

/** The editor's side of file access (the ACP client methods, bound to one session). */
export interface ClientFileSystem {
	/** Present when the client offers `fs/read_text_file`. */
	readTextFile?: (absolutePath: string) => Promise<string>;
	/** Present when the client offers `fs/write_text_file`. */
	writeTextFile?: (absolutePath: string, content: string) => Promise<void>;
}

/** Before/after pairs of finished edits and writes, per file, taken by whoever reports the tool call. */
export class FileChangeRecorder {
	private readonly changes = new Map<string, FileChange[]>();

	record(change: FileChange): void {
		const queue = this.changes.get(change.path);
		if (queue) queue.push(change);
		else this.changes.set(change.path, [change]);
	}

	/** The oldest unreported change of `absolutePath` (writes to one file are serialised, so order matches). */
	take(absolutePath: string): FileChange | undefined {
		const queue = this.changes.get(absolutePath);
		const change = queue?.shift();
		if (queue && queue.length === 0) this.changes.delete(absolutePath);
		return change;
	}

	clear(): void {
		this.changes.clear();
	}
}

export interface FileToolsOptions {
	cwd: string;
	client: ClientFileSystem;
	recorder: FileChangeRecorder;
	autoResizeImages: boolean;
}

/** A file read from disk only for showing a diff is skipped (shown as new) past this size. */
const DIFF_BEFORE_MAX_BYTES = 8 * 1024 * 1024;

/** Local bytes: regular files only (never a device or FIFO), see `readRegularFile`. */
function readBytesVia(client: ClientFileSystem): (absolutePath: string) => Promise<Buffer> {
	const viaClient = client.readTextFile;
	if (viaClient) return async (absolutePath) => Buffer.from(await viaClient(absolutePath), "utf8");
	return localEditOperations.readFile;
}

/** Through the editor, or atomically on disk checking the file is still what was read (`options.expected`). */
function writeTextVia(
	client: ClientFileSystem,
): (absolutePath: string, content: string, options?: FileWriteOptions) => Promise<void> {
	const viaClient = client.writeTextFile;
	if (viaClient) return (absolutePath, content) => viaClient(absolutePath, content);
	return localEditOperations.writeFile;
}

/** The file before a write, for the diff: through the editor, else from disk up to DIFF_BEFORE_MAX_BYTES. */
async function readBeforeWrite(client: ClientFileSystem, absolutePath: string): Promise<string | null> {
	try {
		if (client.readTextFile) return await client.readTextFile(absolutePath);
		const bytes = await readRegularFile(absolutePath, DIFF_BEFORE_MAX_BYTES + 1);
		return bytes.length > DIFF_BEFORE_MAX_BYTES ? null : bytes.toString("utf8");
	} catch {
		return null;
	}
}

/**
 * Without the editor's text API, the local read tool (paged, regular files only). With it, text comes from the
 * editor; images are binary, which that API cannot carry, so they are always read from disk.
 */
function readOperations(client: ClientFileSystem): ReadOperations {
	const readText = client.readTextFile;
	if (!readText) return localReadOperations;
	return {
		access: (absolutePath) => access(absolutePath, constants.R_OK),
		detectImageMimeType: detectImageMimeTypeFromFile,
		readFile: async (absolutePath) => {
			if (await detectImageMimeTypeFromFile(absolutePath)) return readRegularFile(absolutePath);
			return Buffer.from(await readText(absolutePath), "utf8");
		},
	};
}

function editOperations(client: ClientFileSystem, recorder: FileChangeRecorder): EditOperations {
	const readBytes = readBytesVia(client);
	const writeText = writeTextVia(client);
	const before = new Map<string, string>();
	return {
		access: (absolutePath) => access(absolutePath, constants.R_OK | constants.W_OK),
		readFile: async (absolutePath) => {
			const bytes = await readBytes(absolutePath);
			before.set(absolutePath, bytes.toString("utf8"));
			return bytes;
		},
		writeFile: async (absolutePath, content, options) => {
			await writeText(absolutePath, content, options);
			recorder.record({ path: absolutePath, before: before.get(absolutePath) ?? null, after: content });
			before.delete(absolutePath);
		},
	};
}

function writeOperations(client: ClientFileSystem, recorder: FileChangeRecorder): WriteOperations {
	const writeText = writeTextVia(client);
	return {
		mkdir: localWriteOperations.mkdir,
		...(client.writeTextFile ? {} : { captureVersion: localWriteOperations.captureVersion }),
		writeFile: async (absolutePath, content, options) => {
			// Only for the diff: a file that cannot be read is shown as new.
			const previous = await readBeforeWrite(client, absolutePath);
			await writeText(absolutePath, content, options);
			recorder.record({ path: absolutePath, before: previous, after: content });
		},
	};
}

/** read, edit and write for the session's cwd, with their I/O as described above. */
export function createFileTools(options: FileToolsOptions): { read: AgentTool; edit: AgentTool; write: AgentTool } {
	const { cwd, client, recorder } = options;
	return {
		read: createReadTool(cwd, { operations: readOperations(client), autoResizeImages: options.autoResizeImages }),
		edit: createEditTool(cwd, { operations: editOperations(client, recorder) }),
		write: createWriteTool(cwd, { operations: writeOperations(client, recorder) }),
	} as { read: AgentTool; edit: AgentTool; write: AgentTool };
}
