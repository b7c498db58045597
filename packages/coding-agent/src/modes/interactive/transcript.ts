// The chat transcript: one component per message kind, appended in order. Rebuilding it from a session's
// messages (resume, /tree, /fork) creates each component once and renders once; live updates go through
// SessionEventRenderer, which appends to it.
import type { AgentMessage } from "@agent/agent-core";
import type { AssistantMessage, ToolResultMessage } from "@agent/ai";
import { type Component, Container } from "@agent/tui";
import { AssistantMessageComponent } from "./components/assistant-message.js";
import { BashExecutionComponent } from "./components/bash-execution.js";
import { CustomMessageComponent } from "./components/custom-message.js";
import { NoticeComponent, type NoticeKind } from "./components/notice.js";
import { SummaryMessageComponent } from "./components/summary-message.js";
import { ToolExecutionComponent } from "./components/tool-execution.js";
import { imageCount, UserMessageComponent, userContentText } from "./components/user-message.js";
import type { DisplayState } from "./display-state.js";

export const TOOL_NOT_EXECUTED_TEXT = "Tool call was not executed.";

export class Transcript extends Container {
	/** The last status notice, replaced in place by the next one when nothing came in between. */
	private lastStatus: NoticeComponent | undefined;

	constructor(private readonly state: DisplayState) {
		super();
	}

	override addChild(component: Component): void {
		if (component !== this.lastStatus) this.lastStatus = undefined;
		super.addChild(component);
	}

	/** A dim status line; consecutive statuses replace each other instead of piling up. */
	showStatus(text: string): void {
		const last = this.children[this.children.length - 1];
		if (this.lastStatus && last === this.lastStatus) {
			this.lastStatus.setText(text);
			return;
		}
		const notice = new NoticeComponent(this.state, "status", text);
		super.addChild(notice);
		this.lastStatus = notice;
	}

	showNotice(kind: NoticeKind, text: string): NoticeComponent {
		if (kind === "status") {
			this.showStatus(text);
			return this.lastStatus as NoticeComponent;
		}
		const notice = new NoticeComponent(this.state, kind, text);
		this.addChild(notice);
		return notice;
	}

	/** Replaces everything with the components of `messages` (a session's context). */
	showMessages(messages: readonly AgentMessage[]): void {
		this.clear();
		this.lastStatus = undefined;
		const results = new Map<string, ToolResultMessage>();
		for (const message of messages) if (message.role === "toolResult") results.set(message.toolCallId, message);
		for (const message of messages) this.appendMessage(message, results);
	}

	/** Appends the components of one finished message; tool calls take their results from `results`. */
	appendMessage(message: AgentMessage, results: ReadonlyMap<string, ToolResultMessage> = new Map()): void {
		switch (message.role) {
			case "user": {
				const text = userContentText(message.content);
				const images = imageCount(message.content);
				if (text.trim() || images > 0) this.addChild(new UserMessageComponent(this.state, text, images));
				return;
			}
			case "assistant":
				this.appendAssistant(message, results);
				return;
			case "toolResult":
				return;
			case "bashExecution":
				this.addChild(BashExecutionComponent.fromMessage(this.state, message));
				return;
			case "custom":
				if (message.display) this.addChild(new CustomMessageComponent(this.state, message));
				return;
			case "compactionSummary":
				this.addChild(new SummaryMessageComponent(this.state, "compaction", message.summary, message.tokensBefore));
				return;
			case "branchSummary":
				this.addChild(new SummaryMessageComponent(this.state, "branch", message.summary));
				return;
			default:
				return;
		}
	}

	private appendAssistant(message: AssistantMessage, results: ReadonlyMap<string, ToolResultMessage>): void {
		const component = new AssistantMessageComponent(this.state, message);
		if (component.hasVisibleContent) this.addChild(component);
		for (const block of message.content) {
			if (block.type !== "toolCall") continue;
			const tool = new ToolExecutionComponent(this.state, block.id, block.name, block.arguments);
			const result = results.get(block.id);
			if (result) tool.setResult({ content: result.content, details: result.details }, result.isError);
			else tool.markNotExecuted(TOOL_NOT_EXECUTED_TEXT);
			this.addChild(tool);
		}
	}
}
