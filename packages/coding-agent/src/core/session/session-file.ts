// Reading session files: text → header, entries and the lines that could not be used (pure), plus the
// thin I/O shells around it. Writing lives in session-writer.ts.
import { randomUUID } from "node:crypto";
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import type { FileEntry, SessionEntry, SessionFileDiagnostic, SessionHeader } from "./entries.js";

/** One non-blank line of a session file, classified. Lines keep their raw text so rewrites never lose them. */
export type SessionFileRecord =
	| { kind: "header"; line: number; header: SessionHeader }
	/** A JSON object with a string `type` (v1 entries have no `id` yet; see migrations.ts). */
	| { kind: "entry"; line: number; entry: SessionEntry }
	/** Valid JSON that is not an entry: a stray header (duplicated by the reference's lazy flush), a non-object. */
	| { kind: "ignored"; line: number; raw: string }
	/** Not JSON: a line truncated by a crash, or damaged by hand. */
	| { kind: "corrupt"; line: number; raw: string; error: string };

export interface ParsedSessionText {
	/** The first parseable line, if it is a valid header (`type: "session"` and a string `id`). */
	header: SessionHeader | undefined;
	records: SessionFileRecord[];
	diagnostics: SessionFileDiagnostic[];
	/** False when the last line has no `\n` (a crash mid-write): the next append must start a new line. */
	endsWithNewline: boolean;
	/** Parsed JSON values in file order (the header is index 0); v1 compaction entries point into this list. */
	parsedLineCount: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isSessionHeader(value: unknown): value is SessionHeader {
	return isRecord(value) && value.type === "session" && typeof value.id === "string";
}

function describeParseError(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * Classifies every line of a session file. Blank lines are skipped; lines that are not JSON are reported
 * (with their 1-based line number) and kept as raw text; nothing is dropped silently.
 */
export function parseSessionText(text: string, file: string): ParsedSessionText {
	const records: SessionFileRecord[] = [];
	const diagnostics: SessionFileDiagnostic[] = [];
	let header: SessionHeader | undefined;
	let sawParseableLine = false;
	let parsedLineCount = 0;
	let lineNumber = 0;
	let start = 0;
	while (start < text.length) {
		let end = text.indexOf("\n", start);
		if (end === -1) end = text.length;
		lineNumber++;
		// Kept exactly as written (a trailing \r included): JSON.parse treats it as whitespace.
		const raw = text.slice(start, end);
		start = end + 1;
		if (raw.length === 0 || (raw.charCodeAt(0) <= 32 && raw.trim() === "")) continue;
		let value: unknown;
		try {
			value = JSON.parse(raw);
		} catch (error) {
			const message = describeParseError(error);
			records.push({ kind: "corrupt", line: lineNumber, raw, error: message });
			diagnostics.push({ file, line: lineNumber, message: `not valid JSON (${message}); line skipped` });
			continue;
		}
		parsedLineCount++;
		if (!sawParseableLine) {
			sawParseableLine = true;
			if (isSessionHeader(value)) {
				header = value;
				records.push({ kind: "header", line: lineNumber, header: value });
				continue;
			}
		}
		if (isRecord(value) && typeof value.type === "string" && value.type !== "session") {
			records.push({ kind: "entry", line: lineNumber, entry: value as unknown as SessionEntry });
			continue;
		}
		records.push({ kind: "ignored", line: lineNumber, raw });
		if (!(isRecord(value) && value.type === "session")) {
			diagnostics.push({ file, line: lineNumber, message: "not a session entry; line skipped" });
		}
	}
	return { header, records, diagnostics, endsWithNewline: text.length === 0 || text.endsWith("\n"), parsedLineCount };
}

/** One line of the file for an entry or header: compact JSON, undefined fields omitted, `\n`-terminated. */
export function serializeFileEntry(entry: FileEntry): string {
	return `${JSON.stringify(entry)}\n`;
}

/** Every record back to text: parsed lines re-serialized, unusable lines verbatim. */
export function serializeRecords(records: readonly SessionFileRecord[]): string {
	let text = "";
	for (const record of records) {
		if (record.kind === "header") text += serializeFileEntry(record.header);
		else if (record.kind === "entry") text += serializeFileEntry(record.entry);
		else text += `${record.raw}\n`;
	}
	return text;
}

/**
 * A new header. Key order is the reference's: type, version, id, timestamp, cwd, parentSession.
 */
export function createSessionHeader(
	cwd: string,
	options: { id?: string; parentSession?: string; timestamp?: string } = {},
): SessionHeader {
	const header: SessionHeader = {
		type: "session",
		version: 3,
		id: options.id ?? randomUUID(),
		timestamp: options.timestamp ?? new Date().toISOString(),
		cwd,
	};
	if (options.parentSession !== undefined) header.parentSession = options.parentSession;
	return header;
}

/** `<ts>_<sessionId>.jsonl` with every `:` and `.` of the ISO timestamp replaced by `-`. */
export function sessionFileName(header: Pick<SessionHeader, "id" | "timestamp">): string {
	return `${header.timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`;
}

/** A fresh entry id: the first 8 hex characters of a random UUID; a full UUID after 100 collisions. */
export function generateEntryId(isTaken: (id: string) => boolean): string {
	for (let attempt = 0; attempt < 100; attempt++) {
		const id = randomUUID().slice(0, 8);
		if (!isTaken(id)) return id;
	}
	return randomUUID();
}

/** Reads a file, or undefined when it does not exist. Other errors (permissions, a directory) propagate. */
export function readTextIfExists(path: string): string | undefined {
	try {
		return readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
}

/**
 * The header (when the first line is one) and entries of a session file's text, as stored (no migration).
 * Lines that are not JSON or not entries are skipped.
 */
export function parseSessionEntries(content: string): FileEntry[] {
	const parsed = parseSessionText(content, "");
	return entriesOf(parsed);
}

function entriesOf(parsed: ParsedSessionText): FileEntry[] {
	const result: FileEntry[] = parsed.header ? [parsed.header] : [];
	for (const record of parsed.records) if (record.kind === "entry") result.push(record.entry);
	return result;
}

/**
 * The header and entries of a session file, header first, as stored (no migration). A missing file, or one
 * without a valid header, gives []. Unparseable lines are skipped.
 */
export function loadEntriesFromFile(path: string): FileEntry[] {
	let text: string | undefined;
	try {
		text = readTextIfExists(path);
	} catch {
		return [];
	}
	if (text === undefined) return [];
	const parsed = parseSessionText(text, path);
	return parsed.header ? entriesOf(parsed) : [];
}

/** Reads at most `maxBytes` from the start of a file (for header checks that must not read whole files). */
export function readFileHead(path: string, maxBytes: number): string {
	const fd = openSync(path, "r");
	try {
		const buffer = Buffer.alloc(maxBytes);
		const bytesRead = readSync(fd, buffer, 0, maxBytes, 0);
		return buffer.toString("utf8", 0, bytesRead);
	} finally {
		closeSync(fd);
	}
}
