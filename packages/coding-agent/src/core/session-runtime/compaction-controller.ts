// When and how the session compacts (docs/compaction.md "When it happens"): after runs (threshold, overflow), before
// prompts, and on request.
import type { Agent, AgentMessage, StreamFn } from "@agent/agent-core";
import { type AssistantMessage, isContextOverflow, type Model } from "@agent/ai";
import { type CompactionResult, compact, prepareCompaction } from "../compaction/compaction.js";
import {
	compactionSettingsForWindow,
	parseContextOverflowLimits,
	planOverflowCompaction,
} from "../compaction/overflow-recovery.js";
import { calculateContextTokens, estimateContextTokens, shouldCompact } from "../compaction/token-estimation.js";
import type { SettingsManager } from "../config/settings-manager.js";
import type { CompactionSettings } from "../config/settings-schema.js";
import type { ExtensionHooks } from "../extensions/hooks.js";
import type { CompactionEntry, SessionEntry } from "../session/entries.js";
import type { SessionManager } from "../session/session-manager.js";
import { getLatestCompactionEntry } from "../session/session-tree.js";
import type { AgentSessionEvent, AutoCompactionReason } from "./events.js";

export const OVERFLOW_RECOVERY_FAILED_TEXT =
	"Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.";
export const NO_MODEL_SELECTED_TEXT = "No model selected";
export const ALREADY_COMPACTED_TEXT = "Already compacted";
export const NOTHING_TO_COMPACT_TEXT = "Nothing to compact (session too small)";
export const COMPACTION_CANCELLED_TEXT = "Compaction cancelled";
export const COMPACTION_IN_PROGRESS_TEXT = "Compaction already in progress";

export function noApiKeyForProviderText(provider: string): string {
	return `No API key for ${provider}`;
}

export interface CompactionHost {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly hooks: ExtensionHooks;
	readonly model: Model | undefined;
	getApiKey(model: Model): Promise<string | undefined>;
	/** Used for the summary requests (the session's stream function, watchdog included). */
	readonly streamFn: StreamFn;
	emit(event: AgentSessionEvent): void;
	/** Replaces the agent's messages with the session's context. */
	rebuildAgentMessages(): void;
	/** Waits a moment, then continues the agent (after an overflow, or to deliver queued messages). */
	resumeAgent(): Promise<void>;
}

export interface CheckCompactionOptions {
	/** Before a prompt: aborted replies count too. */
	skipAbortedCheck?: boolean;
	/** Continue the agent afterwards (overflow retry, queued messages). Off before a prompt, which runs anyway. */
	allowResume?: boolean;
}

function entryTime(entry: SessionEntry): number {
	return Date.parse(entry.timestamp) || 0;
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * Owns compaction state: whether one is running (`isCompacting`), its abort controller, and the once-per-prompt
 * overflow recovery flag. Summarization failures never escape automatic compaction: they end it with an
 * `errorMessage`, and the session carries on with its context as it was.
 */
export class CompactionController {
	private running: "manual" | "auto" | undefined;
	private abortController: AbortController | undefined;
	private overflowRecoveryAttempted = false;
	/** The overflowed reply last handled: checked again before the next prompt, it is not recovered twice. */
	private overflowHandled: AssistantMessage | undefined;
	/** Ours: a window an overflow error revealed, for the model it was learned for (the rest of the session). */
	private learnedWindow: { provider: string; modelId: string; contextWindow: number } | undefined;
	/** The kept-part budget of the last overflow recovery: the next one without a stated window cuts deeper. */
	private lastOverflowKeepTokens: number | undefined;

	constructor(private readonly host: CompactionHost) {}

	/**
	 * The window to work with for `model` (context usage, the threshold, overflow detection): the one an overflow
	 * error revealed in this session when it is smaller, else the model's own.
	 */
	contextWindowOf(model: Model): number {
		const learned = this.learnedWindow;
		if (!learned || learned.provider !== model.provider || learned.modelId !== model.id) return model.contextWindow;
		return Math.min(learned.contextWindow, model.contextWindow);
	}

	get isCompacting(): boolean {
		return this.running !== undefined;
	}

	/** A user message started: a new overflow may be recovered from again. */
	noteUserMessageStart(): void {
		this.overflowRecoveryAttempted = false;
	}

	/** A reply that did not fail ends the overflow recovery. */
	noteAssistantMessageEnd(message: AssistantMessage): void {
		if (message.stopReason !== "error") this.overflowRecoveryAttempted = false;
	}

	/** Cancels a running compaction, manual or automatic. */
	abort(): void {
		this.abortController?.abort();
	}

	/** Cancels a running automatic compaction only. */
	abortAuto(): void {
		if (this.running === "auto") this.abortController?.abort();
	}

	/**
	 * After a run (or before a prompt): compacts when `message` overflowed the context, or when the context
	 * has grown past `contextWindow − reserveTokens`.
	 */
	async checkCompaction(message: AssistantMessage, options: CheckCompactionOptions = {}): Promise<void> {
		const settings = this.host.settingsManager.getCompactionSettings();
		if (!settings.enabled || this.running) return;
		if (!options.skipAbortedCheck && message.stopReason === "aborted") return;
		const branch = this.host.sessionManager.getBranch();
		const compaction = getLatestCompactionEntry(branch);
		// Usage reported before the latest compaction describes a context that no longer exists.
		if (compaction && message.timestamp <= entryTime(compaction)) return;
		const model = this.host.model;
		if (!model) return;

		const sameModel = message.provider === model.provider && message.model === model.id;
		if (sameModel && isContextOverflow(message, this.contextWindowOf(model))) {
			if (message === this.overflowHandled) return;
			this.overflowHandled = message;
			if (this.overflowRecoveryAttempted) {
				this.host.emit({
					type: "auto_compaction_end",
					aborted: false,
					willRetry: false,
					errorMessage: OVERFLOW_RECOVERY_FAILED_TEXT,
				});
				return;
			}
			this.overflowRecoveryAttempted = true;
			const failed = message.stopReason === "error";
			// Ours: the provider's word counts, not our estimate: the recovery's budget fits the window the error
			// states (learned for the rest of the session), and the cut always leaves something to summarize.
			const settings = failed ? this.learnFromOverflow(model, message) : this.settingsFor(model);
			// Ours: the reference removed the failed reply from the context before compacting, so when there was
			// nothing to compact (or the summary failed) the failure vanished: print mode exited 0 without a
			// word. It stays until a compacted context is retried (runAuto drops it then).
			// A reply that succeeded although its input exceeded the window needs no retry, just room.
			await this.runAuto("overflow", failed && options.allowResume === true, options.allowResume === true, settings);
			return;
		}

		let contextTokens: number;
		if (message.stopReason === "error") {
			const estimate = estimateContextTokens(this.host.agent.state.messages);
			if (estimate.lastUsageIndex === null) return;
			const withUsage = this.host.agent.state.messages[estimate.lastUsageIndex] as AssistantMessage;
			if (compaction && withUsage.timestamp <= entryTime(compaction)) return;
			contextTokens = estimate.tokens;
		} else {
			// Records written by older versions may lack usage.
			if (!message.usage) return;
			contextTokens = calculateContextTokens(message.usage);
		}
		const windowSettings = this.settingsFor(model);
		if (shouldCompact(contextTokens, this.contextWindowOf(model), windowSettings)) {
			await this.runAuto("threshold", false, options.allowResume === true, windowSettings);
		}
	}

	/** Learns the window an overflow error states, if it states one, and plans the recovery's budget. */
	private learnFromOverflow(model: Model, failure: AssistantMessage): Required<CompactionSettings> {
		const plan = planOverflowCompaction({
			currentWindow: this.contextWindowOf(model),
			limits: parseContextOverflowLimits(failure.errorMessage ?? ""),
			estimatedTokens: estimateContextTokens(this.host.agent.state.messages).tokens,
			settings: this.resolvedSettings(),
			...(this.lastOverflowKeepTokens !== undefined ? { previousKeepTokens: this.lastOverflowKeepTokens } : {}),
		});
		if (plan.contextWindow !== undefined && plan.contextWindow < model.contextWindow) {
			this.learnedWindow = { provider: model.provider, modelId: model.id, contextWindow: plan.contextWindow };
		}
		this.lastOverflowKeepTokens = plan.settings.keepRecentTokens;
		return plan.settings;
	}

	/** The compaction settings for `model`'s window: sized down to fit a learned window. */
	private settingsFor(model: Model): Required<CompactionSettings> {
		const settings = this.resolvedSettings();
		const window = this.contextWindowOf(model);
		return window < model.contextWindow ? compactionSettingsForWindow(settings, window) : settings;
	}

	/** `/compact [instructions]`: the run is already stopped by the caller. */
	async compactNow(customInstructions?: string): Promise<CompactionResult> {
		if (this.running) throw new Error(COMPACTION_IN_PROGRESS_TEXT);
		const model = this.host.model;
		if (!model) throw new Error(NO_MODEL_SELECTED_TEXT);
		const apiKey = await this.host.getApiKey(model);
		if (!apiKey) throw new Error(noApiKeyForProviderText(model.provider));
		const branch = this.host.sessionManager.getBranch();
		// Ours: a short session is compacted too (what precedes its last turn); only a lone message is not.
		const preparation = prepareCompaction(branch, this.settingsFor(model), { mustMakeProgress: true });
		if (!preparation) {
			throw new Error(branch.at(-1)?.type === "compaction" ? ALREADY_COMPACTED_TEXT : NOTHING_TO_COMPACT_TEXT);
		}

		const controller = new AbortController();
		this.begin("manual", controller);
		try {
			let result: CompactionResult | undefined;
			let fromExtension = false;
			if (this.host.hooks.hasHandlers("session_before_compact")) {
				const decision = await this.host.hooks.emitSessionBeforeCompact({
					preparation,
					branchEntries: branch,
					customInstructions,
					signal: controller.signal,
				});
				if (decision?.cancel) throw new Error(COMPACTION_CANCELLED_TEXT);
				if (decision?.compaction) {
					result = decision.compaction;
					fromExtension = true;
				}
			}
			result ??= await compact(preparation, model, apiKey, customInstructions, controller.signal, {
				streamFn: this.host.streamFn,
			});
			if (controller.signal.aborted) throw new Error(COMPACTION_CANCELLED_TEXT);
			await this.persist(result, fromExtension);
			return result;
		} catch (error) {
			if (controller.signal.aborted) throw new Error(COMPACTION_CANCELLED_TEXT);
			throw error;
		} finally {
			this.end(controller);
		}
	}

	private resolvedSettings(): Required<CompactionSettings> {
		return this.host.settingsManager.getCompactionSettings();
	}

	private async runAuto(
		reason: AutoCompactionReason,
		willRetry: boolean,
		allowResume: boolean,
		settings: Required<CompactionSettings>,
	): Promise<void> {
		const { host } = this;
		const controller = new AbortController();
		this.begin("auto", controller);
		let result: CompactionResult | "cancelled" | undefined;
		try {
			host.emit({ type: "auto_compaction_start", reason });
			// Ours: the provider's figures say the context must shrink even when our estimate would keep everything
			// (an overflow, or usage past the threshold of a window an overflow revealed): the cut then falls before
			// the last turn. A configured window keeps the usual budget-only cut.
			const model = host.model;
			const mustMakeProgress =
				reason === "overflow" || (model !== undefined && this.contextWindowOf(model) < model.contextWindow);
			result = await this.produceAutoCompaction(controller.signal, settings, mustMakeProgress);
		} catch (error) {
			if (controller.signal.aborted) return this.emitAborted();
			const prefix = reason === "overflow" ? "Context overflow recovery failed" : "Auto-compaction failed";
			host.emit({
				type: "auto_compaction_end",
				aborted: false,
				willRetry: false,
				errorMessage: `${prefix}: ${describe(error)}`,
			});
			// The context is as it was; messages queued meanwhile are still delivered (never dropped).
			if (allowResume && reason === "threshold" && host.agent.hasQueuedMessages()) await host.resumeAgent();
			return;
		} finally {
			this.end(controller);
		}

		if (result === "cancelled") return this.emitAborted();
		if (result === undefined) {
			host.emit({ type: "auto_compaction_end", aborted: false, willRetry: false });
			return;
		}
		host.emit({ type: "auto_compaction_end", result, aborted: false, willRetry });
		if (!allowResume) return;
		if (willRetry) {
			this.dropTrailingFailure();
			await host.resumeAgent();
		} else if (host.agent.hasQueuedMessages()) {
			await host.resumeAgent();
		}
	}

	/**
	 * The compaction of the current branch, persisted: the extension's or the summarizer's. Undefined when
	 * there is nothing to do (no model, no key, nothing to compact); "cancelled" when an extension or an
	 * abort stopped it.
	 */
	private async produceAutoCompaction(
		signal: AbortSignal,
		settings: Required<CompactionSettings>,
		mustMakeProgress: boolean,
	): Promise<CompactionResult | "cancelled" | undefined> {
		const { host } = this;
		const model = host.model;
		if (!model) return undefined;
		const apiKey = await host.getApiKey(model);
		if (!apiKey) return undefined;
		const branch = host.sessionManager.getBranch();
		const preparation = prepareCompaction(branch, settings, { mustMakeProgress });
		if (!preparation) return undefined;
		let result: CompactionResult | undefined;
		let fromExtension = false;
		if (host.hooks.hasHandlers("session_before_compact")) {
			const decision = await host.hooks.emitSessionBeforeCompact({
				preparation,
				branchEntries: branch,
				customInstructions: undefined,
				signal,
			});
			if (decision?.cancel) return "cancelled";
			if (decision?.compaction) {
				result = decision.compaction;
				fromExtension = true;
			}
		}
		result ??= await compact(preparation, model, apiKey, undefined, signal, { streamFn: host.streamFn });
		if (signal.aborted) return "cancelled";
		await this.persist(result, fromExtension);
		return result;
	}

	private emitAborted(): void {
		this.host.emit({ type: "auto_compaction_end", aborted: true, willRetry: false });
	}

	private async persist(result: CompactionResult, fromExtension: boolean): Promise<void> {
		const { host } = this;
		const id = host.sessionManager.appendCompaction(
			result.summary,
			result.firstKeptEntryId,
			result.tokensBefore,
			result.details,
			fromExtension,
		);
		host.rebuildAgentMessages();
		const entry = host.sessionManager.getEntry(id) as CompactionEntry;
		await host.hooks.emit({ type: "session_compact", compactionEntry: entry, fromExtension });
	}

	/** Removes a failed reply from the agent's context; the session file keeps it. */
	private dropTrailingFailure(): void {
		const messages = this.host.agent.state.messages;
		const last: AgentMessage | undefined = messages[messages.length - 1];
		if (last?.role === "assistant" && last.stopReason === "error") {
			this.host.agent.replaceMessages(messages.slice(0, -1));
		}
	}

	private begin(kind: "manual" | "auto", controller: AbortController): void {
		this.running = kind;
		this.abortController = controller;
	}

	private end(controller: AbortController): void {
		if (this.abortController !== controller) return;
		this.running = undefined;
		this.abortController = undefined;
	}
}
