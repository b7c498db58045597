import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { AgentTool } from "@agent/agent-core";
import { LeanType, type Static } from "@agent/ai";
import { throwIfAborted } from "./abort.js";
import {
	captureFileVersion,
	type FileVersion,
	type FileWriteOptions,
	isFileChangedError,
	writeFileAtomic,
} from "./atomic-write.js";
import { withFileMutationQueue } from "./file-mutation-queue.js";
import { resolveToCwd } from "./path-utils.js";
import { isNotRegularFileError } from "./regular-file.js";
import { requireString } from "./tool-arguments.js";
import { assertInsideWorkspace } from "./workspace-confinement.js";

export const WRITE_TOOL_DESCRIPTION =
	"Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.";

export const writeSchema = LeanType.Object({
	path: LeanType.String({ description: "Path to the file to write (relative or absolute)" }),
	content: LeanType.String({ description: "Content to write to the file" }),
});

export type WriteToolInput = Static<typeof writeSchema>;

/** File access of the write tool; replace it to write remotely, in a container or through an editor. */
export interface WriteOperations {
	writeFile: (absolutePath: string, content: string, options?: FileWriteOptions) => Promise<void>;
	/** Creates the directory and its missing parents. */
	mkdir: (dir: string) => Promise<void>;
	/**
	 * Ours: the file's version when the write starts, passed back to `writeFile` as `expected`, so a change
	 * another process makes while the content is being written is not overwritten. Absent: no check.
	 */
	captureVersion?: (absolutePath: string) => Promise<FileVersion>;
}

/** Model-facing: the path is a device, FIFO, socket or directory (symlinks followed). */
export function writeNotRegularFileMessage(path: string, fileType: string): string {
	return `Cannot write ${path}: it is ${fileType}, not a regular file. The write tool only writes regular files.`;
}

/**
 * Model-facing. Ours: write replaces the whole file, so redoing it on the new content would still drop the
 * other change; it fails instead, and the model decides (it may have to merge).
 */
export function writeChangedMessage(path: string): string {
	return `Cannot write ${path}: another process changed the file while it was being written, so nothing was written and that change is kept. Read the file again, then write or edit it.`;
}

export interface WriteToolOptions {
	operations?: WriteOperations;
	/** Refuse paths outside the working directory (after resolving `..` and symlinks). Default false. */
	confineToCwd?: boolean;
}

export const localWriteOperations: WriteOperations = {
	writeFile: (absolutePath, content, options) => writeFileAtomic(absolutePath, content, options),
	captureVersion: captureFileVersion,
	// Metadata calls are made synchronously, as writeFileAtomic's are.
	mkdir: async (dir) => {
		mkdirSync(dir, { recursive: true });
	},
};

export function createWriteTool(cwd: string, options: WriteToolOptions = {}): AgentTool<typeof writeSchema, undefined> {
	const ops = options.operations ?? localWriteOperations;
	return {
		name: "write",
		label: "write",
		description: WRITE_TOOL_DESCRIPTION,
		parameters: writeSchema,
		async execute(_toolCallId, params, signal) {
			const path = requireString(params, "write", "path");
			const content = requireString(params, "write", "content");
			throwIfAborted(signal);
			const absolutePath = resolveToCwd(path, cwd);
			if (options.confineToCwd) assertInsideWorkspace(absolutePath, cwd, path);

			return withFileMutationQueue(absolutePath, async () => {
				await ops.mkdir(dirname(absolutePath));
				throwIfAborted(signal);
				try {
					const expected = ops.captureVersion ? await ops.captureVersion(absolutePath) : undefined;
					await ops.writeFile(absolutePath, content, expected ? { expected } : undefined);
				} catch (error) {
					if (isNotRegularFileError(error)) throw new Error(writeNotRegularFileMessage(path, error.fileType));
					if (isFileChangedError(error)) throw new Error(writeChangedMessage(path));
					throw error;
				}
				// Ours differs: the reference reported content.length (UTF-16 code units) as bytes.
				const bytes = Buffer.byteLength(content, "utf8");
				return {
					content: [{ type: "text", text: `Successfully wrote ${bytes} bytes to ${path}` }],
					details: undefined,
				};
			});
		},
	};
}

/** The write tool for the process's working directory. */
export const writeTool = createWriteTool(process.cwd());
