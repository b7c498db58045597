// Automatic retry of transient provider failures (docs/compaction.md "Automatic retry").
import type { Agent, AgentMessage } from "@agent/agent-core";
import type { AssistantMessage } from "@agent/ai";
import type { AgentSessionEvent } from "./events.js";
import { isRetryableError, planRetryDelay, type RetrySettingsValues } from "./retry-policy.js";

export const RETRY_CANCELLED_TEXT = "Retry cancelled";

/** What the retry controller needs from the session. */
export interface RetryHost {
	readonly agent: Agent;
	getRetrySettings(): RetrySettingsValues;
	/** The current model's window, for telling overflow from transient failures. */
	getContextWindow(): number | undefined;
	emit(event: AgentSessionEvent): void;
	/** Resolves once every agent event queued so far has been processed (persisted, forwarded). */
	drainEvents(): Promise<void>;
	/** After giving up on a failure: compaction is checked as for any other failed run. */
	afterGivingUp(failure: AssistantMessage): Promise<void>;
}

function lastAssistantOf(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as AgentMessage;
		if (message.role === "assistant") return message;
	}
	return undefined;
}

/**
 * Runs one retry sequence at a time: remove the failed reply from the context (the session file keeps it),
 * wait with exponential backoff (or the server's Retry-After), `continue()` the agent from the same
 * context, and repeat while the new reply fails the same way. The sequence resolves only after the run
 * that succeeded has finished, tool calls included. Attempts count across consecutive failures and reset
 * on the first reply that does not fail.
 */
export class RetryController {
	private attemptCount = 0;
	private running: Promise<void> | undefined;
	private sleepAbort: AbortController | undefined;
	/** abortRetry() arrived while the sequence was not in its wait: stop before the next one. */
	private cancelRequested = false;

	constructor(private readonly host: RetryHost) {}

	/** True while a retry sequence is pending (waiting or re-running). */
	get isRetrying(): boolean {
		return this.running !== undefined;
	}

	get attempt(): number {
		return this.attemptCount;
	}

	/** Whether this reply's failure is one to retry, with retry enabled. */
	shouldRetry(message: AgentMessage): boolean {
		if (message.role !== "assistant") return false;
		return this.host.getRetrySettings().enabled && isRetryableError(message, this.host.getContextWindow());
	}

	/**
	 * Starts a sequence for `failure` (synchronously, so whoever awaits the prompt sees it at once) and
	 * returns it; returns undefined when a sequence is already running, which will see this failure itself.
	 */
	start(failure: AssistantMessage): Promise<void> | undefined {
		if (this.running) return undefined;
		const running = this.run(failure).finally(() => {
			if (this.running === running) this.running = undefined;
		});
		this.running = running;
		return running;
	}

	/** The reply after a retry did not fail: report success and reset the count. */
	noteAssistantMessageEnd(message: AssistantMessage): void {
		if (this.attemptCount === 0) return;
		if (message.stopReason === "error" || message.stopReason === "aborted") return;
		this.host.emit({ type: "auto_retry_end", success: true, attempt: this.attemptCount });
		this.attemptCount = 0;
	}

	/** Cancels a pending backoff wait; the sequence ends with "Retry cancelled". */
	abortRetry(): void {
		if (!this.running) return;
		this.cancelRequested = true;
		this.sleepAbort?.abort();
	}

	/** Resolves when the current sequence (if any) is over. */
	waitForIdle(): Promise<void> {
		return this.running ?? Promise.resolve();
	}

	private async run(firstFailure: AssistantMessage): Promise<void> {
		this.cancelRequested = false;
		// Let agent_end reach every listener before auto_retry_start.
		await this.host.drainEvents();
		let failure = firstFailure;
		for (;;) {
			const settings = this.host.getRetrySettings();
			const errorMessage = failure.errorMessage ?? "";
			this.attemptCount++;
			if (this.attemptCount > settings.maxRetries) {
				await this.giveUp(failure, this.attemptCount - 1, errorMessage);
				return;
			}
			const plan = planRetryDelay(this.attemptCount, errorMessage, settings);
			if ("giveUpNote" in plan) {
				// The reply's own error text says so already when it came through the session's stream function.
				const finalError = errorMessage.endsWith(plan.giveUpNote) ? errorMessage : errorMessage + plan.giveUpNote;
				await this.giveUp(failure, this.attemptCount - 1, finalError);
				return;
			}
			this.host.emit({
				type: "auto_retry_start",
				attempt: this.attemptCount,
				maxAttempts: settings.maxRetries,
				delayMs: plan.delayMs,
				errorMessage,
			});
			this.removeTrailingFailure();
			if (this.cancelRequested || !(await this.sleep(plan.delayMs))) {
				this.finish(false, RETRY_CANCELLED_TEXT);
				return;
			}
			try {
				await this.host.agent.continue();
			} catch (error) {
				// The context changed under us (new session, reset): nothing to continue from.
				this.finish(false, error instanceof Error ? error.message : String(error));
				return;
			}
			await this.host.drainEvents();
			const last = lastAssistantOf(this.host.agent.state.messages);
			if (last && this.shouldRetry(last)) {
				failure = last;
				continue;
			}
			if (this.attemptCount > 0) {
				// Neither success nor a retryable failure (an abort, a non-transient error): the sequence is over.
				this.finish(false, last?.errorMessage ?? RETRY_CANCELLED_TEXT);
			}
			return;
		}
	}

	private async giveUp(failure: AssistantMessage, attempt: number, finalError: string): Promise<void> {
		this.host.emit({ type: "auto_retry_end", success: false, attempt, finalError });
		this.attemptCount = 0;
		await this.host.afterGivingUp(failure);
	}

	private finish(success: boolean, finalError: string): void {
		this.host.emit({ type: "auto_retry_end", success, attempt: this.attemptCount, finalError });
		this.attemptCount = 0;
	}

	private removeTrailingFailure(): void {
		const { agent } = this.host;
		const messages = agent.state.messages;
		const last = messages[messages.length - 1];
		if (last?.role === "assistant" && last.stopReason === "error") agent.replaceMessages(messages.slice(0, -1));
	}

	/** Resolves true after `ms`, false when aborted first. */
	private sleep(ms: number): Promise<boolean> {
		const controller = new AbortController();
		this.sleepAbort = controller;
		return new Promise<boolean>((resolve) => {
			const done = (completed: boolean) => {
				clearTimeout(timer);
				controller.signal.removeEventListener("abort", onAbort);
				if (this.sleepAbort === controller) this.sleepAbort = undefined;
				resolve(completed);
			};
			const onAbort = () => done(false);
			const timer = setTimeout(() => done(true), ms);
			controller.signal.addEventListener("abort", onAbort, { once: true });
		});
	}
}
