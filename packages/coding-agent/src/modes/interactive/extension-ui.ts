// `ctx.ui` in the interactive mode (docs/extensions.md "UI"): dialogs in the editor's place with a live countdown for
// timeouts, notices in the transcript, footer statuses, widgets above or below the editor, the terminal title,
// the editor's text, custom components (in place of the editor or as overlays), the footer and header, the
// prompt editor itself, and themes.
import { type Component, type EditorComponent, matchesKey, PASTE_END, PASTE_START, Text, type TUI } from "@agent/tui";
import type {
	CustomUIFactory,
	CustomUIOptions,
	DialogOptions,
	EditorFactory,
	ExtensionKeybindings,
	Theme as ExtensionTheme,
	ExtensionUIContext,
	FooterData,
	FooterFactory,
	HeaderFactory,
	NotifyType,
	TerminalInputHandler,
	ThemeInfo,
	WidgetFactory,
	WidgetOptions,
} from "../../core/extensions/ui-context.js";
import type { KeybindingAction } from "./keybindings.js";
import type { AppearanceHost, DialogHost, FooterHost, NoticeHost, SessionHost, TranscriptHost } from "./mode-host.js";
import { confirmDialog, editorDialog, inputDialog, openDialog, selectDialog } from "./selectors/dialogs.js";
import { Theme } from "./theme/theme.js";

/** What the extension UI needs from the mode: the roles it uses, and the places extensions may draw. */
export interface ExtensionUiHost
	extends NoticeHost,
		SessionHost,
		DialogHost,
		TranscriptHost,
		FooterHost,
		AppearanceHost {
	readonly statuses: Map<string, string>;
	setWorkingMessage(message: string | undefined): void;
	setTitle(title: string): void;
	/** Widgets above / below the editor. */
	readonly widgetsAbove: { addChild(c: Component): void; removeChild(c: Component): void };
	readonly widgetsBelow: { addChild(c: Component): void; removeChild(c: Component): void };
	/** A custom footer, or the built-in one (undefined). */
	setCustomFooter(component: Component | undefined): void;
	/** A custom header, or the built-in startup header (undefined). */
	setCustomHeader(component: Component | undefined): void;
	/** A custom prompt editor, or the built-in one (undefined). */
	setCustomEditor(editor: EditorComponent | undefined): void;
	gitBranch(): string | undefined;
	/** The prompt editor in use (the built-in one or an extension's). */
	activeEditor(): EditorComponent;
}

type Disposable = Component & { dispose?(): void };

function keybindingsFor(host: ExtensionUiHost): ExtensionKeybindings {
	const keysOf = (action: string) => host.keybindings.getKeys(action as KeybindingAction);
	return {
		matches: (data, action) => keysOf(action).some((key) => matchesKey(data, key)),
		getKeys: keysOf,
	};
}

export class InteractiveExtensionUI implements ExtensionUIContext {
	private readonly widgets = new Map<string, { component: Disposable; placement: "aboveEditor" | "belowEditor" }>();
	private footer: Disposable | undefined;
	private header: Disposable | undefined;
	private readonly branchListeners = new Set<() => void>();

	constructor(private readonly host: ExtensionUiHost) {}

	get theme(): ExtensionTheme {
		return this.host.state.theme;
	}

	select(title: string, options: string[], opts?: DialogOptions): Promise<string | undefined> {
		return selectDialog(this.host, title, options, opts);
	}

	confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean> {
		return confirmDialog(this.host, title, message, opts);
	}

	input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined> {
		return inputDialog(this.host, title, placeholder, opts);
	}

	editor(title: string, prefill?: string): Promise<string | undefined> {
		return editorDialog(this.host, title, prefill);
	}

	notify(message: string, type: NotifyType = "info"): void {
		this.host.notify(type, message);
	}

	onTerminalInput(handler: TerminalInputHandler): () => void {
		return this.host.tui.addInputListener(handler);
	}

	setStatus(key: string, text: string | undefined): void {
		if (text === undefined) this.host.statuses.delete(key);
		else this.host.statuses.set(key, text);
		this.host.refreshFooter();
	}

	setWorkingMessage(message?: string): void {
		this.host.setWorkingMessage(message);
	}

	setWidget(key: string, content: string[] | WidgetFactory | undefined, options?: WidgetOptions): void {
		const existing = this.widgets.get(key);
		if (existing) {
			this.containerFor(existing.placement).removeChild(existing.component);
			existing.component.dispose?.();
			this.widgets.delete(key);
		}
		if (content === undefined) {
			this.host.requestRender();
			return;
		}
		const placement = options?.placement ?? "aboveEditor";
		const component: Disposable = Array.isArray(content)
			? new Text(content.join("\n"), 1, 0)
			: content(this.host.tui, this.host.state.theme);
		this.widgets.set(key, { component, placement });
		this.containerFor(placement).addChild(component);
		this.host.requestRender();
	}

	setFooter(factory: FooterFactory | undefined): void {
		this.footer?.dispose?.();
		this.footer = factory ? factory(this.host.tui, this.host.state.theme, this.footerData()) : undefined;
		this.host.setCustomFooter(this.footer);
	}

	setHeader(factory: HeaderFactory | undefined): void {
		this.header?.dispose?.();
		this.header = factory ? factory(this.host.tui, this.host.state.theme) : undefined;
		this.host.setCustomHeader(this.header);
	}

	setTitle(title: string): void {
		this.host.setTitle(title);
	}

	async custom<T>(factory: CustomUIFactory<T>, options: CustomUIOptions = {}): Promise<T | undefined> {
		const { host } = this;
		if (!options.overlay) {
			let finishDialog: ((value: T | undefined) => void) | undefined;
			let early: { value: T } | undefined;
			const done = (value: T) => {
				if (finishDialog) finishDialog(value);
				else early ??= { value };
			};
			const component = await factory(host.tui, host.state.theme, keybindingsFor(host), done);
			if (early) {
				(component as Disposable).dispose?.();
				return early.value;
			}
			// Closing the dialog disposes the component.
			return openDialog<T | undefined>(
				host,
				(finish) => {
					finishDialog = finish;
					return component;
				},
				undefined,
			);
		}
		return new Promise<T | undefined>((resolve) => {
			let handle: ReturnType<TUI["showOverlay"]> | undefined;
			let done = false;
			let built: Component | undefined;
			const finish = (value: T) => {
				if (done) return;
				done = true;
				handle?.hide();
				(built as Disposable | undefined)?.dispose?.();
				host.requestRender();
				resolve(value);
			};
			void Promise.resolve(factory(host.tui, host.state.theme, keybindingsFor(host), finish)).then((component) => {
				built = component;
				if (done) return;
				const overlayOptions =
					typeof options.overlayOptions === "function" ? options.overlayOptions() : options.overlayOptions;
				handle = host.tui.showOverlay(component, overlayOptions);
				options.onHandle?.(handle);
			});
		});
	}

	pasteToEditor(text: string): void {
		this.host.activeEditor().handleInput(`${PASTE_START}${text}${PASTE_END}`);
		this.host.requestRender();
	}

	setEditorText(text: string): void {
		this.host.activeEditor().setText(text);
		this.host.requestRender();
	}

	getEditorText(): string {
		return this.host.activeEditor().getText();
	}

	setEditorComponent(factory: EditorFactory | undefined): void {
		const { host } = this;
		const editor = factory ? factory(host.tui, host.state.theme.getEditorTheme(), keybindingsFor(host)) : undefined;
		host.setCustomEditor(editor);
	}

	getAllThemes(): ThemeInfo[] {
		return this.host.themes.list();
	}

	getTheme(name: string): ExtensionTheme | undefined {
		return this.host.themes.get(name);
	}

	setTheme(theme: string | ExtensionTheme): { success: boolean; error?: string } {
		if (typeof theme === "string") {
			return this.host.setTheme(theme, { preview: true })
				? { success: true }
				: { success: false, error: `Theme "${theme}" not found` };
		}
		if (theme instanceof Theme) {
			this.host.themes.add(theme);
			this.host.setTheme(theme.name, { preview: true });
			return { success: true };
		}
		return { success: false, error: "Pass a theme name, or a theme returned by getTheme()" };
	}

	getToolsExpanded(): boolean {
		return this.host.state.toolsExpanded;
	}

	setToolsExpanded(expanded: boolean): void {
		this.host.setToolsExpanded(expanded);
	}

	/** Tells custom footers that the git branch may have changed. */
	notifyBranchChange(): void {
		for (const listener of [...this.branchListeners]) listener();
	}

	private containerFor(placement: "aboveEditor" | "belowEditor") {
		return placement === "belowEditor" ? this.host.widgetsBelow : this.host.widgetsAbove;
	}

	private footerData(): FooterData {
		const { host } = this;
		return {
			getGitBranch: () => host.gitBranch() ?? null,
			getExtensionStatuses: () => host.statuses,
			getAvailableProviderCount: () => new Set(host.session.getAvailableModels().map((m) => m.provider)).size,
			onBranchChange: (listener) => {
				this.branchListeners.add(listener);
				return () => this.branchListeners.delete(listener);
			},
		};
	}
}
