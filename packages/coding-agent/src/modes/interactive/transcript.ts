// The chat transcript: one component per message kind, appended in order. Rebuilding it from a session's
// messages (resume, /tree, /fork) creates each component once and renders once; live updates go through
// SessionEventRenderer, which appends to it.
import type { AgentMessage } from "@agent/agent-core";
import type { AssistantMessage, ToolResultMessage } from "@agent/ai";
import { type Component, Container, type RenderUpdate } from "@agent/tui";
import { AssistantMessageComponent } from "./components/assistant-message.js";
import { BashExecutionComponent } from "./components/bash-execution.js";
import { CustomMessageComponent } from "./components/custom-message.js";
import { NoticeComponent, type NoticeKind } from "./components/notice.js";
import { SummaryMessageComponent } from "./components/summary-message.js";
import { ToolExecutionComponent } from "./components/tool-execution.js";
import { imageCount, UserMessageComponent, userContentText } from "./components/user-message.js";
import { type DisplayState, isExpandableBlock } from "./display-state.js";

export const TOOL_NOT_EXECUTED_TEXT = "Tool call was not executed.";

/**
 * Rows of history drawn when the transcript is drawn whole again: rebuilt (resume, /tree, /compact), or
 * re-rendered for a new width, theme or expansion state (the inline mode then reprints the scrollback).
 * Terminals keep a few thousand rows of scrollback (tmux and kitty 2,000, xterm 1,024); drawing a 5,000-message
 * session's 50,000 rows would cost seconds for the part the terminal throws away. Older messages are summed up
 * in one line; /tree still shows every entry.
 */
export const HISTORY_ROW_BUDGET = 2500;
/** The last messages are always drawn, however tall. */
const MIN_MESSAGES_SHOWN = 10;

export function omittedHistoryText(count: number): string {
	const digits = String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
	return `↑ ${digits} earlier message${count === 1 ? "" : "s"} not shown (use /tree to browse the whole session)`;
}
export class Transcript extends Container {
	/** The last status notice, replaced in place by the next one when nothing came in between. */
	private lastStatus: NoticeComponent | undefined;
	/** The width of the last render (-1 before the first). */
	private width = -1;

	constructor(private readonly state: DisplayState) {
		super();
	}

	override render(width: number): string[] {
		this.trimForWidth(width);
		return super.render(width);
	}

	override renderUpdate(width: number): RenderUpdate {
		this.trimForWidth(width);
		return super.renderUpdate(width);
	}

	/** A new width re-renders every component: first the history beyond the row budget is dropped. */
	private trimForWidth(width: number): void {
		if (width === this.width) return;
		if (this.width !== -1) this.trimHistory(width);
		this.width = width;
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

	/**
	 * Replaces everything with the components of `messages` (a session's context): the latest messages that fit
	 * in HISTORY_ROW_BUDGET rows at `width`, each built and rendered once, newest first.
	 */
	showMessages(messages: readonly AgentMessage[], width: number): void {
		this.clear();
		this.lastStatus = undefined;
		const results = new Map<string, ToolResultMessage>();
		for (const message of messages) if (message.role === "toolResult") results.set(message.toolCallId, message);
		const collected: Component[][] = [];
		let rows = 0;
		let shown = 0;
		let index = messages.length - 1;
		for (; index >= 0; index--) {
			const message = messages[index] as AgentMessage;
			if (message.role === "toolResult") continue;
			if (rows >= HISTORY_ROW_BUDGET && shown >= MIN_MESSAGES_SHOWN) break;
			const components = this.componentsFor(message, results);
			for (const component of components) rows += component.render(width).length;
			collected.push(components);
			shown++;
		}
		const omitted = messages.slice(0, index + 1).filter((message) => message.role !== "toolResult").length;
		if (omitted > 0) super.addChild(new NoticeComponent(this.state, "info", omittedHistoryText(omitted)));
		for (let i = collected.length - 1; i >= 0; i--)
			for (const component of collected[i] as Component[]) super.addChild(component);
	}

	/**
	 * Before everything is drawn again (theme, expansion, width): drops the oldest components beyond the row
	 * budget, so a session that grew long redraws in the time of a short one. `width` defaults to the width of
	 * the last render (where the components' lines are cached).
	 */
	trimHistory(width: number = this.width): void {
		if (width <= 0) return;
		const children = this.children;
		let rows = 0;
		let keep = children.length;
		while (keep > 0 && (rows < HISTORY_ROW_BUDGET || children.length - keep < MIN_MESSAGES_SHOWN)) {
			keep--;
			rows += (children[keep] as Component).render(width).length;
		}
		if (keep <= 0) return;
		const dropped = children.slice(0, keep);
		const previousNotice =
			dropped[0] instanceof NoticeComponent ? /^↑ ([\d,]+) earlier/.exec(dropped[0].getText()) : null;
		let count = previousNotice ? Number((previousNotice[1] as string).replaceAll(",", "")) : 0;
		for (const component of dropped) if (!(component instanceof NoticeComponent)) count++;
		if (dropped.includes(this.lastStatus as Component)) this.lastStatus = undefined;
		this.removeChildren(0, keep);
		this.insertChild(0, new NoticeComponent(this.state, "info", omittedHistoryText(count)));
	}

	/**
	 * Ctrl+O: the blocks whose form depends on the expansion state are drawn again (tool calls, `!` output,
	 * summaries, extension messages); replies and prompts keep their cached lines.
	 */
	refreshExpandable(): void {
		for (const child of this.children) {
			if (isExpandableBlock(child)) child.resetExpanded();
			else if (child instanceof CustomMessageComponent) child.invalidate();
		}
	}

	/** Ctrl+T: the replies are drawn again with thinking shown or hidden. */
	refreshReplies(): void {
		for (const child of this.children) if (child instanceof AssistantMessageComponent) child.invalidate();
	}

	/** Appends the components of one finished message; tool calls take their results from `results`. */
	appendMessage(message: AgentMessage, results: ReadonlyMap<string, ToolResultMessage> = new Map()): void {
		for (const component of this.componentsFor(message, results)) this.addChild(component);
	}

	private componentsFor(message: AgentMessage, results: ReadonlyMap<string, ToolResultMessage>): Component[] {
		switch (message.role) {
			case "user": {
				const text = userContentText(message.content);
				const images = imageCount(message.content);
				return text.trim() || images > 0 ? [new UserMessageComponent(this.state, text, images)] : [];
			}
			case "assistant":
				return this.assistantComponents(message, results);
			case "bashExecution":
				return [BashExecutionComponent.fromMessage(this.state, message)];
			case "custom":
				return message.display ? [new CustomMessageComponent(this.state, message)] : [];
			case "compactionSummary":
				return [new SummaryMessageComponent(this.state, "compaction", message.summary, message.tokensBefore)];
			case "branchSummary":
				return [new SummaryMessageComponent(this.state, "branch", message.summary)];
			default:
				return [];
		}
	}

	private assistantComponents(
		message: AssistantMessage,
		results: ReadonlyMap<string, ToolResultMessage>,
	): Component[] {
		const components: Component[] = [];
		const reply = new AssistantMessageComponent(this.state, message);
		if (reply.hasVisibleContent) components.push(reply);
		for (const block of message.content) {
			if (block.type !== "toolCall") continue;
			const tool = new ToolExecutionComponent(this.state, block.id, block.name, block.arguments);
			const result = results.get(block.id);
			if (result) tool.setResult({ content: result.content, details: result.details }, result.isError);
			else tool.markNotExecuted(TOOL_NOT_EXECUTED_TEXT);
			components.push(tool);
		}
		return components;
	}
}
