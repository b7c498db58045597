// What AgentSession reports to modes (docs/json.md "Events") and the shapes its queries return. Defined once here,
// imported by the session, its controllers and every mode.
import type { AgentEvent, ThinkingLevel } from "@agent/agent-core";
import type { ImageContent, Model } from "@agent/ai";
import type { FileRestoreResult } from "../checkpoints/types.js";
import type { CompactionResult } from "../compaction/compaction.js";
import type { BranchSummaryEntry, SessionEntry } from "../session/entries.js";
import type { SessionManager } from "../session/session-manager.js";

export type AutoCompactionReason = "threshold" | "overflow";

/**
 * Agent events, then the session's own: automatic compaction, automatic retry, extension failures, and (ours)
 * notices of file checkpoints (a limit reached, watching stopped; docs/checkpoints.md).
 */
export type AgentSessionEvent =
	| AgentEvent
	| { type: "auto_compaction_start"; reason: AutoCompactionReason }
	| {
			type: "auto_compaction_end";
			/** Absent when nothing was compacted. */
			result?: CompactionResult;
			aborted: boolean;
			willRetry: boolean;
			errorMessage?: string;
	  }
	| { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
	| { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
	| { type: "extension_error"; extensionPath: string; event: string; error: string }
	| { type: "checkpoint_notice"; message: string };

export type AgentSessionEventListener = (event: AgentSessionEvent) => void;

export interface PromptOptions {
	images?: ImageContent[];
	/** Required while the agent is streaming: queue the message as steering or follow-up. */
	streamingBehavior?: MessageDelivery;
	/**
	 * Default true: extension commands, `/skill:` and `/template` are expanded. Extension-sent user messages
	 * pass false.
	 */
	expandPromptTemplates?: boolean;
	/** For the `input` extension event; default "interactive". */
	source?: InputSource;
}

/** `get_session_stats` (docs/rpc.md "Reading the conversation"), over the messages currently in context. */
export interface SessionStats {
	sessionFile?: string;
	sessionId: string;
	userMessages: number;
	assistantMessages: number;
	toolCalls: number;
	toolResults: number;
	totalMessages: number;
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
	/** USD */
	cost: number;
}

/** `cycle_model` (docs/rpc.md "Model and thinking level"). */
export interface ModelCycleResult {
	model: Model;
	/** The effective level after clamping. */
	thinkingLevel: ThinkingLevel;
	/** The candidates were the scoped models (`--models` / `enabledModels`). */
	isScoped: boolean;
}

/** Result of a user `!command` / RPC `bash` (docs/rpc.md "bash and abort_bash"). */
export interface BashResult {
	output: string;
	/** Absent when the process was killed or cancelled. */
	exitCode?: number;
	cancelled: boolean;
	truncated: boolean;
	/** Set when the output exceeded 50 KiB: the whole sanitized output is in this file. */
	fullOutputPath?: string;
}

/** Context usage for footers and `ctx.getContextUsage()` (docs/compaction.md "When it happens"). */
export interface ContextUsage {
	/** null right after a compaction, until a reply reports usage again. */
	tokens: number | null;
	contextWindow: number;
	percent: number | null;
}

/** A slash command as `get_commands` lists it (docs/rpc.md "Reading the conversation"). */
export interface SlashCommandInfo {
	name: string;
	description?: string;
	/** Ours: `mcp` for an MCP server's prompt (`mcp__<server>__<prompt>`). */
	source: "extension" | "prompt" | "skill" | "mcp";
	location?: "user" | "project" | "path";
	path?: string;
}

/** Where a branch-summary navigation ends up (docs/compaction.md "Branch summaries"). */
export interface TreePreparation {
	targetId: string;
	oldLeafId: string | null;
	commonAncestorId: string | null;
	entriesToSummarize: SessionEntry[];
	userWantsSummary: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}

export interface NavigateTreeOptions {
	summarize?: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
	/** Ours: also put the files back as they were at the new position (docs/checkpoints.md). */
	restoreFiles?: boolean;
	/** Ours: with `restoreFiles`, overwrite files changed outside the agent too. */
	forceRestore?: boolean;
}

export interface NavigateTreeResult {
	cancelled: boolean;
	/** The summarizer was aborted (`abortBranchSummary()`); nothing changed. */
	aborted?: boolean;
	/** Text of the target user/custom message, to pre-fill an editor. */
	editorText?: string;
	summaryEntry?: BranchSummaryEntry;
	/**
	 * Ours: with `restoreFiles`, what restoring the files did. With conflicts (and no `forceRestore`) nothing
	 * happened: `cancelled` is true and the conflicts are listed.
	 */
	files?: FileRestoreResult;
}

/** Ours (docs/checkpoints.md). */
export interface ForkOptions {
	/** Also put the files back as they were before the selected message. */
	restoreFiles?: boolean;
	/** With `restoreFiles`, overwrite files changed outside the agent too. */
	forceRestore?: boolean;
}

export interface ForkResult {
	/** Text of the selected user message (to pre-fill an editor). */
	selectedText: string;
	cancelled: boolean;
	/** Ours: with `restoreFiles`, what restoring the files did (conflicts without force: nothing, `cancelled`). */
	files?: FileRestoreResult;
}

export interface NewSessionRequest {
	parentSession?: string;
	/** Runs on the fresh session before it is used (extensions seed entries here). */
	setup?: (sessionManager: SessionManager) => Promise<void>;
}

export type SessionSwitchReason = "new" | "resume";
export type ModelSelectSource = "set" | "cycle" | "restore";
export type InputSource = "interactive" | "rpc" | "extension";
export type MessageDelivery = "steer" | "followUp";
