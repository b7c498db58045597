// The screen, top to bottom (cli.md §13.1): startup header, transcript, pending queue (and `!` output parked
// while the agent works), the status line, extension widgets, the editor (or a selector in its place),
// widgets below the editor, the footer. Selectors stack: closing one shows the one below, or the editor.
import { type Component, Container, type TUI } from "@agent/tui";
import type { SelectorHandle } from "./mode-host.js";

export class ScreenLayout {
	readonly header = new Container();
	readonly pending = new Container();
	readonly widgetsAbove = new Container();
	readonly editorArea = new Container();
	readonly widgetsBelow = new Container();
	readonly footerArea = new Container();
	private readonly selectors: Component[] = [];
	private editor: Component;

	constructor(
		private readonly tui: TUI,
		transcript: Component,
		status: Component,
		editor: Component,
		footer: Component,
	) {
		this.editor = editor;
		tui.addChild(this.header);
		tui.addChild(transcript);
		tui.addChild(this.pending);
		tui.addChild(status);
		tui.addChild(this.widgetsAbove);
		tui.addChild(this.editorArea);
		tui.addChild(this.widgetsBelow);
		tui.addChild(this.footerArea);
		this.editorArea.addChild(editor);
		this.footerArea.addChild(footer);
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
