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
	const ids = new Set<string>();
	for (const record of migration.records) {
		if (record.kind === "entry" && typeof record.entry.id === "string") ids.add(record.entry.id);
	}
	const entries: SessionEntry[] = [];
	// Ours: the reference skips a damaged line silently, so the entry after it points at a parent that no longer
	// exists and the branch walk stops there: everything before the damaged line drops out of the context. Here
	// an entry whose parent is missing, after a damaged line, hangs on the last good entry before the nearest such
	// line (where the lost entry most likely hung). Only the entries in memory change; the file keeps its text.
	let damage: { line: number; anchor: { id: string; line: number } | undefined } | undefined;
	let lastGood: { id: string; line: number } | undefined;
	for (const record of migration.records) {
		if (record.kind === "header") continue;
		if (record.kind !== "entry") {
			if (!isStrayHeader(record)) damage = { line: record.line, anchor: lastGood };
			continue;
		}
		const entry = record.entry;
		if (typeof entry.id !== "string") {
			diagnostics.push({ file, line: record.line, message: "entry without an id; line skipped" });
			damage = { line: record.line, anchor: lastGood };
			continue;
		}
		if (entry.parentId !== null && typeof entry.parentId !== "string") {
			// Kept, as a root: losing the entry would lose what it holds. The file itself is not changed.
			diagnostics.push({ file, line: record.line, message: "entry without a valid parentId; treated as a root" });
			entries.push({ ...entry, parentId: null });
		} else if (entry.parentId !== null && !ids.has(entry.parentId) && damage?.anchor) {
			const { anchor } = damage;
			diagnostics.push({
				file,
				line: record.line,
				message:
					`parent ${entry.parentId} was lost with damaged line ${damage.line}; ` +
					`attached to the entry on line ${anchor.line}`,
			});
			entries.push({ ...entry, parentId: anchor.id });
		} else {
			entries.push(entry);
		}
		lastGood = { id: entry.id, line: record.line };
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

/** A second header line (the reference's lazy flush duplicates it): harmless, not a lost entry. */
function isStrayHeader(record: SessionFileRecord): boolean {
	if (record.kind !== "ignored") return false;
	try {
		const value: unknown = JSON.parse(record.raw);
		return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "session";
	} catch {
		return false;
	}
}

export function formatSessionFileDiagnostic(diagnostic: SessionFileDiagnostic): string {
	return `${diagnostic.file}:${diagnostic.line}: ${diagnostic.message}`;
}
