// Which files the summarized part of a conversation read and changed. Pure.
import type { AgentMessage } from "@agent/agent-core";

/** Paths exactly as the model wrote them in `read`, `write` and `edit` calls (never resolved). */
export interface FileOperations {
	read: Set<string>;
	written: Set<string>;
	edited: Set<string>;
}

/** What pi's own summarizer stores in a compaction's or branch summary's `details`. */
export interface CompactionDetails {
	readFiles: string[];
	modifiedFiles: string[];
}

export function createFileOperations(): FileOperations {
	return { read: new Set(), written: new Set(), edited: new Set() };
}

/** Adds the file paths of an assistant message's read/write/edit tool calls. Other messages add nothing. */
export function collectFileOperations(message: AgentMessage, fileOps: FileOperations): void {
	if (message.role !== "assistant") return;
	for (const block of message.content) {
		if (block.type !== "toolCall") continue;
		const path = block.arguments?.path;
		if (typeof path !== "string") continue;
		if (block.name === "read") fileOps.read.add(path);
		else if (block.name === "write") fileOps.written.add(path);
		else if (block.name === "edit") fileOps.edited.add(path);
	}
}

/** Seeds the lists from an earlier summary's details (its modified files count as edited). */
export function seedFileOperations(details: unknown, fileOps: FileOperations): void {
	if (!isCompactionDetails(details)) return;
	for (const path of details.readFiles) fileOps.read.add(path);
	for (const path of details.modifiedFiles) fileOps.edited.add(path);
}

export function isCompactionDetails(details: unknown): details is CompactionDetails {
	if (typeof details !== "object" || details === null) return false;
	const { readFiles, modifiedFiles } = details as Partial<CompactionDetails>;
	return (
		Array.isArray(readFiles) &&
		Array.isArray(modifiedFiles) &&
		readFiles.every((path) => typeof path === "string") &&
		modifiedFiles.every((path) => typeof path === "string")
	);
}

/** Modified = edited ∪ written; read = read − modified; both sorted with the default sort. */
export function computeFileLists(fileOps: FileOperations): CompactionDetails {
	const modified = new Set([...fileOps.edited, ...fileOps.written]);
	const readFiles = [...fileOps.read].filter((path) => !modified.has(path)).sort();
	return { readFiles, modifiedFiles: [...modified].sort() };
}

/** The block appended to a summary: `""` when both lists are empty, else two newlines and the XML sections. */
export function formatFileOperations(readFiles: readonly string[], modifiedFiles: readonly string[]): string {
	const sections: string[] = [];
	if (readFiles.length > 0) sections.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
	if (modifiedFiles.length > 0) sections.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
	return sections.length === 0 ? "" : `\n\n${sections.join("\n\n")}`;
}
