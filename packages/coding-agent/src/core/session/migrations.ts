// Session format migrations v1 → v2 → v3 (docs/session-format.md "Reading, damaged files and versions"), pure: records in, records out.
// Lines that are not entries (corrupt or stray) stay where they are, so a rewrite keeps them verbatim.
import { CURRENT_SESSION_VERSION, type FileEntry, type SessionEntry, type SessionHeader } from "./entries.js";
import { generateEntryId, type SessionFileRecord } from "./session-file.js";

export interface MigrationResult {
	header: SessionHeader;
	records: SessionFileRecord[];
	/** Version the file had before migration (1 when the header has none). */
	fromVersion: number;
	migrated: boolean;
}

export function sessionVersionOf(header: SessionHeader): number {
	return typeof header.version === "number" ? header.version : 1;
}

type LooseObject = Record<string, unknown>;

/** The header with `version` set, keeping the reference's key order and any extra (v1) fields. */
function withVersion(header: SessionHeader, version: number): SessionHeader {
	const { type, version: _old, ...rest } = header;
	return { type, version, ...rest } as SessionHeader;
}

/**
 * v1 → v2: entries had no ids. Every entry gets a fresh 8-hex id and the previous entry as parent (one linear
 * chain). A compaction's numeric `firstKeptEntryIndex` (an index into the successfully parsed lines, the
 * header being 0) becomes `firstKeptEntryId`.
 */
function migrateV1ToV2(records: SessionFileRecord[]): SessionFileRecord[] {
	const taken = new Set<string>();
	const idByParsedIndex = new Map<number, string>();
	const assigned: { record: SessionFileRecord; id: string; parentId: string | null }[] = [];
	let parsedIndex = 0;
	let previousId: string | null = null;
	for (const record of records) {
		if (record.kind === "corrupt") continue;
		const index = parsedIndex++;
		if (record.kind !== "entry") continue;
		const id = generateEntryId((candidate) => taken.has(candidate));
		taken.add(id);
		idByParsedIndex.set(index, id);
		assigned.push({ record, id, parentId: previousId });
		previousId = id;
	}
	const replacement = new Map<SessionFileRecord, SessionFileRecord>();
	for (const { record, id, parentId } of assigned) {
		if (record.kind !== "entry") continue;
		const { type, id: _id, parentId: _parentId, ...rest } = record.entry as unknown as LooseObject;
		const fields: LooseObject = {};
		for (const [key, value] of Object.entries(rest)) {
			if (key !== "firstKeptEntryIndex") {
				fields[key] = value;
				continue;
			}
			// The index names a parsed line; the header (index 0) or a non-entry line has no id to point at.
			const keptId = typeof value === "number" ? idByParsedIndex.get(value) : undefined;
			if (keptId !== undefined) fields.firstKeptEntryId = keptId;
		}
		const entry = { type, id, parentId, ...fields } as unknown as SessionEntry;
		replacement.set(record, { kind: "entry", line: record.line, entry });
	}
	return records.map((record) => replacement.get(record) ?? record);
}

/** v2 → v3: the `hookMessage` role was renamed `custom`. */
function migrateV2ToV3(records: SessionFileRecord[]): SessionFileRecord[] {
	return records.map((record) => {
		if (record.kind !== "entry" || record.entry.type !== "message") return record;
		const message = record.entry.message as unknown as LooseObject;
		if (message.role !== "hookMessage") return record;
		const renamed = { ...message, role: "custom" };
		return { ...record, entry: { ...record.entry, message: renamed } as unknown as SessionEntry };
	});
}

/** Brings a file's records to the current version. Files of a newer version are returned unchanged. */
export function migrateSessionRecords(header: SessionHeader, records: SessionFileRecord[]): MigrationResult {
	const fromVersion = sessionVersionOf(header);
	if (fromVersion >= CURRENT_SESSION_VERSION) return { header, records, fromVersion, migrated: false };
	let migrated = records;
	if (fromVersion < 2) migrated = migrateV1ToV2(migrated);
	if (fromVersion < 3) migrated = migrateV2ToV3(migrated);
	const newHeader = withVersion(header, CURRENT_SESSION_VERSION);
	return {
		header: newHeader,
		records: migrated.map((record) => (record.kind === "header" ? { ...record, header: newHeader } : record)),
		fromVersion,
		migrated: true,
	};
}

/**
 * Brings a list of file entries (header first, as `parseSessionEntries` gives them) to the current version, in
 * place. Without a header the entries are taken as version 1, like a file whose header has no version.
 */
export function migrateSessionEntries(entries: FileEntry[]): void {
	const header = entries.find((entry): entry is SessionHeader => entry.type === "session");
	const records: SessionFileRecord[] = entries.map((entry, index) =>
		entry.type === "session"
			? { kind: "header", line: index + 1, header: entry }
			: { kind: "entry", line: index + 1, entry },
	);
	const { records: migrated, migrated: changed } = migrateSessionRecords(
		header ?? { type: "session", id: "", timestamp: "", cwd: "" },
		records,
	);
	if (!changed) return;
	const result: FileEntry[] = [];
	for (const record of migrated) {
		if (record.kind === "header") result.push(record.header);
		else if (record.kind === "entry") result.push(record.entry);
	}
	entries.splice(0, entries.length, ...result);
}
