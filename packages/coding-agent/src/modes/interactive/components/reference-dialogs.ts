// The dialogs behind ctx.ui.select/input/editor, the sign-in dialog and the collapsed skill block under the
// reference's names and constructors, for programs written for it. Each is our panel (selectors/dialogs.ts) or
// component given the reference's parameters and callbacks; the theme is the one on screen (getCurrentTheme).
import { getOAuthProvider, LOGIN_CANCELLED_MESSAGE } from "@agent/ai";
import {
	type Component,
	type EditorOptions,
	Input,
	type MarkdownTheme,
	matchesKey,
	type TUI,
	truncateToWidth,
} from "@agent/tui";
import type { ExtensionKeybindings } from "../../../core/extensions/ui-context.js";
import type { ParsedSkillBlock } from "../../../core/resources/skill-prompt.js";
import type { DisplayState } from "../display-state.js";
import { editorCommand, editWithTuiStopped } from "../external-editor.js";
import { choicePanel, EditorPanel, InputPanel, startCountdown } from "../selectors/dialogs.js";
import { ownDisplayState } from "./reference-components.js";
import { PanelComponent } from "./reference-selectors.js";
import { SkillBlockComponent } from "./skill-invocation-message.js";

export interface ExtensionDialogOptions {
	/** Asked to render each second of the countdown. */
	tui?: TUI;
	/** Milliseconds until the dialog cancels itself; the seconds left are shown after the title. */
	timeout?: number;
}

/** Stops a countdown once: on a choice, on cancel, or on dispose. */
class Countdown {
	private timer: ReturnType<typeof setInterval> | undefined;

	start(
		target: { setTitleSuffix(suffix: string): void },
		options: ExtensionDialogOptions | undefined,
		onExpire: () => void,
	): void {
		if (options?.timeout === undefined || options.timeout <= 0) return;
		this.timer = startCountdown(target, options.timeout, () => options.tui?.requestRender(), onExpire);
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}
}

/** `ctx.ui.select()`'s list: `new ExtensionSelectorComponent(title, options, onSelect, onCancel, opts?)`. */
export class ExtensionSelectorComponent extends PanelComponent {
	private readonly countdown: Countdown;

	constructor(
		title: string,
		options: string[],
		onSelect: (option: string) => void,
		onCancel: () => void,
		opts?: ExtensionDialogOptions,
	) {
		const countdown = new Countdown();
		super(
			choicePanel(ownDisplayState(), title, options, {
				onSelect: (option) => {
					countdown.stop();
					onSelect(option);
				},
				onCancel: () => {
					countdown.stop();
					onCancel();
				},
			}),
		);
		this.countdown = countdown;
		countdown.start(this.panel, opts, onCancel);
	}

	dispose(): void {
		this.countdown.stop();
		this.panel.dispose();
	}
}

/** `ctx.ui.input()`'s line: `new ExtensionInputComponent(title, placeholder, onSubmit, onCancel, opts?)`. */
export class ExtensionInputComponent extends InputPanel {
	private readonly countdown: Countdown;

	constructor(
		title: string,
		placeholder: string | undefined,
		onSubmit: (value: string) => void,
		onCancel: () => void,
		opts?: ExtensionDialogOptions,
	) {
		const countdown = new Countdown();
		super(
			ownDisplayState(),
			title,
			placeholder,
			(value) => {
				countdown.stop();
				onSubmit(value);
			},
			() => {
				countdown.stop();
				onCancel();
			},
		);
		this.countdown = countdown;
		countdown.start(this, opts, onCancel);
	}

	dispose(): void {
		this.countdown.stop();
	}
}

/**
 * `ctx.ui.editor()`'s multi-line editor:
 * `new ExtensionEditorComponent(tui, keybindings, title, prefill, onSubmit, onCancel, options?)`. The key bound
 * to `externalEditor` (Ctrl+G) edits the text in $VISUAL / $EDITOR.
 */
export class ExtensionEditorComponent extends EditorPanel {
	constructor(
		private readonly tui: TUI,
		private readonly keybindings: Pick<ExtensionKeybindings, "matches">,
		title: string,
		prefill: string | undefined,
		onSubmit: (value: string) => void,
		onCancel: () => void,
		options?: EditorOptions,
	) {
		super(ownDisplayState(), { tui }, title, prefill ?? "", onSubmit, onCancel, options);
	}

	override handleInput(data: string): void {
		if (this.keybindings.matches(data, "externalEditor")) {
			this.openExternalEditor();
			return;
		}
		super.handleInput(data);
	}

	private openExternalEditor(): void {
		const command = editorCommand(process.env);
		if (!command) return;
		const edited = editWithTuiStopped(this.tui, this.editor.getText(), command);
		if (edited !== undefined) this.editor.setText(edited);
	}
}

interface PendingAnswer {
	input: Input;
	resolve(value: string): void;
	reject(error: Error): void;
}

/**
 * The sign-in dialog of a subscription login: `new LoginDialogComponent(tui, providerId, onComplete)`. The
 * caller runs the provider's login with the dialog's `signal` and routes the login callbacks to `showAuth`,
 * `showPrompt`, `showManualInput`, `showWaiting` and `showProgress`. Esc aborts the signal, rejects a pending
 * answer and reports `onComplete(false, "Login cancelled")`.
 */
export class LoginDialogComponent implements Component {
	private readonly abortController = new AbortController();
	private readonly title: string;
	private lines: string[] = [];
	private pending: PendingAnswer | undefined;
	private isFocused = false;

	constructor(
		private readonly tui: TUI,
		providerId: string,
		private readonly onComplete: (success: boolean, message?: string) => void,
	) {
		this.title = `Login to ${getOAuthProvider(providerId)?.name ?? providerId}`;
	}

	get signal(): AbortSignal {
		return this.abortController.signal;
	}

	get focused(): boolean {
		return this.isFocused;
	}

	set focused(focused: boolean) {
		this.isFocused = focused;
		if (this.pending) this.pending.input.focused = focused;
	}

	/** The page to open (replaces what the dialog showed). */
	showAuth(url: string, instructions?: string): void {
		const { theme } = ownDisplayState();
		this.lines = [theme.fg("accent", url)];
		if (instructions) this.lines.push(theme.fg("warning", instructions));
		this.changed();
	}

	/** Asks for the redirect URL or code when the browser runs elsewhere. */
	showManualInput(prompt: string): Promise<string> {
		return this.ask(prompt);
	}

	/** Asks a question of the login flow, below what the dialog shows. */
	showPrompt(message: string, placeholder?: string): Promise<string> {
		return this.ask(placeholder ? `${message} (${placeholder})` : message);
	}

	/** A flow that waits (a device code): the message and how to cancel. */
	showWaiting(message: string): void {
		const { theme } = ownDisplayState();
		this.lines.push(theme.fg("dim", message), theme.fg("dim", "(Esc to cancel)"));
		this.changed();
	}

	showProgress(message: string): void {
		this.lines.push(ownDisplayState().theme.fg("dim", message));
		this.changed();
	}

	handleInput(data: string): void {
		if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.cancel();
			return;
		}
		const pending = this.pending;
		if (!pending) return;
		if (matchesKey(data, "enter")) {
			this.pending = undefined;
			pending.resolve(pending.input.getValue());
			this.changed();
			return;
		}
		pending.input.handleInput(data);
		this.changed();
	}

	render(width: number): string[] {
		const { theme } = ownDisplayState();
		const rule = theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		const body = [truncateToWidth(` ${theme.bold(this.title)}`, width)];
		for (const line of this.lines) body.push(truncateToWidth(` ${line}`, width));
		if (this.pending) body.push(...this.pending.input.render(width));
		return [rule, ...body, rule];
	}

	invalidate(): void {}

	private ask(prompt: string): Promise<string> {
		this.pending?.reject(new Error(LOGIN_CANCELLED_MESSAGE));
		this.lines.push(prompt);
		const input = new Input();
		input.focused = this.isFocused;
		return new Promise<string>((resolve, reject) => {
			this.pending = { input, resolve, reject };
			this.changed();
		});
	}

	private cancel(): void {
		this.abortController.abort();
		const pending = this.pending;
		this.pending = undefined;
		pending?.reject(new Error(LOGIN_CANCELLED_MESSAGE));
		this.onComplete(false, LOGIN_CANCELLED_MESSAGE);
	}

	private changed(): void {
		this.tui.requestRender();
	}
}

/** An invoked skill, collapsed until `setExpanded(true)`: `new SkillInvocationMessageComponent(skillBlock)`. */
export class SkillInvocationMessageComponent extends SkillBlockComponent {
	private readonly ownState: DisplayState;

	constructor(skillBlock: ParsedSkillBlock, _markdownTheme?: MarkdownTheme) {
		const state = ownDisplayState();
		super(state, skillBlock);
		this.ownState = state;
	}

	setExpanded(expanded: boolean): void {
		this.ownState.toolsExpanded = expanded;
		this.invalidate();
	}
}
