// Permission questions in ACP mode: `session/request_permission` about the tool call, with the protocol's four
// kinds of answer. "Always" saves the suggested rules (allow or deny) to the project's settings once trusted,
// else the user's.
import type { PermissionOption } from "@agentclientprotocol/sdk";
import {
	ALLOW_ONCE_LABEL,
	alwaysAllowLabel,
	alwaysDenyLabel,
	DENY_LABEL,
	type PermissionPrompt,
} from "../../core/permissions/prompt.js";
import type { AcpDialogs } from "./extension-ui.js";

export function createAcpPermissionPrompt(dialogs: Pick<AcpDialogs, "requestPermission">): PermissionPrompt {
	return async (request, signal) => {
		const rules = request.suggestedRules;
		const options: PermissionOption[] = [{ optionId: "allow_once", name: ALLOW_ONCE_LABEL, kind: "allow_once" }];
		if (rules.length > 0) {
			options.push({
				optionId: "allow_always",
				name: alwaysAllowLabel(rules, request.alwaysScope),
				kind: "allow_always",
			});
		}
		options.push({ optionId: "reject_once", name: DENY_LABEL, kind: "reject_once" });
		if (rules.length > 0) {
			options.push({
				optionId: "reject_always",
				name: alwaysDenyLabel(rules, request.alwaysScope),
				kind: "reject_always",
			});
		}
		const chosen = await dialogs.requestPermission(
			`Permission needed: ${request.summary}`,
			`Why: ${request.reason}`,
			options,
			signal,
			request.toolCallId,
		);
		switch (chosen) {
			case "allow_once":
				return { decision: "allow", scope: "once" };
			case "allow_always":
				return { decision: "allow", scope: "always" };
			case "reject_once":
				return { decision: "deny" };
			case "reject_always":
				return { decision: "deny", scope: "always" };
			default:
				return undefined;
		}
	};
}
