// Small dialogs shown in the editor's place: choose one of several options, yes/no, a line of text, or a
// multi-line text. Each resolves once; a timeout counts down in the title and resolves with the default; an
// abort signal closes it from code.
import {
	CachedComponent,
	type Component,
	Editor,
	type EditorOptions,
	Input,
	matchesKey,
	truncateToWidth,
} from "@agent/tui";
import type { DialogOptions } from "../../../core/extensions/ui-context.js";
import type { DisplayState } from "../display-state.js";
import type { DialogHost } from "../mode-host.js";
import { SelectPanel } from "./select-panel.js";

/** The extension dialog options, and the key hint under a choice (default: how to move, select and cancel). */
export type SelectDialogOptions = DialogOptions & { hint?: string };

export const SELECT_DIALOG_HINT = "↑↓ to move · Enter to select · Esc to cancel";

interface CountdownTarget {
	setTitleSuffix(suffix: string): void;
}

/**
 * Shows the component `build` returns in the editor's place and resolves with the first value passed to
 * `finish` (or `fallback` on timeout / abort).
 */
export function openDialog<T>(
	host: DialogHost,
	build: (finish: (value: T) => void) => Component & Partial<CountdownTarget>,
	fallback: T,
	options: DialogOptions = {},
): Promise<T> {
	if (options.signal?.aborted) return Promise.resolve(fallback);
	return new Promise<T>((resolve) => {
		let done = false;
		let timer: ReturnType<typeof setInterval> | undefined;
		const finish = (value: T) => {
			if (done) return;
			done = true;
			if (timer) clearInterval(timer);
			options.signal?.removeEventListener("abort", onAbort);
			handle.close();
			host.requestRender();
			resolve(value);
		};
		const onAbort = () => finish(fallback);
		const component = build(finish);
		const handle = host.showSelector(component);
		options.signal?.addEventListener("abort", onAbort, { once: true });
		if (options.timeout !== undefined && options.timeout > 0) {
			timer = startCountdown(
				component,
				options.timeout,
				() => host.requestRender(),
				() => finish(fallback),
			);
		}
	});
}

/**
 * Counts `timeout` milliseconds down in the component's title, a second at a time, then calls `onExpire`.
 * Returns the timer; clear it when the dialog closes first.
 */
export function startCountdown(
	component: Partial<CountdownTarget>,
	timeout: number,
	requestRender: () => void,
	onExpire: () => void,
): ReturnType<typeof setInterval> {
	const deadline = Date.now() + timeout;
	let timer: ReturnType<typeof setInterval> | undefined;
	const update = () => {
		const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
		component.setTitleSuffix?.(` (${left}s)`);
		requestRender();
		if (left <= 0) {
			if (timer) clearInterval(timer);
			onExpire();
		}
	};
	timer = setInterval(update, 1000);
	update();
	return timer;
}

export function selectDialog(
	host: DialogHost,
	title: string,
	options: string[],
	dialogOptions: SelectDialogOptions = {},
): Promise<string | undefined> {
	return openDialog<string | undefined>(
		host,
		(finish) =>
			choicePanel(host.state, title, options, {
				hint: dialogOptions.hint,
				onSelect: (option) => finish(option),
				onCancel: () => finish(undefined),
			}),
		undefined,
		dialogOptions,
	);
}

/** The panel of `ctx.ui.select()`: the options as they are, searchable when there are more than eight. */
export function choicePanel(
	state: DisplayState,
	title: string,
	options: readonly string[],
	on: { hint?: string | undefined; onSelect(option: string): void; onCancel(): void },
): SelectPanel {
	return new SelectPanel(state, {
		title,
		items: options.map((option) => ({ value: option, label: option })),
		filterable: options.length > 8,
		hint: `${options.length > 8 ? "Type to search · " : ""}${on.hint ?? SELECT_DIALOG_HINT}`,
		onSelect: (item) => on.onSelect(item.value),
		onCancel: () => on.onCancel(),
	});
}

export async function confirmDialog(
	host: DialogHost,
	title: string,
	message: string,
	dialogOptions: DialogOptions = {},
): Promise<boolean> {
	const heading = message ? `${title}\n${message}` : title;
	const answer = await openDialog<boolean>(
		host,
		(finish) =>
			new SelectPanel(host.state, {
				title: heading.replace(/\n/g, " — "),
				items: [
					{ value: "yes", label: "Yes" },
					{ value: "no", label: "No" },
				],
				filterable: false,
				onSelect: (item) => finish(item.value === "yes"),
				onCancel: () => finish(false),
			}),
		false,
		dialogOptions,
	);
	return answer;
}

/** A titled one-line input. */
export class InputPanel extends CachedComponent {
	readonly input = new Input();
	private titleSuffix = "";

	constructor(
		private readonly state: DisplayState,
		private readonly title: string,
		private readonly placeholder: string | undefined,
		onSubmit: (value: string) => void,
		onCancel: () => void,
		initialValue = "",
	) {
		super();
		if (initialValue) this.input.setValue(initialValue);
		this.input.onSubmit = onSubmit;
		this.input.onEscape = onCancel;
		this.input.addChangeListener(() => this.markChanged());
	}

	set focused(focused: boolean) {
		this.input.focused = focused;
	}

	get focused(): boolean {
		return this.input.focused;
	}

	setTitleSuffix(suffix: string): void {
		this.titleSuffix = suffix;
		this.markChanged();
	}

	handleInput(data: string): void {
		if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.input.onEscape?.();
			return;
		}
		this.input.handleInput(data);
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		const rule = theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		const lines = [rule, truncateToWidth(` ${theme.bold(this.title)}${theme.fg("muted", this.titleSuffix)}`, width)];
		if (this.placeholder && this.input.getValue() === "") {
			lines.push(truncateToWidth(theme.fg("dim", ` ${this.placeholder}`), width));
		}
		lines.push(...this.input.render(width));
		lines.push(truncateToWidth(theme.fg("dim", " Enter to submit · Esc to cancel"), width));
		lines.push(rule);
		return lines;
	}
}

export function inputDialog(
	host: DialogHost,
	title: string,
	placeholder?: string,
	dialogOptions: DialogOptions & { initialValue?: string } = {},
): Promise<string | undefined> {
	return openDialog<string | undefined>(
		host,
		(finish) =>
			new InputPanel(
				host.state,
				title,
				placeholder,
				(value) => finish(value),
				() => finish(undefined),
				dialogOptions.initialValue,
			),
		undefined,
		dialogOptions,
	);
}

/** A titled multi-line editor: Enter submits, Shift+Enter adds a line, Esc cancels. */
export class EditorPanel extends CachedComponent {
	readonly editor: Editor;
	private titleSuffix = "";

	constructor(
		private readonly state: DisplayState,
		host: Pick<DialogHost, "tui">,
		private readonly title: string,
		prefill: string,
		onSubmit: (value: string) => void,
		private readonly onCancel: () => void,
		editorOptions: EditorOptions = {},
	) {
		super();
		this.editor = new Editor(host.tui, state.theme.getEditorTheme(), editorOptions);
		if (prefill) this.editor.setText(prefill);
		this.editor.onSubmit = onSubmit;
		this.editor.addChangeListener(() => this.markChanged());
	}

	set focused(focused: boolean) {
		this.editor.focused = focused;
	}

	get focused(): boolean {
		return this.editor.focused;
	}

	setTitleSuffix(suffix: string): void {
		this.titleSuffix = suffix;
		this.markChanged();
	}

	handleInput(data: string): void {
		if (matchesKey(data, "escape") && !this.editor.isShowingAutocomplete()) {
			this.onCancel();
			return;
		}
		this.editor.handleInput(data);
		this.markChanged();
	}

	override render(width: number): string[] {
		// The editor's height follows the terminal's; render it every time (the panel is short-lived).
		this.clearCache();
		return super.render(width);
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		return [
			truncateToWidth(` ${theme.bold(this.title)}${theme.fg("muted", this.titleSuffix)}`, width),
			...this.editor.render(width),
			truncateToWidth(theme.fg("dim", " Enter to submit · Shift+Enter for a new line · Esc to cancel"), width),
		];
	}
}

export function editorDialog(
	host: DialogHost,
	title: string,
	prefill = "",
	dialogOptions: DialogOptions = {},
): Promise<string | undefined> {
	return openDialog<string | undefined>(
		host,
		(finish) =>
			new EditorPanel(
				host.state,
				host,
				title,
				prefill,
				(value) => finish(value),
				() => finish(undefined),
			),
		undefined,
		dialogOptions,
	);
}
