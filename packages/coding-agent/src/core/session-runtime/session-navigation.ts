// Moving between sessions and within the tree (docs/rpc.md "Sessions",
// docs/compaction.md "Branch summaries").
import type { Agent, StreamFn, ThinkingLevel } from "@agent/agent-core";
import type { Model } from "@agent/ai";
import { collectEntriesForBranchSummary, generateBranchSummary } from "../compaction/branch-summarization.js";
import type { ModelRegistry } from "../config/model-registry.js";
import type { SettingsManager } from "../config/settings-manager.js";
import type { ExtensionHooks } from "../extensions/hooks.js";
import type { BranchSummaryEntry, SessionEntry } from "../session/entries.js";
import type { SessionManager } from "../session/session-manager.js";
import type {
	ForkResult,
	NavigateTreeOptions,
	NavigateTreeResult,
	NewSessionRequest,
	TreePreparation,
} from "./events.js";
import type { ModelController } from "./model-controller.js";
import { userMessageText } from "./prompt-input.js";

/** RPC `clone` on an empty session (the newest reference's text). */
export const NOTHING_TO_CLONE_TEXT = "Cannot clone session: no current entry selected";

export const INVALID_FORK_ENTRY_TEXT = "Invalid entry ID for forking";
export const NO_SUMMARY_MODEL_TEXT = "No model available for summarization";

export function entryNotFoundText(id: string): string {
	return `Entry ${id} not found`;
}

export interface NavigationHost {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly modelRegistry: ModelRegistry;
	readonly hooks: ExtensionHooks;
	readonly models: ModelController;
	readonly streamFn: StreamFn;
	getApiKey(model: Model): Promise<string | undefined>;
	/** Aborts the current run; its events are recorded, no retry or compaction follows it. */
	stopRun(): Promise<void>;
	/** Clears the agent (messages, queues) and the session's own pending state (queued texts, held bash). */
	resetRuntime(): void;
	/** Replaces the agent's messages with the session's context. */
	rebuildAgentMessages(): void;
	/**
	 * The session file changed (new, resumed, forked, cloned), before extensions hear of it: file checkpoints follow.
	 * `keepPending`: results of the run still to come are recorded in the new session (a fork does not stop the run).
	 */
	sessionFileChanged(options: { keepPending: boolean }): void;
}

/** `/new`, `/resume`, `/fork`, `/tree`: each asks extensions first, then changes the session and the agent. */
export class SessionNavigator {
	private summaryAbort: AbortController | undefined;

	constructor(private readonly host: NavigationHost) {}

	/** True while a branch summary is being generated. */
	get isSummarizing(): boolean {
		return this.summaryAbort !== undefined;
	}

	abortBranchSummary(): void {
		this.summaryAbort?.abort();
	}

	/** Starts a new session; false when an extension cancelled. The model is kept. */
	async newSession(options: NewSessionRequest = {}): Promise<boolean> {
		const { host } = this;
		const decision = await host.hooks.emitSessionBeforeSwitch({ reason: "new" });
		if (decision?.cancel) return false;
		const previousSessionFile = host.sessionManager.getSessionFile();
		await host.stopRun();
		host.resetRuntime();
		host.sessionManager.newSession(
			options.parentSession !== undefined ? { parentSession: options.parentSession } : {},
		);
		host.sessionManager.appendThinkingLevelChange(host.agent.state.thinkingLevel);
		if (options.setup) {
			await options.setup(host.sessionManager);
			host.rebuildAgentMessages();
		}
		host.sessionFileChanged({ keepPending: false });
		await host.hooks.emit({ type: "session_switch", reason: "new", previousSessionFile });
		return true;
	}

	/**
	 * Opens another session file and restores its context, model (when available with credentials) and
	 * thinking level. A path that does not exist becomes a new session there. False when cancelled.
	 */
	async switchSession(sessionPath: string): Promise<boolean> {
		const { host } = this;
		const decision = await host.hooks.emitSessionBeforeSwitch({ reason: "resume", targetSessionFile: sessionPath });
		if (decision?.cancel) return false;
		const previousSessionFile = host.sessionManager.getSessionFile();
		await host.stopRun();
		// Open first: a file that cannot be opened (locked, not a session) leaves everything as it was.
		host.sessionManager.setSessionFile(sessionPath);
		host.resetRuntime();
		this.restoreSessionState();
		host.sessionFileChanged({ keepPending: false });
		await host.hooks.emit({ type: "session_switch", reason: "resume", previousSessionFile });
		return true;
	}

	/**
	 * Continues from before a user message in a new session file: the path up to the message's parent is
	 * copied, and the message's text is returned for the editor. A running agent is not stopped.
	 */
	async fork(entryId: string): Promise<ForkResult> {
		const { host } = this;
		const entry = host.sessionManager.getEntry(entryId);
		if (entry?.type !== "message" || entry.message.role !== "user") throw new Error(INVALID_FORK_ENTRY_TEXT);
		const selectedText = userMessageText(entry.message.content);
		const decision = await host.hooks.emitSessionBeforeFork({ entryId });
		if (decision?.cancel) return { selectedText, cancelled: true };
		const previousSessionFile = host.sessionManager.getSessionFile();
		if (entry.parentId === null) {
			const parentSession = host.sessionManager.isPersisted() ? previousSessionFile : undefined;
			host.sessionManager.newSession(parentSession !== undefined ? { parentSession } : {});
		} else {
			host.sessionManager.createBranchedSession(entry.parentId);
		}
		if (!decision?.skipConversationRestore) host.rebuildAgentMessages();
		host.sessionFileChanged({ keepPending: true });
		await host.hooks.emit({ type: "session_fork", previousSessionFile });
		return { selectedText, cancelled: false };
	}

	/**
	 * Copies the active branch up to the current leaf into a new session and continues there (RPC `clone`; a
	 * fork *at* the leaf instead of before a user message). `session_before_fork` may cancel it. Throws without
	 * a current entry.
	 */
	async clone(): Promise<{ cancelled: boolean }> {
		const { host } = this;
		const leafId = host.sessionManager.getLeafId();
		if (!leafId) throw new Error(NOTHING_TO_CLONE_TEXT);
		const decision = await host.hooks.emitSessionBeforeFork({ entryId: leafId });
		if (decision?.cancel) return { cancelled: true };
		const previousSessionFile = host.sessionManager.getSessionFile();
		host.sessionManager.createBranchedSession(leafId);
		if (!decision?.skipConversationRestore) host.rebuildAgentMessages();
		host.sessionFileChanged({ keepPending: true });
		await host.hooks.emit({ type: "session_fork", previousSessionFile });
		return { cancelled: false };
	}

	/** Every user message of the session file (all branches), for a fork picker. */
	getUserMessagesForForking(): { entryId: string; text: string }[] {
		const messages: { entryId: string; text: string }[] = [];
		for (const entry of this.host.sessionManager.getEntries()) {
			if (entry.type !== "message" || entry.message.role !== "user") continue;
			const text = userMessageText(entry.message.content);
			if (text) messages.push({ entryId: entry.id, text });
		}
		return messages;
	}

	/**
	 * Moves to another point of the tree (docs/compaction.md "Branch summaries"), optionally leaving a summary of the
	 * branch being left behind. Selecting a user or extension message moves before it and returns its text.
	 */
	async navigateTree(targetId: string, options: NavigateTreeOptions = {}): Promise<NavigateTreeResult> {
		const { host } = this;
		const oldLeafId = host.sessionManager.getLeafId();
		if (targetId === oldLeafId) return { cancelled: false };
		const model = host.models.model;
		if (options.summarize && !model) throw new Error(NO_SUMMARY_MODEL_TEXT);
		const target = host.sessionManager.getEntry(targetId);
		if (!target) throw new Error(entryNotFoundText(targetId));
		await host.stopRun();

		const { entries, commonAncestorId } = collectEntriesForBranchSummary(host.sessionManager, oldLeafId, targetId);
		let { customInstructions, replaceInstructions, label } = options;
		const preparation: TreePreparation = {
			targetId,
			oldLeafId,
			commonAncestorId,
			entriesToSummarize: entries,
			userWantsSummary: options.summarize === true,
			...(customInstructions !== undefined ? { customInstructions } : {}),
			...(replaceInstructions !== undefined ? { replaceInstructions } : {}),
			...(label !== undefined ? { label } : {}),
		};

		const controller = new AbortController();
		this.summaryAbort = controller;
		try {
			let summary: { summary: string; details?: unknown } | undefined;
			let fromExtension = false;
			if (host.hooks.hasHandlers("session_before_tree")) {
				const decision = await host.hooks.emitSessionBeforeTree({ preparation, signal: controller.signal });
				if (decision?.cancel) return { cancelled: true };
				if (decision?.summary && options.summarize) {
					summary = decision.summary;
					fromExtension = true;
				}
				customInstructions = decision?.customInstructions ?? customInstructions;
				replaceInstructions = decision?.replaceInstructions ?? replaceInstructions;
				label = decision?.label ?? label;
			}
			if (!summary && options.summarize && entries.length > 0 && model) {
				const generated = await generateBranchSummary(entries, {
					model,
					apiKey: await host.getApiKey(model),
					signal: controller.signal,
					customInstructions,
					replaceInstructions,
					reserveTokens: host.settingsManager.getBranchSummarySettings().reserveTokens,
					streamFn: host.streamFn,
				});
				if (generated.aborted) return { cancelled: true, aborted: true };
				if (generated.error !== undefined) throw new Error(generated.error);
				summary = {
					summary: generated.summary ?? "",
					details: { readFiles: generated.readFiles ?? [], modifiedFiles: generated.modifiedFiles ?? [] },
				};
			}
			if (controller.signal.aborted) return { cancelled: true, aborted: true };
			return await this.moveTo(target, oldLeafId, summary, fromExtension, label);
		} finally {
			if (this.summaryAbort === controller) this.summaryAbort = undefined;
		}
	}

	/**
	 * At startup: a session with entries is restored (a requested level then applies on top); a new one
	 * records its model and thinking level (docs/session-format.md "Writing").
	 */
	initializeSession(requestedLevel: ThinkingLevel | undefined): void {
		const { host } = this;
		if (host.sessionManager.getEntries().length > 0) {
			this.restoreSessionState();
			if (requestedLevel !== undefined) host.models.setThinkingLevel(requestedLevel);
			return;
		}
		host.models.initializeThinkingLevel(requestedLevel ?? host.models.defaultThinkingLevel());
		const model = host.models.model;
		if (model) host.sessionManager.appendModelChange(model.provider, model.id);
		host.sessionManager.appendThinkingLevelChange(host.agent.state.thinkingLevel);
	}

	/** After opening a session file: its context, its model if usable, its thinking level (or the default). */
	restoreSessionState(): void {
		const { host } = this;
		const context = host.sessionManager.buildSessionContext();
		host.agent.replaceMessages(context.messages);
		if (context.model) {
			const model = host.modelRegistry.find(context.model.provider, context.model.modelId);
			if (model && host.modelRegistry.hasAuth(model.provider)) host.models.restoreModel(model);
		}
		const hasRecordedLevel = host.sessionManager.getBranch().some((entry) => entry.type === "thinking_level_change");
		if (hasRecordedLevel) {
			host.models.initializeThinkingLevel(context.thinkingLevel);
		} else {
			host.models.initializeThinkingLevel(host.models.defaultThinkingLevel());
			host.sessionManager.appendThinkingLevelChange(host.agent.state.thinkingLevel);
		}
	}

	private async moveTo(
		target: SessionEntry,
		oldLeafId: string | null,
		summary: { summary: string; details?: unknown } | undefined,
		fromExtension: boolean,
		label: string | undefined,
	): Promise<NavigateTreeResult> {
		const { host } = this;
		const sessionManager = host.sessionManager;
		let newLeafId: string | null = target.id;
		let editorText: string | undefined;
		if (target.type === "message" && target.message.role === "user") {
			newLeafId = target.parentId;
			editorText = userMessageText(target.message.content);
		} else if (target.type === "custom_message") {
			newLeafId = target.parentId;
			editorText = userMessageText(target.content);
		}

		let summaryEntry: BranchSummaryEntry | undefined;
		if (summary) {
			const id = sessionManager.branchWithSummary(newLeafId, summary.summary, summary.details, fromExtension);
			summaryEntry = sessionManager.getEntry(id) as BranchSummaryEntry;
			if (label) sessionManager.appendLabelChange(id, label);
		} else {
			if (newLeafId === null) sessionManager.resetLeaf();
			else sessionManager.branch(newLeafId);
			if (label) sessionManager.appendLabelChange(target.id, label);
		}
		host.rebuildAgentMessages();
		await host.hooks.emit({
			type: "session_tree",
			newLeafId: sessionManager.getLeafId(),
			oldLeafId,
			...(summaryEntry ? { summaryEntry, fromExtension } : {}),
		});
		return {
			cancelled: false,
			...(editorText !== undefined ? { editorText } : {}),
			...(summaryEntry ? { summaryEntry } : {}),
		};
	}
}
