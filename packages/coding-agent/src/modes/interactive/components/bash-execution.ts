// A command the user ran with `!` / `!!`: its output streamed between two rules in the bash colour, the last
// lines while collapsed, then the exit status.
import { truncateToWidth } from "@agent/tui";
import { DEFAULT_BASH_MEMORY_BYTES } from "../../../core/config/settings-manager.js";
import type { BashExecutionMessage } from "../../../core/messages.js";
import { type DisplayState, ExpandableComponent, keyHint } from "../display-state.js";
import { textLines, wrapLines } from "./render-utils.js";
import { trimTrailingEmpty } from "./tool-renderers/types.js";

const COLLAPSED_LINES = 10;

export class BashExecutionComponent extends ExpandableComponent {
	/** While running: the newest output, at most `maxOutputChars` in all (oldest chunks dropped first). */
	private chunks: string[] = [];
	private chunkChars = 0;
	private finished: Omit<BashExecutionMessage, "role" | "command" | "timestamp" | "output"> | undefined;

	constructor(
		private readonly state: DisplayState,
		readonly command: string,
		private readonly excludeFromContext: boolean,
		/** Settings `limits.bashMemoryBytes`: a command printing 400 MB must not be held whole for display. */
		private readonly maxOutputChars: number = DEFAULT_BASH_MEMORY_BYTES,
	) {
		super(state);
	}

	static fromMessage(state: DisplayState, message: BashExecutionMessage): BashExecutionComponent {
		const component = new BashExecutionComponent(state, message.command, message.excludeFromContext === true);
		component.finish(message);
		return component;
	}

	get isRunning(): boolean {
		return this.finished === undefined;
	}

	/** Characters of output held. */
	get retainedChars(): number {
		return this.chunkChars;
	}

	/** The output held (while running, the newest `maxOutputChars` of it). */
	getOutput(): string {
		if (this.chunks.length > 1) this.chunks = [this.chunks.join("")];
		return this.chunks[0] ?? "";
	}

	appendOutput(chunk: string): void {
		const limit = this.maxOutputChars > 0 ? this.maxOutputChars : Number.POSITIVE_INFINITY;
		const kept = chunk.length > limit ? chunk.slice(chunk.length - limit) : chunk;
		this.chunks.push(kept);
		this.chunkChars += kept.length;
		while (this.chunkChars > limit) {
			const excess = this.chunkChars - limit;
			const oldest = this.chunks[0] as string;
			if (oldest.length <= excess) {
				this.chunks.shift();
				this.chunkChars -= oldest.length;
			} else {
				this.chunks[0] = oldest.slice(excess);
				this.chunkChars -= excess;
			}
		}
		this.markChanged();
	}

	finish(result: Omit<BashExecutionMessage, "role" | "command" | "timestamp">): void {
		this.chunks = [result.output];
		this.chunkChars = result.output.length;
		this.finished = {
			cancelled: result.cancelled,
			truncated: result.truncated,
			...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
			...(result.fullOutputPath !== undefined ? { fullOutputPath: result.fullOutputPath } : {}),
			...(result.excludeFromContext !== undefined ? { excludeFromContext: result.excludeFromContext } : {}),
		};
		this.markChanged();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		const bashColor = theme.fgStyle("bashMode");
		const rule = bashColor("─".repeat(Math.max(1, width)));
		const prefix = this.excludeFromContext ? "$$" : "$";
		const lines: string[] = [theme.bold(bashColor(`${prefix} ${this.command}`))];
		const output = trimTrailingEmpty(textLines(this.getOutput()));
		const outputLines = output.length === 1 && output[0] === "" ? [] : output;
		const expandKey = keyHint(this.state, "expandTools");
		// As the reference draws it: the command, a blank line, the output, a blank line, all indented by one.
		if (outputLines.length > 0) lines.push("");
		if (!this.isExpanded && outputLines.length > COLLAPSED_LINES) {
			const hidden = outputLines.length - COLLAPSED_LINES;
			lines.push(
				theme.fg("muted", `... (${hidden} earlier line${hidden === 1 ? "" : "s"}, ${expandKey} to expand)`),
			);
			for (const line of outputLines.slice(-COLLAPSED_LINES)) lines.push(theme.fg("toolOutput", line));
		} else {
			for (const line of outputLines) lines.push(theme.fg("toolOutput", line));
		}
		const status = this.statusLine();
		if (status) lines.push(status);
		lines.push("");
		const inner = Math.max(1, width - 1);
		const body = wrapLines(lines, inner).map((line) => (line === "" ? "" : ` ${truncateToWidth(line, inner, "")}`));
		return ["", rule, ...body, rule];
	}

	private statusLine(): string | undefined {
		const { theme } = this.state;
		const cancelKey = keyHint(this.state, "interrupt");
		if (!this.finished) return theme.fg("muted", `Running... (${cancelKey} to cancel)`);
		const parts: string[] = [];
		if (this.finished.cancelled) parts.push(theme.fg("warning", "(cancelled)"));
		else if (this.finished.exitCode !== undefined && this.finished.exitCode !== 0)
			parts.push(theme.fg("error", `(exit ${this.finished.exitCode})`));
		if (this.finished.truncated && this.finished.fullOutputPath)
			parts.push(theme.fg("warning", `Output truncated. Full output: ${this.finished.fullOutputPath}`));
		if (this.excludeFromContext) parts.push(theme.fg("muted", "(not sent to the model)"));
		return parts.length > 0 ? parts.join(" ") : undefined;
	}
}
