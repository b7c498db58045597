// Copying a session of another project into a new file (docs/session-format.md "Writing").
import { readFileSync } from "node:fs";
import type { SessionHeader } from "./entries.js";
import { isSessionHeader, serializeFileEntry, serializeRecords } from "./session-file.js";
import { loadSessionText } from "./session-loader.js";
import { SessionFileWriter } from "./session-writer.js";

function isHeaderLine(raw: string): boolean {
	try {
		return isSessionHeader(JSON.parse(raw));
	} catch {
		return false;
	}
}

/**
 * The entry lines of a session file for a fork: every line except header lines, verbatim for a current-version
 * file (unusable lines included, so nothing is lost). Files of older versions are migrated first, since their
 * lines would not be valid under a current header.
 */
export function forkBodyOf(text: string, sourcePath: string): string {
	const loaded = loadSessionText(text, sourcePath);
	const records = loaded.records.filter(
		(record) => record.kind !== "header" && !(record.kind === "ignored" && isHeaderLine(record.raw)),
	);
	if (loaded.migration) return serializeRecords(records);
	const lines = text.split("\n");
	let body = "";
	for (const record of records) body += `${lines[record.line - 1]}\n`;
	return body;
}

/** Writes `header` and the source's entry lines to `targetPath` in one write. Throws if the source is unusable. */
export function copySessionForFork(sourcePath: string, targetPath: string, header: SessionHeader): void {
	let text: string;
	try {
		text = readFileSync(sourcePath, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new Error(`Session file not found: ${sourcePath}`);
		throw error;
	}
	const writer = new SessionFileWriter(targetPath);
	try {
		writer.append(serializeFileEntry(header) + forkBodyOf(text, sourcePath));
	} finally {
		writer.releaseLock();
	}
}
