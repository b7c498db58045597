// What the model and the user are told about permission decisions. Model-facing texts are part of the product:
// each says what happened and what to do instead of trying again.
import type { PermissionMode } from "./modes.js";

export function deniedByRuleText(subject: string, rule: string, source: string): string {
	return `Permission denied: ${subject} is refused by the deny rule ${rule} (${source}). It was not run. Do not try to get around the rule; if it is needed, tell the user why.`;
}

export function refusedByModeText(detail: string): string {
	return `Permission denied: ${detail}. It was not run. Finish the plan and present it; the user leaves plan mode to carry it out.`;
}

export function deniedByUserText(reason: string | undefined): string {
	const trimmed = reason?.trim();
	return trimmed
		? `The user denied this call; it was not run. The user's reason: ${trimmed}`
		: "The user denied this call; it was not run. Ask the user how to proceed if it is needed.";
}

export const DISMISSED_TEXT =
	"The user dismissed the permission question; the call was not run. Ask the user how to proceed if it is needed.";

export function noOneToAskText(reason: string, suggestedRule: string | undefined): string {
	const how = suggestedRule
		? ` The user can allow it with --allow '${suggestedRule}' or in the "permissions" settings.`
		: ` The user can allow it in the "permissions" settings.`;
	return `This call needs the user's permission (${reason}), and no one can answer here, so it was not run.${how}`;
}

export function checkFailedText(message: string): string {
	return `Permission denied: the permission check failed (${message}), so the call was not run.`;
}

/** The stderr line of print and JSON mode for a call that would have asked. */
export function unansweredNoticeText(summary: string, reason: string, suggestedRule: string | undefined): string {
	const how = suggestedRule ? ` Allow it with --allow '${suggestedRule}'.` : "";
	return `Permission needed for ${summary} (${reason}): refused, as no one can answer here.${how}`;
}

export function modeChangedText(mode: PermissionMode, name: string): string {
	return `Permission mode: ${name} (${mode})`;
}
