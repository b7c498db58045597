// The interactive mode: wires the TUI, the theme and key map, and the parts that do the work — the event
// renderer (session events → transcript), the input controller (submitted text), key actions, slash commands
// and selectors. Data flows one way: it subscribes to AgentSession events and calls AgentSession methods.
import { basename } from "node:path";
import {
	CombinedAutocompleteProvider,
	type Component,
	type Container,
	type EditorComponent,
	ProcessTerminal,
	prepareMarkdown,
	type SlashCommand,
	setEditorKeybindings,
	TUI,
} from "@agent/tui";
import { APP_NAME } from "../../config.js";
import type { AgentSession } from "../../core/agent-session.js";
import { getAgentDir } from "../../core/config/paths.js";
import type { TuiMode } from "../../core/config/settings-schema.js";
import { AppEditor } from "./app-editor.js";
import { builtinSlashCommands } from "./commands/builtin-commands.js";
import { BUILTIN_COMMANDS } from "./commands/command-table.js";
import { pickSessionAtStartup } from "./commands/session-commands.js";
import { FooterComponent } from "./components/footer.js";
import { PendingMessagesComponent } from "./components/pending-messages.js";
import { StartupHeaderComponent } from "./components/startup-header.js";
import { StatusArea } from "./components/status-area.js";
import { type DisplayState, keyHint, toggleClickedBlock } from "./display-state.js";
import { SessionEventRenderer } from "./event-renderer.js";
import { bindExtensionRunner, type ExtensionBinding } from "./extension-binding.js";
import { wireCustomEditor } from "./extension-kit/wire-custom-editor.js";
import type { ExtensionUiHost } from "./extension-ui.js";
import { editPromptExternally } from "./external-editor.js";
import { collectFooterFigures, readGitBranch } from "./footer-figures.js";
import { InputController } from "./input-controller.js";
import { KeyActions } from "./key-actions.js";
import type { AppKeybindings } from "./keybindings.js";
import { loadKeybindings } from "./keybindings-file.js";
import type { InteractiveModeOptions, ModeHost, NoticeLevel, SelectorHandle } from "./mode-host.js";
import { ModelsJsonErrorTracker } from "./models-json-error.js";
import { bindPermissions } from "./permission-binding.js";
import { ScreenLayout, scrollLayoutTheme } from "./screen-layout.js";
import { startSession } from "./session-start.js";
import { startupInfoOf, startupNotices } from "./startup-info.js";
import { setCurrentTheme } from "./theme/current-theme.js";
import { detectColorMode } from "./theme/theme.js";
import { ThemeRegistry } from "./theme/theme-registry.js";
import { checkTmuxKeys } from "./tmux-check.js";
import { Transcript } from "./transcript.js";

export const NO_SESSION_SELECTED_TEXT = "No session selected";

/** Session events after which the footer's figures (usage, context) may differ. */
const FOOTER_EVENTS: ReadonlySet<string> = new Set(["message_end", "agent_end", "auto_compaction_end"]);

export class InteractiveMode implements ModeHost, ExtensionUiHost {
	readonly session: AgentSession;
	readonly options: InteractiveModeOptions;
	readonly agentDir: string;
	readonly tui: TUI;
	readonly state: DisplayState;
	readonly editor: AppEditor;
	readonly transcript: Transcript;
	readonly status: StatusArea;
	themes: ThemeRegistry;
	keybindings: AppKeybindings;
	readonly layout: ScreenLayout;
	readonly input: InputController;
	readonly keys: KeyActions;
	/** Extension statuses for the footer, by key. */
	readonly statuses = new Map<string, string>();
	/** Replaces the default spinner text ("Working...") while set. */
	workingMessageOverride: string | undefined;
	private readonly footer: FooterComponent;
	private readonly pendingView: PendingMessagesComponent;
	private readonly renderer: SessionEventRenderer;
	private readonly env: Record<string, string | undefined>;
	private currentGitBranch: string | undefined;
	/** Session, state, permission and MCP listeners, removed by `quit` in the order they were added. */
	private readonly subscriptions: (() => void)[] = [];
	/** The MCP prompt commands the autocomplete offers. */
	private mcpCommandsKey = "";
	private readonly onTerminate = (signal: NodeJS.Signals) => void this.quit(signal === "SIGHUP" ? 129 : 143);
	private exitCode: number | undefined;
	private resolveExit: ((code: number) => void) | undefined;
	private isQuitting = false;
	private readonly startupWarnings: string[] = [];
	private readonly modelsJsonErrors = new ModelsJsonErrorTracker();
	private startupHeader: Component | undefined;
	private customEditor: EditorComponent | undefined;
	private autocompleteProvider: CombinedAutocompleteProvider | undefined;
	private extensionBinding: ExtensionBinding | undefined;
	/** Printed after the terminal is restored (e.g. `No session selected`). */
	private exitMessage: string | undefined;

	constructor(session: AgentSession, options: InteractiveModeOptions = {}) {
		this.session = session;
		this.options = options;
		this.env = options.env ?? process.env;
		this.agentDir = options.agentDir ?? getAgentDir(this.env);
		const settings = session.settingsManager;

		const loaded = loadKeybindings(this.agentDir, { env: this.env });
		this.keybindings = loaded.keybindings;
		this.startupWarnings.push(...loaded.warnings);
		setEditorKeybindings(this.keybindings.editor);

		this.themes = this.createThemeRegistry();
		const { theme, warning } = this.themes.resolve(settings.getTheme());
		if (warning) this.startupWarnings.push(warning);

		setCurrentTheme(theme);
		this.state = {
			theme,
			toolsExpanded: false,
			hideThinking: settings.getHideThinkingBlock(),
			keybindings: this.keybindings,
			cwd: session.cwd,
			codeBlockIndent: settings.getCodeBlockIndent(),
			showImages: settings.getShowImages(),
		};

		const screenMode = options.tuiMode ?? settings.getTuiMode();
		this.tui = new TUI(options.terminal ?? new ProcessTerminal(), {
			showHardwareCursor: settings.getShowHardwareCursor(),
			clearOnShrink: settings.getClearOnShrink(),
			screenMode,
			env: this.env,
		});
		this.transcript = new Transcript(this.state);
		this.status = new StatusArea(this.tui, this.state);
		this.editor = new AppEditor(this.tui, theme.getEditorTheme(), this.keybindings, {
			paddingX: settings.getEditorPaddingX(),
			autocompleteMaxVisible: settings.getAutocompleteMaxVisible(),
		});
		this.currentGitBranch = readGitBranch(session.cwd);
		this.footer = new FooterComponent(this.state, collectFooterFigures(session, this.currentGitBranch, []));
		this.layout = new ScreenLayout(this.tui, this.transcript, this.status, this.editor, this.footer, {
			mode: screenMode,
			scrollTheme: () => scrollLayoutTheme(this.state),
			onClick: toggleClickedBlock,
		});
		this.pendingView = new PendingMessagesComponent(this.state);
		this.layout.pending.addChild(this.pendingView);

		this.input = new InputController(this, BUILTIN_COMMANDS, this.layout.pending);
		this.keys = new KeyActions(this, this.input);
		this.renderer = new SessionEventRenderer({
			transcript: this.transcript,
			status: this.status,
			state: this.state,
			workingMessage: () => this.workingMessage(),
			refreshPending: () => this.refreshPending(),
			requestRender: () => this.requestRender(),
			isBusy: () => this.session.isStreaming || this.session.isCompacting,
			waitForIdle: () => this.session.waitForIdle(),
			onIdle: () => this.onIdle(),
		});

		this.editor.onSubmit = (text) => {
			// Full screen: what is sent is shown, whatever part of the transcript was in view.
			this.layout.scroller?.scrollToBottom();
			this.input.submit(text);
		};
		this.editor.onChange = () => this.refreshEditorBorder();
		this.editor.onAction = (action) => this.keys.handle(action);
		// Esc cancels a compaction or branch summary whatever has focus (the tree stays open while summarizing).
		this.tui.addInputListener((data) => {
			if (this.session.isCompacting && this.keybindings.matches(data, "interrupt")) {
				this.session.abortCompaction();
				return { consume: true };
			}
			return undefined;
		});
		this.refreshAutocomplete();
		this.refreshEditorBorder();
	}

	/** Starts the UI and resolves with the exit code once the user quits. */
	async run(): Promise<number> {
		const exit = new Promise<number>((resolve) => {
			this.resolveExit = resolve;
		});
		this.subscriptions.push(
			this.session.subscribe((event) => {
				try {
					this.renderer.handle(event);
					if (FOOTER_EVENTS.has(event.type)) this.refreshFooter();
				} catch (error) {
					// A drawing bug must not take the session down with it.
					const message = error instanceof Error ? error.message : String(error);
					this.notify("error", `Display error (${event.type}): ${message}`);
				}
			}),
		);
		// The footer follows the session: its events (usage after each reply, compaction) and its state changes
		// (model, thinking level, session, name, branch), whoever made them (a command, a key, an extension).
		this.subscriptions.push(this.session.onStateChange(() => this.refreshFooter()));
		const runner = this.options.extensions;
		if (runner) {
			this.extensionBinding = bindExtensionRunner(this, runner);
			const binding = this.extensionBinding;
			this.editor.onShortcut = (data) => binding.handleShortcut(data);
		}
		this.subscriptions.push(bindPermissions(this));
		this.showStartupHeader();
		if (this.session.messages.length > 0) this.transcript.showMessages(this.session.messages, this.transcriptWidth());
		for (const warning of [...this.startupWarnings, ...(this.options.warnings ?? [])])
			this.notify("warning", warning);
		this.reportModelsJsonError();
		for (const notice of startupNotices(this.session, this.themes, this.options))
			this.notify(notice.level, notice.text);
		// MCP servers start in the background: their failures and authorization requests become notices, and
		// the slash commands of their prompts appear when they connect.
		this.subscriptions.push(
			this.session.onMcpNotice((notice) => this.notify(notice.level, notice.text)),
			this.session.mcp?.onChange(() => {
				const commands = this.session.mcp?.getPromptCommands().map((command) => command.name) ?? [];
				const key = commands.join("\n");
				if (key === this.mcpCommandsKey) return;
				this.mcpCommandsKey = key;
				this.refreshAutocomplete();
			}) ?? (() => {}),
		);
		// A closed terminal or `kill` ends the session like /quit: session_shutdown, MCP servers stopped.
		process.on("SIGTERM", this.onTerminate);
		process.on("SIGHUP", this.onTerminate);
		this.tui.setFocus(this.editor);
		this.tui.start();
		this.updateTitle();
		this.tui.renderNow();
		this.options.onReady?.();
		// While the first prompt is typed, load the model's provider (adapter, SDK, Node's fetch): the first reply
		// then starts ~60 ms sooner. And the markdown parser, which the first frame did without.
		void this.session.preloadProvider();
		void prepareMarkdown();
		void checkTmuxKeys(this.env).then((warnings) => {
			for (const warning of warnings) this.notify("warning", warning);
		});
		if (this.options.resume) this.pickSessionThenStart();
		else void startSession(this, () => this.isQuitting);
		return exit;
	}

	// ---- ModeHost ------------------------------------------------------------------------------------------

	get themeRegistry(): ThemeRegistry {
		return this.themes;
	}

	notify(level: NoticeLevel, text: string): void {
		this.transcript.showNotice(level, text);
		this.requestRender();
	}

	notifyPromptFailure(error: unknown): void {
		const message = error instanceof Error ? error.message : String(error);
		this.notify("error", `Error: ${message}`);
		const hint = this.options.describeFailure?.(message);
		if (hint) this.notify("warning", hint);
	}

	requestRender(): void {
		this.tui.requestRender();
	}

	reportModelsJsonError(): void {
		const notice = this.modelsJsonErrors.noticeFor(this.session.modelRegistry.getError());
		if (notice) this.notify("warning", notice);
	}

	showSelector(component: Component): SelectorHandle {
		return this.layout.showSelector(component);
	}

	hasSelector(): boolean {
		return this.layout.hasSelector;
	}

	rebuildTranscript(): void {
		this.renderer.reset();
		this.transcript.showMessages(this.session.messages, this.transcriptWidth());
		this.refreshPending();
		// The history above changed whole: print it again (in the inline mode the scrollback still held the old).
		this.tui.requestRender(true);
	}

	refreshFooter(): void {
		this.footer.setData(collectFooterFigures(this.session, this.currentGitBranch, this.statusLines()));
		this.requestRender();
	}

	refreshPending(): void {
		this.pendingView.setQueues(
			this.session.getSteeringMessages(),
			this.session.getFollowUpMessages(),
			this.input?.parkedCommands ?? [],
		);
		this.requestRender();
	}

	refreshEditorBorder(): void {
		const { theme } = this.state;
		const isBash = this.editor.getText().trimStart().startsWith("!");
		this.editor.borderColor = isBash ? theme.fgStyle("bashMode") : theme.thinkingStyle(this.session.thinkingLevel);
		if (this.customEditor?.borderColor !== undefined) this.customEditor.borderColor = this.editor.borderColor;
	}

	refreshAutocomplete(): void {
		const enableSkills = this.session.settingsManager.getEnableSkillCommands();
		const builtinNames = new Set(BUILTIN_COMMANDS.map((command) => command.name));
		const commands: SlashCommand[] = [...builtinSlashCommands(this, BUILTIN_COMMANDS)];
		for (const command of this.session.getCommands()) {
			if (builtinNames.has(command.name)) continue;
			if (command.source === "skill" && !enableSkills) continue;
			commands.push({ name: command.name, ...(command.description ? { description: command.description } : {}) });
		}
		this.autocompleteProvider = new CombinedAutocompleteProvider(commands, this.session.cwd);
		this.editor.setAutocompleteProvider(this.autocompleteProvider);
		this.customEditor?.setAutocompleteProvider?.(this.autocompleteProvider);
	}

	updateTitle(): void {
		const name = this.session.sessionName;
		const folder = basename(this.session.cwd);
		this.setTitle(name ? `${APP_NAME} - ${name} - ${folder}` : `${APP_NAME} - ${folder}`);
	}

	setTitle(title: string): void {
		this.tui.terminal.setTitle(title);
	}

	setTheme(name: string, options: { preview?: boolean } = {}): boolean {
		const theme = this.themes.get(name);
		if (!theme) return false;
		this.state.theme = theme;
		setCurrentTheme(theme);
		if (!options.preview) this.session.settingsManager.setTheme(name);
		this.editor.borderColor = theme.fgStyle("borderMuted");
		this.refreshEditorBorder();
		this.tui.invalidate();
		this.transcript.trimHistory();
		this.tui.requestRender(true);
		return true;
	}

	/**
	 * Ctrl+O. Every block changes, also those that scrolled off: the history is drawn again whole (in the inline
	 * mode the scrollback is cleared and reprinted, so a long result can be read in full by scrolling up).
	 */
	setToolsExpanded(expanded: boolean): void {
		if (this.state.toolsExpanded === expanded) return;
		this.state.toolsExpanded = expanded;
		this.transcript.refreshExpandable();
		this.layout.pending.invalidate();
		this.redrawHistory();
	}

	setHideThinking(hidden: boolean): void {
		this.state.hideThinking = hidden;
		this.session.settingsManager.setHideThinkingBlock(hidden);
		this.transcript.refreshReplies();
		this.redrawHistory();
	}

	/**
	 * After the blocks that change were invalidated: the row budget is counted in their new form (only what is
	 * kept is rendered), and the history is printed again.
	 */
	private redrawHistory(): void {
		this.transcript.trimHistory();
		this.tui.requestRender(true);
	}

	applyUiSettings(): void {
		const settings = this.session.settingsManager;
		this.editor.setPaddingX(settings.getEditorPaddingX());
		this.editor.setAutocompleteMaxVisible(settings.getAutocompleteMaxVisible());
		this.tui.setShowHardwareCursor(settings.getShowHardwareCursor());
		this.tui.setClearOnShrink(settings.getClearOnShrink());
		this.state.showImages = settings.getShowImages();
		this.requestRender();
	}

	reloadKeybindings(): void {
		const loaded = loadKeybindings(this.agentDir, { env: this.env });
		this.keybindings = loaded.keybindings;
		this.state.keybindings = loaded.keybindings;
		this.editor.setKeybindings(loaded.keybindings);
		setEditorKeybindings(loaded.keybindings.editor);
		for (const warning of loaded.warnings) this.notify("warning", warning);
	}

	reloadThemes(): void {
		this.themes = this.createThemeRegistry();
		for (const issue of this.themes.issues) this.notify(issue.severity, `Theme: ${issue.message}`);
		const { theme, warning } = this.themes.resolve(this.session.settingsManager.getTheme());
		if (warning) this.notify("warning", warning);
		this.setTheme(theme.name, { preview: true });
	}

	extensionShortcuts(): { key: string; description: string }[] {
		return this.extensionBinding?.shortcuts ?? [];
	}

	submitPrompt(text: string, delivery: "steer" | "followUp" = "steer"): void {
		this.input.submit(text, delivery);
	}

	suspend(): void {
		if (process.platform === "win32") return;
		this.tui.stop();
		process.once("SIGCONT", () => {
			this.tui.start();
			this.tui.requestRender(true);
		});
		process.kill(0, "SIGTSTP");
	}

	openExternalEditor(): void {
		editPromptExternally(this, this.env);
	}

	scrollTranscript(direction: -1 | 1): boolean {
		const scroller = this.layout.scroller;
		if (!scroller) return false;
		scroller.scrollPage(direction);
		return true;
	}

	openTranscriptSearch(): boolean {
		const scroller = this.layout.scroller;
		if (!scroller) return false;
		scroller.openSearch();
		return true;
	}

	setTuiMode(mode: TuiMode): void {
		this.session.settingsManager.setTuiMode(mode);
		this.layout.setMode(mode);
		this.startupHeader?.invalidate();
	}

	// ---- ExtensionUiHost ------------------------------------------------------------------------------------

	get widgetsAbove(): Container {
		return this.layout.widgetsAbove;
	}

	get widgetsBelow(): Container {
		return this.layout.widgetsBelow;
	}

	setWorkingMessage(message: string | undefined): void {
		this.workingMessageOverride = message;
		if (this.session.isStreaming && this.status.isActive) this.status.show(this.workingMessage());
	}

	setCustomFooter(component: Component | undefined): void {
		this.layout.setFooter(component ?? this.footer);
	}

	setCustomHeader(component: Component | undefined): void {
		this.layout.setHeader(component ?? this.startupHeader);
	}

	setCustomEditor(editor: EditorComponent | undefined): void {
		const previousText = this.activeEditor().getText();
		if (editor) {
			editor.onSubmit = (text) => this.input.submit(text);
			editor.onChange = () => this.refreshEditorBorder();
			wireCustomEditor(editor, {
				handle: (action) => this.keys.handle(action),
				handleShortcut: (data) => this.extensionBinding?.handleShortcut(data) ?? false,
			});
			if (editor.borderColor !== undefined) editor.borderColor = this.editor.borderColor;
			editor.setPaddingX?.(this.editor.getPaddingX());
			if (this.autocompleteProvider) editor.setAutocompleteProvider?.(this.autocompleteProvider);
		}
		(editor ?? this.editor).setText(previousText);
		this.customEditor = editor;
		this.layout.replaceEditor(editor ?? this.editor);
	}

	gitBranch(): string | undefined {
		return this.currentGitBranch;
	}

	activeEditor(): EditorComponent {
		return this.customEditor ?? this.editor;
	}

	async quit(exitCode = 0): Promise<void> {
		if (this.isQuitting) return;
		this.isQuitting = true;
		this.exitCode = exitCode;
		for (const unsubscribe of this.subscriptions.splice(0)) unsubscribe();
		process.off("SIGTERM", this.onTerminate);
		process.off("SIGHUP", this.onTerminate);
		this.status.hide();
		try {
			await this.session.shutdown();
		} catch {
			// Leaving anyway: the terminal must be restored.
		}
		this.tui.stop();
		await this.tui.terminal.drainInput(300, 30);
		if (this.exitMessage) process.stdout.write(`${this.exitMessage}\n`);
		this.resolveExit?.(this.exitCode);
	}

	// ---- internals ----------------------------------------------------------------------------------------

	private createThemeRegistry(): ThemeRegistry {
		const files = this.session.resourceLoader.getThemes().themes.map((theme) => ({
			name: theme.name,
			path: theme.path,
			definition: theme.definition,
		}));
		return new ThemeRegistry(files, detectColorMode(this.env));
	}

	/** The width the transcript is drawn at (the full-screen mode keeps the last column for the scrollbar). */
	private transcriptWidth(): number {
		const columns = this.tui.terminal.columns;
		return this.layout.screenMode === "fullscreen" ? Math.max(1, columns - 1) : columns;
	}

	private workingMessage(): string {
		return this.workingMessageOverride ?? `Working... (${keyHint(this.state, "interrupt")} to interrupt)`;
	}

	private statusLines(): string[] {
		return [...this.statuses.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, text]) => text);
	}

	private onIdle(): void {
		this.input.unparkBash();
		this.input.flushCompactionQueue();
		const branch = readGitBranch(this.session.cwd);
		if (branch !== this.currentGitBranch) {
			this.currentGitBranch = branch;
			this.extensionBinding?.ui.notifyBranchChange();
		}
		this.refreshFooter();
	}

	private showStartupHeader(): void {
		const quiet = this.session.settingsManager.getQuietStartup() && !this.options.verbose;
		const info = startupInfoOf(this.session, this.keybindings.getKeys("cycleModelForward")[0], () => {
			return this.layout.screenMode === "fullscreen";
		});
		this.startupHeader = new StartupHeaderComponent(this.state, info, quiet);
		this.layout.setHeader(this.startupHeader);
	}

	/** `agent -r`: the session picker before anything else; cancelling leaves with `No session selected`. */
	private pickSessionThenStart(): void {
		pickSessionAtStartup(this, {
			onOpened: () => void startSession(this, () => this.isQuitting),
			onCancelled: () => {
				this.exitMessage = NO_SESSION_SELECTED_TEXT;
				void this.quit(0);
			},
		});
	}
}

/** Runs the interactive mode until the user quits; resolves with the exit code. */
export async function runInteractiveMode(session: AgentSession, options: InteractiveModeOptions = {}): Promise<number> {
	// The first frame of a resumed session shows its messages, in markdown: the parser loads before it.
	if (session.messages.length > 0) await prepareMarkdown();
	return new InteractiveMode(session, options).run();
}

export type { InteractiveModeOptions } from "./mode-host.js";
