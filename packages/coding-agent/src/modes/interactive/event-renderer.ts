// Turns AgentSession events into transcript updates. A streamed token updates only the reply being written
// (and only its last block); a tool's progress updates only its box; the footer changes when a reply ends.
import type { AgentMessage } from "@agent/agent-core";
import type { AssistantMessage, AssistantMessageEvent } from "@agent/ai";
import type { AgentSessionEvent } from "../../core/session-runtime/events.js";
import { RETRY_CANCELLED_TEXT } from "../../core/session-runtime/retry-controller.js";
import { AssistantMessageComponent, abortedAfterRetriesText } from "./components/assistant-message.js";
import { CustomMessageComponent } from "./components/custom-message.js";
import type { StatusArea } from "./components/status-area.js";
import { SummaryMessageComponent } from "./components/summary-message.js";
import { ToolExecutionComponent } from "./components/tool-execution.js";
import { imageCount, UserMessageComponent, userContentText } from "./components/user-message.js";
import { type DisplayState, keyHint } from "./display-state.js";
import { TOOL_NOT_EXECUTED_TEXT, type Transcript } from "./transcript.js";

export interface EventRendererHost {
	readonly transcript: Transcript;
	readonly status: StatusArea;
	readonly state: DisplayState;
	/** The spinner text while the agent works (an extension may change it). */
	workingMessage(): string;
	refreshPending(): void;
	refreshFooter(): void;
	requestRender(): void;
	/** The run ended (after retries and compaction); the mode may send what waited for it. */
	onIdle(): void;
	/** Whether the agent is still working (a run, or the retry or compaction that follows one). */
	isBusy(): boolean;
	/** Resolves when the run and whatever follows it (retry, compaction and its continuation) are over. */
	waitForIdle(): Promise<void>;
}

export class SessionEventRenderer {
	private streaming: AssistantMessageComponent | undefined;
	private readonly tools = new Map<string, ToolExecutionComponent>();
	private retryAttempts = 0;

	constructor(private readonly host: EventRendererHost) {}

	/** Forgets live components (the transcript was rebuilt). */
	reset(): void {
		this.streaming = undefined;
		this.tools.clear();
		this.retryAttempts = 0;
	}

	handle(event: AgentSessionEvent): void {
		const { host } = this;
		switch (event.type) {
			case "agent_start":
				host.status.show(host.workingMessage());
				break;
			case "message_start":
				this.onMessageStart(event.message);
				break;
			case "message_update":
				if (event.message.role === "assistant") this.onAssistantUpdate(event.message, event.assistantMessageEvent);
				break;
			case "message_end":
				this.onMessageEnd(event.message);
				break;
			case "tool_execution_start":
				this.toolFor(event.toolCallId, event.toolName, event.args).markRunning(event.args);
				break;
			case "tool_execution_update":
				this.toolFor(event.toolCallId, event.toolName, event.args).setPartialResult(event.partialResult);
				break;
			case "tool_execution_end":
				this.toolFor(event.toolCallId, event.toolName, {}).setResult(event.result, event.isError);
				this.tools.delete(event.toolCallId);
				break;
			case "agent_end":
				this.streaming = undefined;
				for (const tool of this.tools.values()) tool.markNotExecuted(TOOL_NOT_EXECUTED_TEXT);
				this.tools.clear();
				host.refreshFooter();
				// A retry or compaction may follow; the spinner stays until all of it is over.
				void host.waitForIdle().then(() => {
					if (!host.isBusy()) this.finishRun();
				});
				break;
			case "auto_compaction_start": {
				const cancelKey = keyHint(host.state, "interrupt");
				host.status.show(
					event.reason === "overflow"
						? `Context overflow detected, auto-compacting... (${cancelKey} to cancel)`
						: `Auto-compacting... (${cancelKey} to cancel)`,
				);
				break;
			}
			case "auto_compaction_end":
				this.onCompactionEnd(event);
				break;
			case "auto_retry_start": {
				this.retryAttempts = event.attempt;
				const cancelKey = keyHint(host.state, "interrupt");
				host.transcript.showNotice("warning", `${event.errorMessage}`);
				host.status.showCountdown(
					Date.now() + event.delayMs,
					(seconds) =>
						`Retrying (${event.attempt}/${event.maxAttempts}) in ${seconds}s... (${cancelKey} to cancel)`,
				);
				break;
			}
			case "auto_retry_end":
				if (!event.success && event.finalError === RETRY_CANCELLED_TEXT) {
					host.transcript.showNotice("status", RETRY_CANCELLED_TEXT);
				} else if (!event.success) {
					host.transcript.showNotice(
						"error",
						`Retry failed after ${event.attempt} attempt${event.attempt === 1 ? "" : "s"}: ${event.finalError ?? "unknown error"}`,
					);
				}
				this.retryAttempts = 0;
				host.status.show(host.workingMessage());
				break;
			case "extension_error":
				host.transcript.showNotice("error", `Extension error (${event.extensionPath}): ${event.error}`);
				break;
			case "checkpoint_notice":
				host.transcript.showNotice("warning", event.message);
				break;
			default:
				break;
		}
		host.requestRender();
	}

	private finishRun(): void {
		this.host.requestRender();
		this.host.status.hide();
		this.host.refreshPending();
		this.host.onIdle();
	}

	private onMessageStart(message: AgentMessage): void {
		const { host } = this;
		if (message.role === "user") {
			const text = userContentText(message.content);
			const images = imageCount(message.content);
			if (text.trim() || images > 0) host.transcript.addChild(new UserMessageComponent(host.state, text, images));
			host.refreshPending();
		} else if (message.role === "assistant") {
			this.streaming = new AssistantMessageComponent(host.state, message);
			host.transcript.addChild(this.streaming);
		}
	}

	private onAssistantUpdate(message: AssistantMessage, update?: AssistantMessageEvent): void {
		if (!this.streaming) {
			this.streaming = new AssistantMessageComponent(this.host.state);
			this.host.transcript.addChild(this.streaming);
		}
		this.streaming.update(message);
		if (!update) return;
		// Only the call being written is touched, and its arguments are read lazily (see streamArgs).
		if (update.type === "toolcall_start" || update.type === "toolcall_delta") {
			const block = message.content[update.contentIndex];
			if (block?.type !== "toolCall") return;
			this.toolFor(block.id, block.name, {}).streamArgs(
				() => block.arguments,
				() => this.host.requestRender(),
			);
		} else if (update.type === "toolcall_end") {
			const call = update.toolCall;
			this.toolFor(call.id, call.name, {}).updateArgs(call.arguments, true);
		}
	}

	private onMessageEnd(message: AgentMessage): void {
		const { host } = this;
		if (message.role === "assistant") {
			this.onAssistantUpdate(message);
			const component = this.streaming;
			if (message.stopReason === "aborted" && this.retryAttempts > 0)
				component?.setAbortText(abortedAfterRetriesText(this.retryAttempts));
			for (const block of message.content) {
				if (block.type === "toolCall") this.tools.get(block.id)?.updateArgs(block.arguments, true);
			}
			if (message.stopReason === "aborted" || message.stopReason === "error") {
				for (const block of message.content) {
					if (block.type !== "toolCall") continue;
					this.tools.get(block.id)?.markNotExecuted(TOOL_NOT_EXECUTED_TEXT);
					this.tools.delete(block.id);
				}
			}
			if (component && !component.hasVisibleContent) host.transcript.removeChild(component);
			this.streaming = undefined;
			host.refreshFooter();
		} else if (message.role === "custom" && message.display) {
			host.transcript.addChild(new CustomMessageComponent(host.state, message));
		}
	}

	private onCompactionEnd(event: Extract<AgentSessionEvent, { type: "auto_compaction_end" }>): void {
		const { host } = this;
		if (event.result) {
			host.transcript.addChild(
				new SummaryMessageComponent(host.state, "compaction", event.result.summary, event.result.tokensBefore),
			);
		} else if (event.aborted) {
			host.transcript.showNotice("status", "Auto-compaction cancelled");
		} else if (event.errorMessage) {
			host.transcript.showNotice("error", `Auto-compaction failed: ${event.errorMessage}`);
		}
		host.refreshFooter();
		host.status.show(host.workingMessage());
	}

	private toolFor(toolCallId: string, toolName: string, args: Record<string, unknown>): ToolExecutionComponent {
		let tool = this.tools.get(toolCallId);
		if (!tool) {
			tool = new ToolExecutionComponent(this.host.state, toolCallId, toolName, args);
			this.tools.set(toolCallId, tool);
			this.host.transcript.addChild(tool);
		}
		return tool;
	}
}
