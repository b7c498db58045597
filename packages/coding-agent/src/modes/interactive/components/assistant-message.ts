// An assistant reply: its text and thinking blocks, then an abort or error line. While it streams, only the
// block that grew is rendered again (each block is its own cached Markdown). Tool calls are drawn by their own
// ToolExecutionComponent below the reply.
import type { AssistantMessage } from "@agent/ai";
import { type Component, Container, Markdown, Spacer, Text } from "@agent/tui";
import type { DisplayState } from "../display-state.js";

export const OPERATION_ABORTED_TEXT = "Operation aborted";

export function abortedAfterRetriesText(attempts: number): string {
	return `Aborted after ${attempts} retry attempt${attempts === 1 ? "" : "s"}`;
}

/** Whether `text` has a non-whitespace character (usually found at once, without copying the text). */
function hasVisibleText(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code !== 32 && code !== 10 && code !== 13 && code !== 9) return true;
	}
	return false;
}

type BlockKind = "text" | "thinking" | "thinking-hidden";

interface BlockSlot {
	kind: BlockKind;
	component: Markdown | Text;
	text: string;
	/** The blank line above every block but the first (thinking and the answer must not touch). */
	spacer: Spacer | undefined;
}

export class AssistantMessageComponent extends Container {
	private message: AssistantMessage | undefined;
	private readonly spacer = new Spacer(1);
	private blocks: BlockSlot[] = [];
	private footerLine: Text | undefined;
	/** The blank line between the blocks and the abort or error line. */
	private footerSpacer: Spacer | undefined;
	private footerText = "";
	/** Replaces "Operation aborted" (e.g. "Aborted after 2 retry attempts"). */
	private abortText: string | undefined;

	constructor(
		private readonly state: DisplayState,
		message?: AssistantMessage,
	) {
		super();
		if (message) this.update(message);
	}

	/** Whether the reply showed anything (tool-call-only replies draw nothing). */
	get hasVisibleContent(): boolean {
		return this.blocks.length > 0 || this.footerText !== "";
	}

	setAbortText(text: string | undefined): void {
		this.abortText = text;
		if (this.message) this.update(this.message);
	}

	/** Brings the component up to date with a (streaming or final) message. */
	update(message: AssistantMessage): void {
		this.message = message;
		const wanted: { kind: BlockKind; text: string }[] = [];
		for (const block of message.content) {
			// No trimming: a streamed block grows by a token at a time, and copying it on every token adds up.
			if (block.type === "text") {
				if (hasVisibleText(block.text)) wanted.push({ kind: "text", text: block.text });
			} else if (block.type === "thinking") {
				if (!hasVisibleText(block.thinking)) continue;
				wanted.push(
					this.state.hideThinking
						? { kind: "thinking-hidden", text: "Thinking..." }
						: { kind: "thinking", text: block.thinking },
				);
			}
		}
		this.syncBlocks(wanted);
		this.syncFooter(this.footerFor(message));
	}

	override invalidate(): void {
		// Theme or thinking visibility changed: rebuild the blocks with the current state.
		for (const slot of this.blocks) this.removeSlot(slot);
		this.blocks = [];
		if (this.footerLine) this.removeChild(this.footerLine);
		if (this.footerSpacer) this.removeChild(this.footerSpacer);
		this.footerLine = undefined;
		this.footerSpacer = undefined;
		this.footerText = "";
		if (this.children.includes(this.spacer)) this.removeChild(this.spacer);
		if (this.message) this.update(this.message);
		super.invalidate();
	}

	private footerFor(message: AssistantMessage): string {
		const theme = this.state.theme;
		if (message.stopReason === "aborted") return theme.fg("error", this.abortText ?? OPERATION_ABORTED_TEXT);
		if (message.stopReason === "error") return theme.fg("error", `Error: ${message.errorMessage ?? "Unknown error"}`);
		return "";
	}

	private syncBlocks(wanted: { kind: BlockKind; text: string }[]): void {
		if (wanted.length > 0 && !this.children.includes(this.spacer)) this.insertChild(0, this.spacer);
		for (let i = 0; i < wanted.length; i++) {
			const want = wanted[i];
			const slot = this.blocks[i];
			if (slot && slot.kind === want.kind) {
				if (slot.text !== want.text) {
					slot.text = want.text;
					slot.component.setText(this.styledText(want));
				}
				continue;
			}
			if (slot) this.removeSlot(slot);
			const component = this.createBlock(want);
			const spacer = i > 0 ? new Spacer(1) : undefined;
			this.blocks[i] = { kind: want.kind, component, text: want.text, spacer };
			const at = this.indexAfterBlock(i - 1);
			if (spacer) this.insertChild(at, spacer);
			this.insertChild(spacer ? at + 1 : at, component);
		}
		while (this.blocks.length > wanted.length) {
			const slot = this.blocks.pop();
			if (slot) this.removeSlot(slot);
		}
		this.syncFooterSpacer();
	}

	private removeSlot(slot: BlockSlot): void {
		if (slot.spacer) this.removeChild(slot.spacer);
		this.removeChild(slot.component);
	}

	/** A blank line above the abort or error line when a block is drawn above it. */
	private syncFooterSpacer(): void {
		const wanted = this.footerLine !== undefined && this.blocks.length > 0;
		if (wanted && !this.footerSpacer && this.footerLine) {
			this.footerSpacer = new Spacer(1);
			this.insertChild(this.children.indexOf(this.footerLine), this.footerSpacer);
		} else if (!wanted && this.footerSpacer) {
			this.removeChild(this.footerSpacer);
			this.footerSpacer = undefined;
		}
	}

	private indexAfterBlock(blockIndex: number): number {
		if (blockIndex < 0) return this.children.includes(this.spacer) ? 1 : 0;
		const previous: Component | undefined = this.blocks[blockIndex]?.component;
		return previous ? this.children.indexOf(previous) + 1 : this.children.length;
	}

	private styledText(block: { kind: BlockKind; text: string }): string {
		if (block.kind === "thinking-hidden")
			return this.state.theme.italic(this.state.theme.fg("thinkingText", block.text));
		return block.text;
	}

	private createBlock(block: { kind: BlockKind; text: string }): Markdown | Text {
		const theme = this.state.theme;
		if (block.kind === "thinking-hidden") return new Text(this.styledText(block), 1, 0);
		const markdownTheme = theme.getMarkdownTheme({ codeBlockIndent: this.state.codeBlockIndent });
		if (block.kind === "thinking") {
			return new Markdown(block.text, 1, 0, markdownTheme, { color: theme.fgStyle("thinkingText"), italic: true });
		}
		return new Markdown(block.text, 1, 0, markdownTheme);
	}

	private syncFooter(text: string): void {
		if (text === this.footerText) return;
		this.footerText = text;
		if (!text) {
			if (this.footerLine) this.removeChild(this.footerLine);
			this.footerLine = undefined;
			this.syncFooterSpacer();
			return;
		}
		if (!this.children.includes(this.spacer)) this.insertChild(0, this.spacer);
		if (this.footerLine) this.footerLine.setText(text);
		else {
			this.footerLine = new Text(text, 1, 0);
			this.addChild(this.footerLine);
		}
		this.syncFooterSpacer();
	}
}
