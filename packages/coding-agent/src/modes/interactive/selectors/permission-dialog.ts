// The terminal UI's permission question, in the editor's place: the call (a command in full), why it asks, and
// the choices: allow once, for this session, always (saved), deny, deny with a reason for the model. Arrows and
// Enter, or the choice's number; Esc denies.
import { CachedComponent, matchesKey, SelectList, truncateToWidth } from "@agent/tui";
import {
	DENY_REASON_TITLE,
	type PermissionAnswer,
	type PermissionChoice,
	type PermissionRequest,
	permissionChoices,
} from "../../../core/permissions/prompt.js";
import type { DisplayState } from "../display-state.js";
import type { DialogHost } from "../mode-host.js";
import { inputDialog, openDialog } from "./dialogs.js";

export const PERMISSION_DIALOG_TITLE = "Permission needed";
const MAX_COMMAND_LINES = 12;

/** The lines that show what the call does. */
function callLines(request: PermissionRequest): string[] {
	const command = request.args.command;
	if (request.toolName === "bash" && typeof command === "string") {
		const lines = command.split("\n");
		const shown = lines.slice(0, MAX_COMMAND_LINES).map((line) => `$ ${line}`);
		if (lines.length > MAX_COMMAND_LINES) shown.push(`  … ${lines.length - MAX_COMMAND_LINES} more lines`);
		return shown;
	}
	return [request.summary];
}

export class PermissionPanel extends CachedComponent {
	private readonly list: SelectList;
	private titleSuffix = "";
	private readonly unsubscribe: () => void;

	constructor(
		private readonly state: DisplayState,
		private readonly request: PermissionRequest,
		private readonly choices: PermissionChoice[],
		private readonly onChoose: (choice: PermissionChoice) => void,
		onCancel: () => void,
	) {
		super();
		this.list = new SelectList(
			choices.map((choice, index) => ({ value: String(index), label: `${index + 1}. ${choice.label}` })),
			choices.length,
			state.theme.getSelectListTheme(),
		);
		this.list.onSelect = (item) => onChoose(choices[Number(item.value)] as PermissionChoice);
		this.list.onCancel = onCancel;
		this.unsubscribe = this.list.addChangeListener(() => this.markChanged());
	}

	setTitleSuffix(suffix: string): void {
		this.titleSuffix = suffix;
		this.markChanged();
	}

	dispose(): void {
		this.unsubscribe();
	}

	handleInput(data: string): void {
		const digit = /^[1-9]$/.test(data) ? Number(data) : undefined;
		if (digit !== undefined && digit <= this.choices.length) {
			this.onChoose(this.choices[digit - 1] as PermissionChoice);
			return;
		}
		if (matchesKey(data, "escape")) {
			this.list.onCancel?.();
			return;
		}
		this.list.handleInput(data);
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		const rule = theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		const lines = [
			rule,
			truncateToWidth(
				` ${theme.bold(theme.fg("warning", PERMISSION_DIALOG_TITLE))}${theme.fg("muted", this.titleSuffix)}`,
				width,
			),
			...callLines(this.request).map((line) => truncateToWidth(` ${theme.fg("toolTitle", line)}`, width)),
			truncateToWidth(theme.fg("muted", ` Why: ${this.request.reason}`), width),
			...this.list.render(width),
			truncateToWidth(theme.fg("dim", " ↑↓ Enter or 1-9 to choose · Esc to deny"), width),
			rule,
		];
		return lines;
	}
}

/** Asks in the terminal; undefined when dismissed (Esc, or the run was aborted). */
export async function askPermissionInTerminal(
	host: DialogHost,
	request: PermissionRequest,
	signal: AbortSignal | undefined,
): Promise<PermissionAnswer | undefined> {
	const choices = permissionChoices(request);
	const chosen = await openDialog<PermissionChoice | undefined>(
		host,
		(finish) =>
			new PermissionPanel(
				host.state,
				request,
				choices,
				(choice) => finish(choice),
				() => finish(undefined),
			),
		undefined,
		signal ? { signal } : {},
	);
	if (!chosen) return undefined;
	if (chosen.answer !== "deny-with-reason") return chosen.answer;
	const reason = await inputDialog(
		host,
		DENY_REASON_TITLE,
		"Enter to send · Esc to deny without a reason",
		signal ? { signal } : {},
	);
	return reason?.trim() ? { decision: "deny", reason: reason.trim() } : { decision: "deny" };
}
