// `ctx.ui` in ACP mode. An extension's `confirm` and `select` (typically a permission gate on a tool call)
// become `session/request_permission`, so the editor asks the user; `input` and `editor` become a form
// (`elicitation/create`) when the editor offers forms; `notify` becomes a notice or a log line. The
// terminal-only methods are degraded as in RPC mode.
import type { PermissionOption, PermissionOptionKind } from "@agentclientprotocol/sdk";
import {
	createNoopUIContext,
	type DialogOptions,
	type ExtensionUIContext,
	type NotifyType,
} from "../../core/extensions/ui-context.js";

export interface TextRequest {
	title: string;
	placeholder?: string;
	/** Initial text (`editor`'s prefill). */
	prefill?: string;
}

/** How the session asks its editor (implemented by the ACP session). */
export interface AcpDialogs {
	/**
	 * Resolves with the chosen option's id, or undefined when the request was cancelled or dismissed. `toolCallId`
	 * names the tool call the question is about (else: the only running one, or a new one for the question).
	 */
	requestPermission(
		title: string,
		detail: string | undefined,
		options: PermissionOption[],
		signal: AbortSignal | undefined,
		toolCallId?: string,
	): Promise<string | undefined>;
	/** A one-field text form; undefined when the editor has no forms or the user declined. */
	askText(request: TextRequest, signal: AbortSignal | undefined): Promise<string | undefined>;
	notify(message: string, type: NotifyType): void;
}

export const ACP_THEME_UNSUPPORTED_TEXT = "Theme switching not supported in ACP mode";

export const ACP_CUSTOM_UI_UNAVAILABLE_TEXT =
	"An extension requested a custom UI component, which ACP mode cannot show; the extension received no result.";

const ALLOW_OPTION_ID = "allow";
const REJECT_OPTION_ID = "reject";

/** Options whose label reads as a refusal get the reject kind, so the editor styles them as such. */
const REFUSAL = /^(no\b|deny|reject|block|cancel|abort|don't|do not|never|skip)/i;

function optionKind(label: string): PermissionOptionKind {
	if (REFUSAL.test(label.trim())) return /always|never/i.test(label) ? "reject_always" : "reject_once";
	return /always/i.test(label) ? "allow_always" : "allow_once";
}

/** The dialog's own signal, plus its timeout. */
function dialogSignal(opts: DialogOptions | undefined): AbortSignal | undefined {
	const signals: AbortSignal[] = [];
	if (opts?.signal) signals.push(opts.signal);
	if (opts?.timeout !== undefined && opts.timeout > 0) signals.push(AbortSignal.timeout(opts.timeout));
	if (signals.length === 0) return undefined;
	return signals.length === 1 ? signals[0] : AbortSignal.any(signals);
}

export function createAcpUIContext(dialogs: AcpDialogs): ExtensionUIContext {
	const degraded = createNoopUIContext();
	return {
		...degraded,
		select: async (title, options, opts) => {
			const choices = options.map((label, index) => ({
				optionId: `option-${index}`,
				name: label,
				kind: optionKind(label),
			}));
			const chosen = await dialogs.requestPermission(title, undefined, choices, dialogSignal(opts));
			const index = choices.findIndex((choice) => choice.optionId === chosen);
			return index >= 0 ? options[index] : undefined;
		},
		confirm: async (title, message, opts) => {
			const chosen = await dialogs.requestPermission(
				title,
				message,
				[
					{ optionId: ALLOW_OPTION_ID, name: "Yes", kind: "allow_once" },
					{ optionId: REJECT_OPTION_ID, name: "No", kind: "reject_once" },
				],
				dialogSignal(opts),
			);
			return chosen === ALLOW_OPTION_ID;
		},
		input: (title, placeholder, opts) =>
			dialogs.askText({ title, ...(placeholder !== undefined ? { placeholder } : {}) }, dialogSignal(opts)),
		editor: (title, prefill) => dialogs.askText({ title, ...(prefill !== undefined ? { prefill } : {}) }, undefined),
		notify: (message, type) => dialogs.notify(message, type ?? "info"),
		custom: async () => {
			dialogs.notify(ACP_CUSTOM_UI_UNAVAILABLE_TEXT, "warning");
			return undefined;
		},
		setTheme: () => ({ success: false, error: ACP_THEME_UNSUPPORTED_TEXT }),
	};
}
