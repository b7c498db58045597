// The screen, top to bottom: startup header, transcript, pending queue (and `!` output parked
// while the agent works), the status line, extension widgets, the editor (or a selector in its place),
// widgets below the editor, the footer. Selectors stack: closing one shows the one below, or the editor.
//
// In the inline mode these are the TUI's children, drawn in the terminal's normal screen. In the full-screen
// mode header and transcript scroll in a ScrollLayout above the rest, which stays at the bottom of the screen.
import { type Component, Container, type ScreenMode, ScrollLayout, type ScrollLayoutTheme, type TUI } from "@agent/tui";
import type { DisplayState } from "./display-state.js";
import type { SelectorHandle } from "./mode-host.js";

/** The scrollbar's and the search's colours, read from the theme at each use (a theme change applies at once). */
export function scrollLayoutTheme(state: Pick<DisplayState, "theme">): ScrollLayoutTheme {
	return {
		scrollbarThumb: (text) => state.theme.fg("accent", text),
		scrollbarTrack: (text) => state.theme.fg("borderMuted", text),
		match: (text) => state.theme.underline(state.theme.fg("warning", text)),
		currentMatch: (text) => state.theme.inverse(state.theme.fg("warning", text)),
		searchLabel: (text) => state.theme.bold(state.theme.fg("accent", text)),
		searchHint: (text) => state.theme.fg("dim", text),
	};
}

export interface ScreenLayoutOptions {
	mode: ScreenMode;
	/** Colours of the scrollbar and the search in the full-screen mode (read when the layout is built). */
	scrollTheme: () => ScrollLayoutTheme;
	/** A click on the transcript in the full-screen mode: the components under the pointer, outermost first. */
	onClick?: (path: readonly Component[]) => boolean;
}

export class ScreenLayout {
	readonly header = new Container();
	readonly pending = new Container();
	readonly widgetsAbove = new Container();
	readonly editorArea = new Container();
	readonly widgetsBelow = new Container();
	readonly footerArea = new Container();
	private readonly selectors: Component[] = [];
	private editor: Component;
	private mode: ScreenMode;
	private scrollLayout: ScrollLayout | undefined;
	private readonly scrolling = new Container();
	private readonly fixed = new Container();

	constructor(
		private readonly tui: TUI,
		private readonly transcript: Component,
		private readonly status: Component,
		editor: Component,
		footer: Component,
		private readonly options: ScreenLayoutOptions,
	) {
		this.editor = editor;
		this.mode = options.mode;
		this.editorArea.addChild(editor);
		this.footerArea.addChild(footer);
		this.arrange();
	}

	get screenMode(): ScreenMode {
		return this.mode;
	}

	/** The full-screen mode's scrolling area (undefined in the inline mode). */
	get scroller(): ScrollLayout | undefined {
		return this.scrollLayout;
	}

	/** Rebuilds the screen for `mode`; the TUI switches screens. */
	setMode(mode: ScreenMode): void {
		if (mode === this.mode) return;
		this.mode = mode;
		this.arrange();
		this.tui.setScreenMode(mode);
	}

	private arrange(): void {
		this.scrollLayout?.dispose();
		this.scrollLayout = undefined;
		this.tui.clear();
		this.scrolling.clear();
		this.fixed.clear();
		const bottom = [
			this.pending,
			this.status,
			this.widgetsAbove,
			this.editorArea,
			this.widgetsBelow,
			this.footerArea,
		];
		if (this.mode === "inline") {
			for (const part of [this.header, this.transcript, ...bottom]) this.tui.addChild(part);
			return;
		}
		this.scrolling.addChild(this.header);
		this.scrolling.addChild(this.transcript);
		for (const part of bottom) this.fixed.addChild(part);
		this.scrollLayout = new ScrollLayout(this.tui, this.scrolling, this.fixed, this.options.scrollTheme(), {
			...(this.options.onClick ? { onClick: this.options.onClick } : {}),
		});
		this.tui.addChild(this.scrollLayout);
	}

	get hasSelector(): boolean {
		return this.selectors.length > 0;
	}

	/** The component where the editor is: the top selector, or the editor. */
	get activeComponent(): Component {
		return this.selectors[this.selectors.length - 1] ?? this.editor;
	}

	/** Swaps the editor (an extension's custom editor); selectors stay on top. */
	replaceEditor(editor: Component): void {
		const showing = this.activeComponent === this.editor;
		if (showing) {
			this.editorArea.removeChild(this.editor);
			this.editorArea.addChild(editor);
			this.tui.setFocus(editor);
		}
		this.editor = editor;
		this.tui.requestRender();
	}

	showSelector(component: Component): SelectorHandle {
		this.editorArea.removeChild(this.activeComponent);
		this.selectors.push(component);
		this.editorArea.addChild(component);
		this.tui.setFocus(component);
		this.tui.requestRender();
		let isClosed = false;
		return {
			close: () => {
				if (isClosed) return;
				isClosed = true;
				const wasActive = this.activeComponent === component;
				const index = this.selectors.indexOf(component);
				if (index >= 0) this.selectors.splice(index, 1);
				(component as Partial<{ dispose(): void }>).dispose?.();
				if (wasActive) {
					this.editorArea.removeChild(component);
					const next = this.activeComponent;
					this.editorArea.addChild(next);
					this.tui.setFocus(next);
				}
				this.tui.requestRender();
			},
		};
	}

	/** Replaces the footer component (an extension's `setFooter`). */
	setFooter(footer: Component): void {
		this.footerArea.clear();
		this.footerArea.addChild(footer);
		this.tui.requestRender();
	}

	setHeader(header: Component | undefined): void {
		this.header.clear();
		if (header) this.header.addChild(header);
		this.tui.requestRender();
	}
}
