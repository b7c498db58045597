import { accessSync, constants } from "node:fs";
import type { AgentTool } from "@agent/agent-core";
import { LeanType, type Static } from "@agent/ai";
import { runAbortable, throwIfAborted } from "./abort.js";
import { type FileWriteOptions, isFileChangedError, writeFileAtomic } from "./atomic-write.js";
import { detectLineEnding, normalizeToLF, replaceUniqueText, restoreLineEndings, stripBom } from "./edit-diff.js";
import { withFileMutationQueue } from "./file-mutation-queue.js";
import { generateDiffString } from "./line-diff.js";
import { resolveToCwd } from "./path-utils.js";
import { isNotRegularFileError, readRegularFile } from "./regular-file.js";
import { requireString } from "./tool-arguments.js";
import { assertInsideWorkspace } from "./workspace-confinement.js";

export const EDIT_TOOL_DESCRIPTION =
	"Edit a file by replacing exact text. The oldText must match exactly (including whitespace). Use this for precise, surgical edits.";

export const editSchema = LeanType.Object({
	path: LeanType.String({ description: "Path to the file to edit (relative or absolute)" }),
	oldText: LeanType.String({ description: "Exact text to find and replace (must match exactly)" }),
	newText: LeanType.String({ description: "New text to replace the old text with" }),
});

export type EditToolInput = Static<typeof editSchema>;

export interface EditToolDetails {
	/** Line diff for display (see `generateDiffString`). */
	diff: string;
	/** Line of the new file where the first change is, for jumping there in an editor. */
	firstChangedLine?: number;
}

/** File access of the edit tool; replace it to edit files remotely, in a container or through an editor. */
export interface EditOperations {
	readFile: (absolutePath: string) => Promise<Buffer>;
	/**
	 * `options.expected` holds the bytes `readFile` returned: when the file no longer holds them just before
	 * being replaced, change nothing and throw a `FileChangedError` (as `writeFileAtomic` does); the edit is
	 * then redone on the new content. Operations that cannot check may ignore it.
	 */
	writeFile: (absolutePath: string, content: string, options?: FileWriteOptions) => Promise<void>;
	/** Throws if the file is not readable and writable. */
	access: (absolutePath: string) => Promise<void>;
}

export interface EditToolOptions {
	operations?: EditOperations;
	/** Refuse paths outside the working directory (after resolving `..` and symlinks). Default false. */
	confineToCwd?: boolean;
}

export const localEditOperations: EditOperations = {
	readFile: (absolutePath) => readRegularFile(absolutePath),
	writeFile: (absolutePath, content, options) => writeFileAtomic(absolutePath, content, options),
	// One system call: quicker made synchronously than through libuv's threads.
	access: async (absolutePath) => accessSync(absolutePath, constants.R_OK | constants.W_OK),
};

// Bytes inspected for a NUL byte, the mark of a binary file (as git does).
const BINARY_SNIFF_BYTES = 8000;
/** Times an edit is redone on new content when another process keeps changing the file under it. */
const MAX_EDIT_ATTEMPTS = 5;

/** Model-facing: the path is a device, FIFO or socket (directories keep their own message). */
export function editNotRegularFileMessage(path: string, fileType: string): string {
	return `Cannot edit ${path}: it is ${fileType}, not a regular file. The edit tool only changes regular files.`;
}

/** Model-facing: every attempt found the file changed by another process before it could be replaced. */
export function editKeptChangingMessage(path: string): string {
	return `Cannot edit ${path}: another process kept changing the file while the edit was being written (${MAX_EDIT_ATTEMPTS} attempts). Nothing was changed; try again when the file is no longer being written to.`;
}

function errorCode(error: unknown): string | undefined {
	return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Decodes a file for editing, refusing content that a UTF-8 round trip would corrupt. */
export function decodeEditableText(buffer: Buffer, path: string): string {
	if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
		throw new Error(`Cannot edit ${path}: it is a binary file. The edit tool only changes text files.`);
	}
	try {
		return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(buffer);
	} catch {
		throw new Error(
			`Cannot edit ${path}: it is not valid UTF-8 text, and rewriting it would corrupt its encoding. Use bash (e.g. iconv or sed) to change it.`,
		);
	}
}

async function readForEdit(ops: EditOperations, absolutePath: string, path: string): Promise<Buffer> {
	try {
		await ops.access(absolutePath);
	} catch (error) {
		const code = errorCode(error);
		if (code === "EACCES" || code === "EPERM") {
			throw new Error(`Permission denied: ${path} cannot be read and written.`);
		}
		throw new Error(`File not found: ${path}`);
	}
	try {
		return await ops.readFile(absolutePath);
	} catch (error) {
		const isDirectory = isNotRegularFileError(error)
			? error.fileType === "a directory"
			: errorCode(error) === "EISDIR";
		if (isDirectory) throw new Error(`Is a directory: ${path}. Provide the path of a file to edit.`);
		if (isNotRegularFileError(error)) throw new Error(editNotRegularFileMessage(path, error.fileType));
		throw error;
	}
}

/** The new file content (BOM and line endings restored) and its diff against the old one. */
function planEdit(
	buffer: Buffer,
	path: string,
	oldText: string,
	newText: string,
): { output: string; diff: string; firstChangedLine: number | undefined } {
	const { bom, text } = stripBom(decodeEditableText(buffer, path));
	const ending = detectLineEnding(text);
	const content = normalizeToLF(text);
	const { newContent } = replaceUniqueText(content, normalizeToLF(oldText), normalizeToLF(newText), path);
	if (newContent === content) {
		throw new Error(
			`No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`,
		);
	}
	const { diff, firstChangedLine } = generateDiffString(content, newContent);
	return { output: bom + restoreLineEndings(newContent, ending), diff, firstChangedLine };
}

export function createEditTool(
	cwd: string,
	options: EditToolOptions = {},
): AgentTool<typeof editSchema, EditToolDetails> {
	const ops = options.operations ?? localEditOperations;
	return {
		name: "edit",
		label: "edit",
		description: EDIT_TOOL_DESCRIPTION,
		parameters: editSchema,
		async execute(_toolCallId, params, signal) {
			const path = requireString(params, "edit", "path");
			const oldText = requireString(params, "edit", "oldText");
			const newText = requireString(params, "edit", "newText");
			throwIfAborted(signal);
			const absolutePath = resolveToCwd(path, cwd);
			if (options.confineToCwd) assertInsideWorkspace(absolutePath, cwd, path);

			return withFileMutationQueue(absolutePath, async () => {
				// Ours: another process may write the file between our read and our rename (a log appender, an
				// editor saving). The write checks the file still holds what was read; if not, the edit is redone on
				// the new content, so the other change is kept.
				for (let attempt = 1; ; attempt++) {
					const buffer = await runAbortable(signal, () => readForEdit(ops, absolutePath, path));
					const plan = planEdit(buffer, path, oldText, newText);
					// Past this point the write is not interrupted: an abort must not leave a half-done edit unreported.
					throwIfAborted(signal);
					try {
						await ops.writeFile(absolutePath, plan.output, { expected: { kind: "content", content: buffer } });
					} catch (error) {
						if (!isFileChangedError(error)) throw error;
						if (attempt >= MAX_EDIT_ATTEMPTS) throw new Error(editKeptChangingMessage(path));
						continue;
					}
					return {
						content: [{ type: "text", text: `Successfully replaced text in ${path}.` }],
						details: { diff: plan.diff, firstChangedLine: plan.firstChangedLine },
					};
				}
			});
		},
	};
}

/**
 * Preview of an edit for UIs: the diff it would make, or the error it would report. Reads through
 * `operations` (the local file system by default), writes nothing.
 */
export async function computeEditDiff(
	path: string,
	oldText: string,
	newText: string,
	cwd: string,
	operations: EditOperations = localEditOperations,
): Promise<{ diff: string; firstChangedLine: number | undefined } | { error: string }> {
	const absolutePath = resolveToCwd(path, cwd);
	try {
		const buffer = await readForEdit(operations, absolutePath, path);
		const { diff, firstChangedLine } = planEdit(buffer, path, oldText, newText);
		return { diff, firstChangedLine };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		if (message.startsWith(`No changes made to ${path}.`)) {
			return { error: `No changes would be made to ${path}. The replacement produces identical content.` };
		}
		return { error: message };
	}
}

/** The edit tool for the process's working directory. */
export const editTool = createEditTool(process.cwd());
