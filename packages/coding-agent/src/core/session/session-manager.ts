// A session: its entry tree, the current leaf, and the file it is persisted to (docs/session-format.md).

import { dirname, join, resolve } from "node:path";
import type { ThinkingLevel } from "@agent/agent-core";
import type { Message } from "@agent/ai";
import type { BashExecutionMessage, CustomMessage } from "../messages.js";
import type {
	BranchSummaryEntry,
	CompactionEntry,
	CustomEntry,
	CustomMessageEntry,
	FileCheckpointChange,
	FileCheckpointEntry,
	FileCheckpointSource,
	LabelEntry,
	ModelChangeEntry,
	PermissionDecision,
	PermissionDecisionEntry,
	SessionContext,
	SessionEntry,
	SessionFileDiagnostic,
	SessionHeader,
	SessionInfo,
	SessionInfoEntry,
	SessionMessageEntry,
	SessionTreeNode,
	ThinkingLevelChangeEntry,
} from "./entries.js";
import { buildSessionContext } from "./session-context.js";
import {
	createSessionHeader,
	generateEntryId,
	readTextIfExists,
	serializeFileEntry,
	sessionFileName,
} from "./session-file.js";
import { copySessionForFork } from "./session-fork.js";
import { findMostRecentSession, listAllSessions, listSessionsInDir } from "./session-listing.js";
import { loadSessionText } from "./session-loader.js";
import { getDefaultSessionDir } from "./session-paths.js";
import { buildSessionTree, findSessionName, getBranchPath, getChildEntries } from "./session-tree.js";
import {
	describePersistenceError,
	SessionFileWriter,
	SessionLockedError,
	type SessionPersistenceError,
} from "./session-writer.js";

export interface NewSessionOptions {
	/** Session UUID; a random one by default. */
	id?: string;
	/** Header `parentSession`: the session this one derives from. */
	parentSession?: string;
}

/** Messages stored as `message` entries. Summaries are never stored as messages; they are entries of their own. */
export type StorableMessage = Message | BashExecutionMessage | CustomMessage;

type PersistenceListener = (error: SessionPersistenceError | undefined) => void;

/** The fields of a new entry after type, id, parentId and timestamp (or, for custom kinds, before id). */
type EntryFields<T extends SessionEntry> = Omit<T, "type" | "id" | "parentId" | "timestamp">;

function omitUndefined<T extends object>(value: T): T {
	for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
	return value;
}

/**
 * Entries form a tree through `id`/`parentId`; the leaf is the current position. Appending adds a child of the
 * leaf and moves the leaf to it; branching moves the leaf back. A persisted session writes nothing until its
 * first assistant message exists, then appends one line per entry; it holds `<file>.lock` while open so a
 * second process cannot interleave lines. Write failures never stop the session: they are reported
 * (`getPersistenceError`, `onPersistenceError`) and the unsaved entries are retried on the next append.
 */
export class SessionManager {
	private header: SessionHeader;
	private entries: SessionEntry[] = [];
	private byId = new Map<string, SessionEntry>();
	private labels = new Map<string, string>();
	private leafId: string | null = null;
	private sessionFile: string | undefined;
	private writer: SessionFileWriter | undefined;
	/** Whether the file holds the header, i.e. appends go straight to disk (after the lazy first flush). */
	private flushed = false;
	private entriesOnDisk = 0;
	private hasAssistantMessage = false;
	/** Writing is impossible for this file (a migration could not be written back): nothing more is tried. */
	private writeBlocked: SessionPersistenceError | undefined;
	private persistenceError: SessionPersistenceError | undefined;
	private diagnostics: SessionFileDiagnostic[] = [];
	private readonly persistenceListeners = new Set<PersistenceListener>();

	private constructor(
		private cwd: string,
		private sessionDir: string,
		private persist: boolean,
	) {
		this.header = createSessionHeader(cwd);
	}

	// ---------------------------------------------------------------------------------------------------------
	// Construction
	// ---------------------------------------------------------------------------------------------------------

	/** A new persisted session in `sessionDir` (default: the cwd's folder under the agent dir), written lazily. */
	static create(cwd: string, sessionDir?: string, options: NewSessionOptions = {}): SessionManager {
		const manager = new SessionManager(cwd, sessionDir ?? getDefaultSessionDir(cwd), true);
		manager.startNewSession(options);
		return manager;
	}

	/**
	 * Opens a session file: migrates older versions, skips unusable lines (see `getLoadDiagnostics`), and takes
	 * the file's lock. A missing or empty file becomes a new session at that exact path.
	 * Throws SessionLockedError when another live process has the file open, and SessionFileFormatError when the
	 * file has content but no session header (it is never overwritten).
	 */
	static open(path: string, sessionDir?: string, cwdOverride?: string): SessionManager {
		const file = resolve(path);
		const manager = new SessionManager(cwdOverride ?? process.cwd(), sessionDir ?? dirname(file), true);
		manager.loadFile(file, cwdOverride);
		return manager;
	}

	/** The most recently modified session of the directory, or a new session when there is none. */
	static continueRecent(cwd: string, sessionDir?: string): SessionManager {
		const dir = sessionDir ?? getDefaultSessionDir(cwd);
		const recent = findMostRecentSession(dir);
		return recent ? SessionManager.open(recent, dir, cwd) : SessionManager.create(cwd, dir);
	}

	/** A session that is never written (`--no-session`). */
	static inMemory(cwd: string = process.cwd()): SessionManager {
		const manager = new SessionManager(cwd, "", false);
		manager.startNewSession({});
		return manager;
	}

	/**
	 * Forks a session of another project into `targetCwd`'s directory (docs/session-format.md "Writing"): a new file with
	 * a new header whose `parentSession` is the source, then every entry line of the source, written at once.
	 */
	static forkFrom(sourcePath: string, targetCwd: string, sessionDir?: string): SessionManager {
		const dir = sessionDir ?? getDefaultSessionDir(targetCwd);
		const header = createSessionHeader(targetCwd, { parentSession: resolve(sourcePath) });
		const target = join(dir, sessionFileName(header));
		copySessionForFork(resolve(sourcePath), target, header);
		return SessionManager.open(target, dir, targetCwd);
	}

	/** Sessions of one project (its directory, or `sessionDir`), newest first. */
	static list(cwd: string, sessionDir?: string): Promise<SessionInfo[]> {
		return listSessionsInDir(sessionDir ?? getDefaultSessionDir(cwd));
	}

	/** Sessions of every project under `<agentDir>/sessions`, newest first. */
	static listAll(agentDir?: string): Promise<SessionInfo[]> {
		return listAllSessions(agentDir);
	}

	/**
	 * Starts a new session in the same directory (`/new`). The previous file is left as it is and its lock
	 * released. Returns the new file path (undefined when in memory); the file is written lazily.
	 */
	newSession(options: NewSessionOptions = {}): string | undefined {
		this.releaseWriter();
		this.startNewSession(options);
		return this.sessionFile;
	}

	/**
	 * Switches to another session file (`/resume`, RPC `switch_session`). When the target cannot be opened
	 * (locked by another process, not a session file) this throws and the current session stays as it was.
	 */
	setSessionFile(path: string): void {
		const file = resolve(path);
		if (file === this.sessionFile && this.writer) {
			const writer = this.writer;
			this.writer = undefined;
			this.resetState();
			this.loadFile(file, undefined, writer);
			return;
		}
		const next = new SessionManager(this.cwd, this.sessionDir || dirname(file), true);
		next.loadFile(file, undefined);
		this.releaseWriter();
		this.adopt(next);
	}

	/** Releases the session file's lock. The object still answers queries; later appends take the lock again. */
	close(): void {
		this.releaseWriter();
	}

	// ---------------------------------------------------------------------------------------------------------
	// Identity and state
	// ---------------------------------------------------------------------------------------------------------

	isPersisted(): boolean {
		return this.persist;
	}

	getCwd(): string {
		return this.cwd;
	}

	getSessionDir(): string {
		return this.sessionDir;
	}

	getSessionId(): string {
		return this.header.id;
	}

	/** The file path; undefined in memory. The file may not exist yet (lazy flush). */
	getSessionFile(): string | undefined {
		return this.sessionFile;
	}

	getHeader(): SessionHeader {
		return this.header;
	}

	/** All entries in file order (every branch), header excluded. */
	getEntries(): SessionEntry[] {
		return [...this.entries];
	}

	getEntry(id: string): SessionEntry | undefined {
		return this.byId.get(id);
	}

	getLeafId(): string | null {
		return this.leafId;
	}

	getLeafEntry(): SessionEntry | undefined {
		return this.leafId === null ? undefined : this.byId.get(this.leafId);
	}

	/** Entries from the root to `fromId` (default: the leaf), root first. */
	getBranch(fromId?: string): SessionEntry[] {
		return getBranchPath(this.byId, fromId ?? this.leafId);
	}

	getChildren(parentId: string): SessionEntry[] {
		return getChildEntries(this.entries, parentId);
	}

	getTree(): SessionTreeNode[] {
		return buildSessionTree(this.entries, this.labels);
	}

	getLabel(id: string): string | undefined {
		return this.labels.get(id);
	}

	getSessionName(): string | undefined {
		return findSessionName(this.entries);
	}

	/** What the model sees on the current branch, with the branch's model and thinking level. */
	buildSessionContext(): SessionContext {
		return buildSessionContext(this.entries, this.leafId, this.byId);
	}

	/** Lines of the opened file that could not be used (each skipped, never rewritten away). */
	getLoadDiagnostics(): SessionFileDiagnostic[] {
		return [...this.diagnostics];
	}

	/** The current write failure, if the file is not up to date with the session. */
	getPersistenceError(): SessionPersistenceError | undefined {
		return this.persistenceError;
	}

	/** Called when writing starts failing (with the error) and when it recovers (with undefined). */
	onPersistenceError(listener: PersistenceListener): () => void {
		this.persistenceListeners.add(listener);
		return () => this.persistenceListeners.delete(listener);
	}

	// ---------------------------------------------------------------------------------------------------------
	// Appending (each returns the new entry's id)
	// ---------------------------------------------------------------------------------------------------------

	appendMessage(message: StorableMessage): string {
		const role = (message as { role: string }).role;
		if (role === "compactionSummary" || role === "branchSummary") {
			throw new TypeError(
				`${role} messages are not stored as message entries; use appendCompaction/branchWithSummary`,
			);
		}
		return this.appendEntry<SessionMessageEntry>("message", { message });
	}

	appendThinkingLevelChange(thinkingLevel: ThinkingLevel): string {
		return this.appendEntry<ThinkingLevelChangeEntry>("thinking_level_change", { thinkingLevel });
	}

	/** Only the provider and model id are stored: never keys, headers or base URLs. */
	appendModelChange(provider: string, modelId: string): string {
		return this.appendEntry<ModelChangeEntry>("model_change", { provider, modelId });
	}

	appendCompaction<TDetails = unknown>(
		summary: string,
		firstKeptEntryId: string,
		tokensBefore: number,
		details?: TDetails,
		fromHook?: boolean,
	): string {
		return this.appendEntry<CompactionEntry>("compaction", {
			summary,
			firstKeptEntryId,
			tokensBefore,
			details,
			fromHook,
		});
	}

	/** Extension state: a tree node that never reaches the model. */
	appendCustomEntry<TData = unknown>(customType: string, data?: TData): string {
		return this.appendEntry<CustomEntry>("custom", { customType, data }, true);
	}

	/** An extension message the model sees as a user message. */
	appendCustomMessageEntry<TDetails = unknown>(
		customType: string,
		content: CustomMessageEntry["content"],
		display: boolean,
		details?: TDetails,
	): string {
		return this.appendEntry<CustomMessageEntry>("custom_message", { customType, content, display, details }, true);
	}

	/** Sets the session's display name (trimmed). */
	appendSessionInfo(name: string): string {
		return this.appendEntry<SessionInfoEntry>("session_info", { name: name.trim() });
	}

	/** Ours: how a tool call's permission was decided; a tree node that never reaches the model. */
	appendPermissionDecision(decision: PermissionDecision): string {
		return this.appendEntry<PermissionDecisionEntry>("permission_decision", decision);
	}

	/** Files the agent changed (docs/checkpoints.md); `files` must not be empty. */
	appendFileCheckpoint(
		source: FileCheckpointSource,
		files: FileCheckpointChange[],
		options: { toolCallIds?: string[]; restoredTo?: string | null } = {},
	): string {
		const { toolCallIds, restoredTo } = options;
		return this.appendEntry<FileCheckpointEntry>("file_checkpoint", {
			source,
			...(toolCallIds && toolCallIds.length > 0 ? { toolCallIds } : {}),
			...(restoredTo !== undefined ? { restoredTo } : {}),
			files,
		});
	}

	/** Sets (or with undefined/"" clears) the label of an existing entry. */
	appendLabelChange(targetId: string, label: string | undefined): string {
		if (!this.byId.has(targetId)) throw new Error(`Entry ${targetId} not found`);
		return this.appendEntry<LabelEntry>("label", { targetId, label: label || undefined });
	}

	// ---------------------------------------------------------------------------------------------------------
	// Navigation
	// ---------------------------------------------------------------------------------------------------------

	/** Moves the leaf to an existing entry; the next append starts a new branch there. Nothing is written. */
	branch(entryId: string): void {
		if (!this.byId.has(entryId)) throw new Error(`Entry ${entryId} not found`);
		this.leafId = entryId;
	}

	/** Moves the leaf before the first entry: the next append is a new root. */
	resetLeaf(): void {
		this.leafId = null;
	}

	/**
	 * Moves the leaf to `branchFromId` (null: before the first entry) and appends a summary of the branch left
	 * behind there. `fromId` records that branch point ("root" for null), as the reference does.
	 */
	branchWithSummary<TDetails = unknown>(
		branchFromId: string | null,
		summary: string,
		details?: TDetails,
		fromHook?: boolean,
	): string {
		if (branchFromId === null) this.resetLeaf();
		else this.branch(branchFromId);
		return this.appendEntry<BranchSummaryEntry>("branch_summary", {
			fromId: branchFromId ?? "root",
			summary,
			details,
			fromHook,
		});
	}

	/**
	 * Continues the branch ending at `leafId` in a new session file of the same directory (`/fork`): the path's
	 * entries without labels, ids preserved, then one fresh label entry per label on that path. The header's
	 * `parentSession` is the previous file. Returns the new file (undefined in memory); it is written at once
	 * when the path holds an assistant message, else lazily.
	 */
	createBranchedSession(leafId: string): string | undefined {
		if (!this.byId.has(leafId)) throw new Error(`Entry ${leafId} not found`);
		const path = getBranchPath(this.byId, leafId).filter((entry) => entry.type !== "label");
		const parentSession = this.persist ? this.sessionFile : undefined;
		const labelsOnPath = path.flatMap((entry) => {
			const label = this.labels.get(entry.id);
			return label === undefined ? [] : [{ targetId: entry.id, label }];
		});
		this.releaseWriter();
		this.startNewSession(parentSession !== undefined ? { parentSession } : {});
		for (const entry of path) this.addEntry(entry);
		this.leafId = path.length > 0 ? (path[path.length - 1] as SessionEntry).id : null;
		for (const { targetId, label } of labelsOnPath) {
			this.appendEntry<LabelEntry>("label", { targetId, label });
		}
		this.persistPending();
		return this.sessionFile;
	}

	// ---------------------------------------------------------------------------------------------------------
	// Internals
	// ---------------------------------------------------------------------------------------------------------

	private appendEntry<T extends SessionEntry>(type: T["type"], fields: EntryFields<T>, payloadFirst = false): string {
		const id = generateEntryId((candidate) => this.byId.has(candidate));
		const base = { id, parentId: this.leafId, timestamp: new Date().toISOString() };
		// Key order as the reference writes it (readers must not depend on it, but byte-identical files are nicer).
		const entry = omitUndefined(
			payloadFirst ? { type, ...fields, ...base } : { type, ...base, ...fields },
		) as unknown as SessionEntry;
		this.addEntry(entry);
		this.leafId = id;
		this.persistPending();
		return id;
	}

	private addEntry(entry: SessionEntry): void {
		this.entries.push(entry);
		this.byId.set(entry.id, entry);
		if (entry.type === "label") {
			if (entry.label) this.labels.set(entry.targetId, entry.label);
			else this.labels.delete(entry.targetId);
		}
		if (entry.type === "message" && entry.message.role === "assistant") this.hasAssistantMessage = true;
	}

	private resetState(): void {
		this.entries = [];
		this.byId = new Map();
		this.labels = new Map();
		this.leafId = null;
		this.flushed = false;
		this.entriesOnDisk = 0;
		this.hasAssistantMessage = false;
		this.writeBlocked = undefined;
		this.diagnostics = [];
		this.setPersistenceError(undefined);
	}

	private startNewSession(options: NewSessionOptions): void {
		this.resetState();
		this.header = createSessionHeader(this.cwd, options);
		this.sessionFile = this.persist ? join(this.sessionDir, sessionFileName(this.header)) : undefined;
		this.writer = this.sessionFile ? new SessionFileWriter(this.sessionFile) : undefined;
	}

	/** Reads `file` into this (empty) session. `writer`, when given, already holds the file's lock. */
	private loadFile(file: string, cwdOverride: string | undefined, writer = new SessionFileWriter(file)): void {
		this.sessionFile = file;
		this.writer = writer;
		try {
			writer.acquireLock();
		} catch (error) {
			if (error instanceof SessionLockedError) throw error;
			// Cannot lock (read-only directory, permissions): the session opens, nothing will be written.
			this.writeBlocked = describePersistenceError(file, error);
		}
		let text: string | undefined;
		try {
			text = readTextIfExists(file);
		} catch (error) {
			writer.releaseLock();
			throw error;
		}
		if (text === undefined || text.trim() === "") {
			this.header = createSessionHeader(cwdOverride ?? this.cwd);
			if (text !== undefined && text.length > 0) writer.markMayEndMidLine();
		} else {
			let loaded: ReturnType<typeof loadSessionText>;
			try {
				loaded = loadSessionText(text, file);
			} catch (error) {
				writer.releaseLock();
				throw error;
			}
			this.header = loaded.header;
			this.cwd = cwdOverride ?? (loaded.header.cwd || this.cwd);
			this.diagnostics = loaded.diagnostics;
			for (const entry of loaded.entries) this.addEntry(entry);
			this.leafId =
				loaded.entries.length > 0 ? (loaded.entries[loaded.entries.length - 1] as SessionEntry).id : null;
			this.flushed = true;
			this.entriesOnDisk = this.entries.length;
			if (!loaded.endsWithNewline) writer.markMayEndMidLine();
			if (loaded.migration && !this.writeBlocked) {
				try {
					writer.rewrite(loaded.migration.text);
				} catch (error) {
					// Appending current-version lines to an unmigrated file would corrupt it on the next load.
					this.writeBlocked = describePersistenceError(file, error);
				}
			}
		}
		if (this.writeBlocked) this.setPersistenceError(this.writeBlocked);
	}

	private adopt(other: SessionManager): void {
		this.cwd = other.cwd;
		this.sessionDir = other.sessionDir;
		this.persist = other.persist;
		this.header = other.header;
		this.entries = other.entries;
		this.byId = other.byId;
		this.labels = other.labels;
		this.leafId = other.leafId;
		this.sessionFile = other.sessionFile;
		this.writer = other.writer;
		this.flushed = other.flushed;
		this.entriesOnDisk = other.entriesOnDisk;
		this.hasAssistantMessage = other.hasAssistantMessage;
		this.writeBlocked = other.writeBlocked;
		this.diagnostics = other.diagnostics;
		this.setPersistenceError(other.persistenceError);
	}

	private releaseWriter(): void {
		this.writer?.releaseLock();
	}

	/**
	 * Writes whatever the file lacks: nothing before the first assistant message of a new session. What is on disk
	 * is tracked by count, so a loaded file is never re-appended (the reference duplicates a loaded file's lines
	 * when its first assistant message arrives), and entries whose write failed are retried, in order, next time.
	 */
	private persistPending(): void {
		const writer = this.writer;
		if (!writer || this.writeBlocked) return;
		if (!this.flushed && !this.hasAssistantMessage) return;
		let text = this.flushed ? "" : serializeFileEntry(this.header);
		for (let i = this.entriesOnDisk; i < this.entries.length; i++)
			text += serializeFileEntry(this.entries[i] as SessionEntry);
		try {
			writer.append(text);
		} catch (error) {
			if (error instanceof SessionLockedError)
				this.setPersistenceError({ sessionFile: error.sessionFile, message: error.message });
			else this.setPersistenceError(describePersistenceError(writer.sessionFile, error));
			return;
		}
		this.flushed = true;
		this.entriesOnDisk = this.entries.length;
		this.setPersistenceError(undefined);
	}

	private setPersistenceError(error: SessionPersistenceError | undefined): void {
		const changed = (this.persistenceError === undefined) !== (error === undefined);
		this.persistenceError = error;
		if (!changed) return;
		for (const listener of this.persistenceListeners) listener(error);
	}
}
