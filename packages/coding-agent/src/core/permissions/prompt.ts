// Asking the user about a call: what a mode must implement (the terminal UI's dialog, RPC's extension-UI
// `select`, ACP's `session/request_permission`), and the option list every select-style question uses.

export interface PermissionRequest {
	toolCallId: string;
	toolName: string;
	args: Record<string, unknown>;
	/** What the call does, on one line: `bash: git push origin main`, `edit ./src/a.ts`. */
	summary: string;
	/** Why it asks: `ask rule Bash(git push:*) (project settings)`, `ask mode asks before files change`. */
	reason: string;
	/** What "for this session" and "always" add; empty when no rule can be written (then only once or deny). */
	suggestedRules: string[];
	/** Where "always" saves: the project's settings (trusted project) or the user's. */
	alwaysScope: "project" | "user";
}

export type PermissionAnswer =
	| { decision: "allow"; scope: "once" | "session" | "always" }
	/** `always` saves the suggested rules as deny rules (ACP's reject_always). */
	| { decision: "deny"; reason?: string; scope?: "once" | "always" };

/** Resolves undefined when the question was dismissed (Esc, cancelled, the run aborted): a denial. */
export type PermissionPrompt = (
	request: PermissionRequest,
	signal: AbortSignal | undefined,
) => Promise<PermissionAnswer | undefined>;

export const ALLOW_ONCE_LABEL = "Allow once";
export const DENY_LABEL = "Deny";
export const DENY_WITH_REASON_LABEL = "Deny with a reason…";
export const DENY_REASON_TITLE = "Why not? (sent to the model)";

export function settingsScopeName(scope: "project" | "user"): string {
	return scope === "project" ? "project settings" : "user settings";
}

export function allowForSessionLabel(rules: readonly string[]): string {
	return `Allow for this session: ${rules.join(", ")}`;
}

export function alwaysAllowLabel(rules: readonly string[], scope: "project" | "user"): string {
	return `Always allow: ${rules.join(", ")} (saved in ${settingsScopeName(scope)})`;
}

export function alwaysDenyLabel(rules: readonly string[], scope: "project" | "user"): string {
	return `Always deny: ${rules.join(", ")} (saved in ${settingsScopeName(scope)})`;
}

export interface PermissionChoice {
	label: string;
	answer: PermissionAnswer | "deny-with-reason";
}

/** The choices of a select-style question, in the order shown. */
export function permissionChoices(request: PermissionRequest): PermissionChoice[] {
	const choices: PermissionChoice[] = [{ label: ALLOW_ONCE_LABEL, answer: { decision: "allow", scope: "once" } }];
	if (request.suggestedRules.length > 0) {
		choices.push(
			{ label: allowForSessionLabel(request.suggestedRules), answer: { decision: "allow", scope: "session" } },
			{
				label: alwaysAllowLabel(request.suggestedRules, request.alwaysScope),
				answer: { decision: "allow", scope: "always" },
			},
		);
	}
	choices.push(
		{ label: DENY_LABEL, answer: { decision: "deny" } },
		{ label: DENY_WITH_REASON_LABEL, answer: "deny-with-reason" },
	);
	return choices;
}

/** The question's title: the call, then why it asks. */
export function permissionTitle(request: PermissionRequest): string {
	return `Permission needed: ${request.summary}\n${capitalize(request.reason)}`;
}

function capitalize(text: string): string {
	return text.length === 0 ? text : text[0]?.toUpperCase() + text.slice(1);
}

/** The dialogs a select-style question needs (an `ExtensionUIContext` has them). */
export interface SelectDialogs {
	select(title: string, options: string[], opts?: { signal?: AbortSignal }): Promise<string | undefined>;
	input(title: string, placeholder?: string, opts?: { signal?: AbortSignal }): Promise<string | undefined>;
}

/** Asks with `select` (and `input` for a reason): RPC's extension-UI requests, or any `ctx.ui`. */
export function createSelectPermissionPrompt(dialogs: SelectDialogs): PermissionPrompt {
	return async (request, signal) => {
		const choices = permissionChoices(request);
		const label = await dialogs.select(
			permissionTitle(request),
			choices.map((choice) => choice.label),
			signal ? { signal } : {},
		);
		const chosen = choices.find((choice) => choice.label === label);
		if (!chosen) return undefined;
		if (chosen.answer !== "deny-with-reason") return chosen.answer;
		const reason = await dialogs.input(DENY_REASON_TITLE, undefined, signal ? { signal } : {});
		return reason?.trim() ? { decision: "deny", reason: reason.trim() } : { decision: "deny" };
	};
}
