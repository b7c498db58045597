// From the text of a session file to what a session needs: header, entries (migrated), diagnostics, and
// the text a migration must write back. Pure; the session manager does the I/O.
import type { SessionEntry, SessionFileDiagnostic, SessionHeader } from "./entries.js";
import { migrateSessionRecords } from "./migrations.js";
import { parseSessionText, type SessionFileRecord, serializeRecords } from "./session-file.js";

export class SessionFileFormatError extends Error {
	constructor(
		readonly sessionFile: string,
		message: string,
	) {
		super(message);
		this.name = "SessionFileFormatError";
	}
}

export interface LoadedSessionText {
	header: SessionHeader;
	entries: SessionEntry[];
	diagnostics: SessionFileDiagnostic[];
	endsWithNewline: boolean;
	/** Set when the file was of an older version: the version it had and the full text to write back. */
	migration?: { fromVersion: number; text: string };
	records: SessionFileRecord[];
}

/**
 * Parses, migrates and validates a session file's text. Throws SessionFileFormatError when the file has content
 * but no valid header: the reference overwrites such a file with a fresh header (losing it); ours refuses and
 * leaves the file as it is.
 */
export function loadSessionText(text: string, file: string): LoadedSessionText {
	const parsed = parseSessionText(text, file);
	if (!parsed.header) {
		const first = parsed.records[0];
		const where = first ? `line ${first.line}` : "the file";
		throw new SessionFileFormatError(
			file,
			`${file} is not a session file: ${where} is not a session header ({"type":"session","id":…}). ` +
				"The file was left untouched; open another file or start a new session.",
		);
	}
	const diagnostics = [...parsed.diagnostics];
	const migration = migrateSessionRecords(parsed.header, parsed.records);
	const entries: SessionEntry[] = [];
	for (const record of migration.records) {
		if (record.kind !== "entry") continue;
		const entry = record.entry;
		if (typeof entry.id !== "string") {
			diagnostics.push({ file, line: record.line, message: "entry without an id; line skipped" });
			continue;
		}
		if (entry.parentId !== null && typeof entry.parentId !== "string") {
			// Kept, as a root: losing the entry would lose what it holds. The file itself is not changed.
			diagnostics.push({ file, line: record.line, message: "entry without a valid parentId; treated as a root" });
			entries.push({ ...entry, parentId: null });
			continue;
		}
		entries.push(entry);
	}
	diagnostics.sort((a, b) => a.line - b.line);
	return {
		header: migration.header,
		entries,
		diagnostics,
		endsWithNewline: parsed.endsWithNewline,
		records: migration.records,
		...(migration.migrated
			? { migration: { fromVersion: migration.fromVersion, text: serializeRecords(migration.records) } }
			: {}),
	};
}

export function formatSessionFileDiagnostic(diagnostic: SessionFileDiagnostic): string {
	return `${diagnostic.file}:${diagnostic.line}: ${diagnostic.message}`;
}
