// read, edit and write for an ACP session. When the editor offers `fs/read_text_file` / `fs/write_text_file`,
// text goes through it (unsaved buffers are what the model reads; edits land in the editor, which saves
// them); otherwise through the local file system. Either way edit and write record the whole file before and
// after, so the editor can be shown a real diff.
import { constants } from "node:fs";
import { access, mkdir, readFile } from "node:fs/promises";
import type { AgentTool } from "@agent/agent-core";
import { writeFileAtomic } from "../../core/tools/atomic-write.js";
import { createEditTool, type EditOperations } from "../../core/tools/edit.js";
import { detectImageMimeTypeFromFile } from "../../core/tools/image-mime.js";
import { createReadTool, type ReadOperations } from "../../core/tools/read.js";
import { createWriteTool, type WriteOperations } from "../../core/tools/write.js";
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

function readTextVia(client: ClientFileSystem): (absolutePath: string) => Promise<string> {
	const viaClient = client.readTextFile;
	return viaClient ?? ((absolutePath) => readFile(absolutePath, "utf8"));
}

function writeTextVia(client: ClientFileSystem): (absolutePath: string, content: string) => Promise<void> {
	return client.writeTextFile ?? ((absolutePath, content) => writeFileAtomic(absolutePath, content));
}

/** Images are binary, which the editor's text API cannot carry: they are always read from disk. */
function readOperations(client: ClientFileSystem): ReadOperations {
	const readText = client.readTextFile;
	return {
		access: (absolutePath) => access(absolutePath, constants.R_OK),
		detectImageMimeType: detectImageMimeTypeFromFile,
		readFile: async (absolutePath) => {
			if (!readText || (await detectImageMimeTypeFromFile(absolutePath))) return readFile(absolutePath);
			return Buffer.from(await readText(absolutePath), "utf8");
		},
	};
}

function editOperations(client: ClientFileSystem, recorder: FileChangeRecorder): EditOperations {
	const readText = readTextVia(client);
	const writeText = writeTextVia(client);
	const before = new Map<string, string>();
	return {
		access: (absolutePath) => access(absolutePath, constants.R_OK | constants.W_OK),
		readFile: async (absolutePath) => {
			const text = await readText(absolutePath);
			before.set(absolutePath, text);
			return Buffer.from(text, "utf8");
		},
		writeFile: async (absolutePath, content) => {
			await writeText(absolutePath, content);
			recorder.record({ path: absolutePath, before: before.get(absolutePath) ?? null, after: content });
			before.delete(absolutePath);
		},
	};
}

function writeOperations(client: ClientFileSystem, recorder: FileChangeRecorder): WriteOperations {
	const readText = readTextVia(client);
	const writeText = writeTextVia(client);
	return {
		mkdir: async (dir) => {
			await mkdir(dir, { recursive: true });
		},
		writeFile: async (absolutePath, content) => {
			// Only for the diff: a file that cannot be read is shown as new.
			const previous = await readText(absolutePath).catch(() => null);
			await writeText(absolutePath, content);
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
