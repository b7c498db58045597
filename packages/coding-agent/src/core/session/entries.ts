// The session file wire format (docs/session-format.md): every line kind is defined here, once.
// Files written by either program open in the other, so names, fields and key order are the reference's.
import type { AgentMessage, ThinkingLevel } from "@agent/agent-core";
import type { ImageContent, TextContent } from "@agent/ai";

export const CURRENT_SESSION_VERSION = 3;

/** Line 1 of a session file. Not a tree node. */
export interface SessionHeader {
	type: "session";
	/** Absent in v1 files. */
	version?: number;
	/** UUID v4; also the provider cache/session key. */
	id: string;
	/** ISO-8601 creation time. */
	timestamp: string;
	/** Working directory the session belongs to ("" in very old files). */
	cwd: string;
	/** Path of the session this one was forked from. */
	parentSession?: string;
}

export interface SessionEntryBase {
	type: string;
	/** 8 lowercase hex characters, unique within the file. */
	id: string;
	/** Leaf at the moment of appending; null for a root. */
	parentId: string | null;
	/** ISO-8601 creation time. */
	timestamp: string;
}

export interface SessionMessageEntry extends SessionEntryBase {
	type: "message";
	message: AgentMessage;
}

export interface ThinkingLevelChangeEntry extends SessionEntryBase {
	type: "thinking_level_change";
	thinkingLevel: ThinkingLevel;
}

export interface ModelChangeEntry extends SessionEntryBase {
	type: "model_change";
	provider: string;
	modelId: string;
}

export interface CompactionEntry<TDetails = unknown> extends SessionEntryBase {
	type: "compaction";
	summary: string;
	/** First entry on the same path, before this one, whose message is kept verbatim. */
	firstKeptEntryId: string;
	tokensBefore: number;
	details?: TDetails;
	/** True when an extension produced it (legacy name kept for compatibility). */
	fromHook?: boolean;
}

export interface BranchSummaryEntry<TDetails = unknown> extends SessionEntryBase {
	type: "branch_summary";
	/** The branch point the summary was attached at (the new leaf's id, or "root"); not the abandoned leaf. */
	fromId: string;
	summary: string;
	details?: TDetails;
	fromHook?: boolean;
}

/** Extension state; never part of the model context, but a tree node. */
export interface CustomEntry<TData = unknown> extends SessionEntryBase {
	type: "custom";
	customType: string;
	data?: TData;
}

/** An extension message the model sees as a user message. */
export interface CustomMessageEntry<TDetails = unknown> extends SessionEntryBase {
	type: "custom_message";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: TDetails;
}

/** Bookmark on `targetId`; without `label` (or with "") it clears the bookmark. */
export interface LabelEntry extends SessionEntryBase {
	type: "label";
	targetId: string;
	label?: string;
}

/** Display name of the session. */
export interface SessionInfoEntry extends SessionEntryBase {
	type: "session_info";
	name?: string;
}

/**
 * Ours: how one tool call's permission was decided (docs/permissions.md). A tree node that never reaches the
 * model; readers that do not know the kind keep it and skip it (docs/session-format.md "Kinds a reader does not know").
 */
export interface PermissionDecisionEntry extends SessionEntryBase {
	type: "permission_decision";
	toolCallId: string;
	toolName: string;
	decision: "allow" | "deny";
	/** A rule, the mode, the user's answer, no one to answer (print mode), or a failed check (fail closed). */
	decidedBy: "rule" | "mode" | "user" | "unanswered" | "error";
	/** The permission mode at the time. */
	mode: string;
	/** The rule that decided, or that made the call ask. */
	rule?: string;
	/** Where that rule came from: user settings, project settings, command line, this session, extension <path>. */
	ruleSource?: string;
	/** What the rule or mode looked at: the command, the path, the tool. */
	subject?: string;
	/** Why: the mode's reason, why the user was asked, or the error. */
	reason?: string;
	/** The user's answer: once, for this session, always. */
	scope?: "once" | "session" | "always";
	/** The reason the user gave for denying (sent to the model). */
	userReason?: string;
}

/** The fields of a permission decision, as the permission check hands them to the session file. */
export type PermissionDecision = Omit<PermissionDecisionEntry, keyof SessionEntryBase>;

/**
 * What a path was, as a file checkpoint records it: absent (`null`), a regular file whose content is in the
 * session's checkpoint store (`blob`: SHA-256 of the content, hex), a file whose content was not kept
 * (`unrecorded`: larger than `checkpoints.maxFileBytes`, the store was full, or it could not be read; `hash` is
 * the content's SHA-256 when it was read, `mtimeMs` tells versions apart when it was not), a symbolic link (its
 * target, never followed), or a directory.
 */
export type FileCheckpointState =
	| null
	| { blob: string; size: number; mode: number }
	| {
			unrecorded: "too-large" | "store-full" | "unreadable";
			size: number;
			mode: number;
			hash?: string;
			mtimeMs?: number;
	  }
	| { link: string }
	| { dir: true };

/** One path changed by the agent. */
export interface FileCheckpointChange {
	/** Relative to the session's working directory with `/` separators; absolute for a file outside it. */
	path: string;
	before: FileCheckpointState;
	after: FileCheckpointState;
	/** When the change was seen, in the order of the session's changes: the latest change of a path wins. */
	seq: number;
}

export type FileCheckpointSource = "edit" | "write" | "bash" | "user_bash" | "restore";

/**
 * Ours (docs/checkpoints.md): files the agent changed. Appended just before the entry that reports the change
 * (a tool result, a `!cmd` message), or after the point a restore went to, so every point of the tree knows
 * its files: the latest change of each path on the branch up to it. Contents are in the checkpoint store
 * beside the session file; the entry holds references. Readers that do not know the kind (the reference)
 * keep it as a tree node that never reaches the model.
 */
export interface FileCheckpointEntry extends SessionEntryBase {
	type: "file_checkpoint";
	source: FileCheckpointSource;
	/** The tool calls whose changes these are (more than one when calls that ran together changed them). */
	toolCallIds?: string[];
	/** A restore: the entry whose files these became (null: as before the first entry). */
	restoredTo?: string | null;
	files: FileCheckpointChange[];
}

/**
 * Every entry kind this version knows. Entries of other kinds (written by a newer program) are kept in
 * memory and in the file untouched and keep their own `type`: code switching on `type` needs a default.
 */
export type SessionEntry =
	| SessionMessageEntry
	| ThinkingLevelChangeEntry
	| ModelChangeEntry
	| CompactionEntry
	| BranchSummaryEntry
	| CustomEntry
	| CustomMessageEntry
	| LabelEntry
	| SessionInfoEntry
	| PermissionDecisionEntry
	| FileCheckpointEntry;

export type SessionEntryType = SessionEntry["type"];

/** An entry of a kind this version does not know: a tree node, ignored for context building. */
export interface UnknownSessionEntry extends SessionEntryBase {
	[field: string]: unknown;
}

/** Any line of a session file: the header or an entry. */
export type FileEntry = SessionHeader | SessionEntry;

const KNOWN_ENTRY_TYPES: ReadonlySet<string> = new Set<SessionEntryType>([
	"message",
	"thinking_level_change",
	"model_change",
	"compaction",
	"branch_summary",
	"custom",
	"custom_message",
	"label",
	"session_info",
	"permission_decision",
	"file_checkpoint",
]);

export function isKnownEntryType(type: string): type is SessionEntryType {
	return KNOWN_ENTRY_TYPES.has(type);
}

/** The model and thinking level a branch was left with, and the messages the model sees. */
export interface SessionContext {
	messages: AgentMessage[];
	thinkingLevel: ThinkingLevel;
	model: { provider: string; modelId: string } | null;
}

/** A node of the session tree as shown by `/tree`. */
export interface SessionTreeNode {
	entry: SessionEntry;
	children: SessionTreeNode[];
	label?: string;
}

/** One session file as the resume picker and `--session <id>` see it (docs/session-format.md "Listing sessions"). */
export interface SessionInfo {
	path: string;
	id: string;
	/** Header cwd, or "" for very old files. */
	cwd: string;
	/** Last non-empty `session_info` name, trimmed. */
	name?: string;
	parentSessionPath?: string;
	created: Date;
	/** Time of the last user/assistant message; else the header time; else the file's mtime. */
	modified: Date;
	/** `message` entries on all branches. */
	messageCount: number;
	/** Text of the first user message, or `(no messages)`. */
	firstMessage: string;
	/** All user and assistant text joined by spaces, for search. Read from the file on first access. */
	readonly allMessagesText: string;
}

/** A line of a session file that could not be used, reported with its place. */
export interface SessionFileDiagnostic {
	file: string;
	/** 1-based line number in the file. */
	line: number;
	message: string;
}
