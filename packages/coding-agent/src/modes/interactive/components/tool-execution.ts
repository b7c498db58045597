// One tool call in the transcript, from the moment the model starts writing its arguments until its result:
// a box whose background says pending / done / failed, drawn by the tool's renderer. Updates re-render only
// this box.
import type { AgentToolResult } from "@agent/agent-core";
import { type Component, detectImageProtocol, Image } from "@agent/tui";
import { type DisplayState, ExpandableComponent, keyHint } from "../display-state.js";
import type { Theme } from "../theme/theme.js";
import { boxLines, wrapLines } from "./render-utils.js";
import { getToolRenderer, type ToolView } from "./tool-renderers/index.js";
import { highlightLines } from "./tool-renderers/read.js";

export type ToolStatus = "pending" | "running" | "done";

/**
 * While the model writes a tool call, its arguments are re-read at most this often. Reading them parses the
 * JSON written so far; doing that for each of the ~25,000 fragments of a 200 kB `write` would be quadratic.
 */
export const STREAMED_ARGS_REFRESH_MS = 100;

export class ToolExecutionComponent extends ExpandableComponent {
	private args: Record<string, unknown>;
	private argsComplete = false;
	private result: AgentToolResult<unknown> | undefined;
	private isError = false;
	private status: ToolStatus = "pending";
	private images: Map<object, Image> | undefined;
	private argsSource: (() => Record<string, unknown>) | undefined;
	private lastArgsRead = 0;
	private argsTimer: ReturnType<typeof setTimeout> | undefined;
	/** Header and body of the last render; they do not depend on the width (a resize only wraps them again). */
	private drawn: { expanded: boolean; header: string | Component; body: string[] | Component } | undefined;
	/** Highlighted code by language and text (collapsed and expanded forms), for `highlightedTheme`. */
	private readonly highlighted = new Map<string, string[]>();
	private highlightedTheme: Theme | undefined;

	constructor(
		private readonly state: DisplayState,
		readonly toolCallId: string,
		readonly toolName: string,
		args: Record<string, unknown>,
	) {
		super(state);
		this.args = args;
	}

	get currentStatus(): ToolStatus {
		return this.status;
	}

	/** Final (or known) arguments; `complete` once the call is fully written. */
	updateArgs(args: Record<string, unknown>, complete = false): void {
		this.stopStreamingArgs();
		this.args = args;
		if (complete) this.argsComplete = true;
		this.markChanged();
	}

	/**
	 * The model wrote more of the call: `read` returns the arguments so far. They are read at once when the last
	 * read is old enough, else once the refresh interval has passed (then `requestRender` draws them).
	 */
	streamArgs(read: () => Record<string, unknown>, requestRender: () => void): void {
		if (this.status !== "pending" || this.argsComplete) return;
		this.argsSource = read;
		const wait = STREAMED_ARGS_REFRESH_MS - (Date.now() - this.lastArgsRead);
		if (wait <= 0) {
			this.readStreamedArgs();
			return;
		}
		this.argsTimer ??= setTimeout(() => {
			this.argsTimer = undefined;
			if (!this.argsSource) return;
			this.readStreamedArgs();
			requestRender();
		}, wait);
	}

	markRunning(args?: Record<string, unknown>): void {
		this.stopStreamingArgs();
		if (args) this.args = args;
		this.argsComplete = true;
		this.status = "running";
		this.markChanged();
	}

	setPartialResult(result: AgentToolResult<unknown>): void {
		this.result = result;
		this.markChanged();
	}

	setResult(result: AgentToolResult<unknown>, isError: boolean): void {
		this.stopStreamingArgs();
		this.result = result;
		this.isError = isError;
		this.argsComplete = true;
		this.status = "done";
		this.markChanged();
	}

	/** The call never ran (the run was aborted or the reply failed before it): show it as failed. */
	markNotExecuted(reason: string): void {
		if (this.status === "done") return;
		this.setResult({ content: [{ type: "text", text: reason }], details: undefined }, true);
	}

	private highlight(code: string, language: string | undefined): string[] {
		if (this.highlightedTheme !== this.state.theme) {
			this.highlighted.clear();
			this.highlightedTheme = this.state.theme;
		}
		const key = `${language ?? ""}\u0000${code}`;
		let lines = this.highlighted.get(key);
		if (!lines) {
			lines = highlightLines(this.state.theme, code, language);
			// Two forms at most (collapsed and expanded); a running tool's growing output does not pile up.
			if (this.highlighted.size >= 2) this.highlighted.clear();
			this.highlighted.set(key, lines);
		}
		return lines;
	}

	protected override markChanged(): void {
		this.drawn = undefined;
		super.markChanged();
	}

	private readStreamedArgs(): void {
		const read = this.argsSource;
		if (!read) return;
		this.lastArgsRead = Date.now();
		this.args = read();
		this.markChanged();
	}

	private stopStreamingArgs(): void {
		if (this.argsTimer) clearTimeout(this.argsTimer);
		this.argsTimer = undefined;
		this.argsSource = undefined;
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		const view: ToolView = {
			toolName: this.toolName,
			args: this.args,
			argsComplete: this.argsComplete,
			...(this.result ? { result: this.result } : {}),
			isError: this.isError,
			isPartial: this.status !== "done",
			expanded: this.isExpanded,
		};
		if (this.drawn?.expanded !== view.expanded) {
			const renderer = getToolRenderer(this.toolName);
			const context = {
				theme,
				cwd: this.state.cwd,
				expandKey: keyHint(this.state, "expandTools"),
				highlight: (code: string, language: string | undefined) => this.highlight(code, language),
			};
			const custom = this.extensionLines(view);
			this.drawn = {
				expanded: view.expanded,
				header: custom?.header ?? renderer.header(view, context),
				body: custom?.body ?? renderer.body(view, context),
			};
		}
		const { header, body } = this.drawn;
		const background =
			this.status !== "done"
				? theme.bgStyle("toolPendingBg")
				: this.isError
					? theme.bgStyle("toolErrorBg")
					: theme.bgStyle("toolSuccessBg");
		const rows = boxLines(
			width,
			(inner) => {
				const headerRows = typeof header === "string" ? wrapLines([header], inner) : header.render(inner);
				const bodyRows = Array.isArray(body) ? wrapLines(body, inner) : body.render(inner);
				return bodyRows.length > 0 ? [...headerRows, "", ...bodyRows] : headerRows;
			},
			{
				paddingX: 1,
				paddingY: 1,
				background,
			},
		);
		return ["", ...rows, ...this.imageLines(width)];
	}

	/** Images in the result, drawn inline below the box on terminals that can (`terminal.showImages`). */
	private imageLines(width: number): string[] {
		if (!this.state.showImages || !this.result || this.status !== "done") return [];
		if (!this.result.content.some((block) => block.type === "image") || !detectImageProtocol()) return [];
		const lines: string[] = [];
		for (const block of this.result.content) {
			if (block.type !== "image") continue;
			this.images ??= new Map();
			let image = this.images.get(block);
			if (!image) {
				image = new Image(
					block.data,
					block.mimeType,
					{ fallbackColor: this.state.theme.fgStyle("muted") },
					{
						maxWidthCells: Math.min(60, Math.max(10, width - 2)),
					},
				);
				this.images.set(block, image);
			}
			lines.push(...image.render(width));
		}
		return lines;
	}

	/** An extension tool's own renderers (renderCall / renderResult); the built-in look where it has none. */
	private extensionLines(view: ToolView): { header?: Component; body?: Component } | undefined {
		const definition = this.state.extensionRenderers?.toolDefinition(this.toolName);
		if (!definition?.renderCall && !definition?.renderResult) return undefined;
		const lines: { header?: Component; body?: Component } = {};
		try {
			const header = definition.renderCall?.(view.args, this.state.theme);
			if (header) lines.header = header;
			if (view.result && definition.renderResult) {
				const body = definition.renderResult(
					view.result,
					{ expanded: view.expanded, isPartial: view.isPartial },
					this.state.theme,
				);
				if (body) lines.body = body;
			}
		} catch {
			// A failing renderer falls back to the built-in look.
			return undefined;
		}
		return lines;
	}
}
