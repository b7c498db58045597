// What AgentSession reports to modes (docs/json.md "Events") and the shapes its queries return. Defined once here,
// imported by the session, its controllers and every mode.
import type { AgentEvent, ThinkingLevel } from "@agent/agent-core";
import type { ImageContent, Model } from "@agent/ai";
import type { CompactionResult } from "../compaction/compaction.js";
import type { InputSource, MessageDelivery } from "../extensions/hooks.js";

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
