// The editor side of `ctx.ui` dialogs for one session: permission requests tied to the tool call they are
// about, text forms, notices.
import type {
	AgentContext,
	ClientCapabilities,
	PermissionOption,
	SessionUpdate,
	ToolCallUpdate,
} from "@agentclientprotocol/sdk";
import type { NotifyType } from "../../core/extensions/ui-context.js";
import type { AcpDialogs, TextRequest } from "./extension-ui.js";

export interface EditorDialogsOptions {
	sessionId: string;
	client: AgentContext;
	capabilities: ClientCapabilities;
	send: (update: SessionUpdate) => void;
	/** Tool calls that started and have not finished. */
	runningToolCalls: () => { toolCallId: string }[];
	log: (line: string) => void;
}

const ALLOWING: ReadonlySet<PermissionOption["kind"]> = new Set(["allow_once", "allow_always"]);

export function createEditorDialogs(options: EditorDialogsOptions): AcpDialogs {
	const { sessionId, client, capabilities, send, log } = options;
	let questions = 0;

	return {
		async requestPermission(title, detail, permissionOptions, signal) {
			const running = options.runningToolCalls();
			// A question asked while exactly one tool call runs is about that call (a permission gate in a
			// `tool_call` handler); any other gets a tool call of its own, so the editor has something to show.
			const about = running.length === 1 ? running[0]?.toolCallId : undefined;
			const toolCallId = about ?? `question-${++questions}`;
			const text = detail ? `${title}\n\n${detail}` : title;
			const toolCall: ToolCallUpdate = about
				? { toolCallId, content: [{ type: "content", content: { type: "text", text } }] }
				: { toolCallId, title, kind: "other", status: "pending" };
			if (!about) {
				send({
					sessionUpdate: "tool_call",
					toolCallId,
					title,
					kind: "other",
					status: "pending",
					...(detail ? { content: [{ type: "content", content: { type: "text", text: detail } }] } : {}),
				});
			}
			let chosen: string | undefined;
			try {
				const response = await client.request(
					"session/request_permission",
					{ sessionId, toolCall, options: permissionOptions },
					signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : undefined,
				);
				chosen = response.outcome.outcome === "selected" ? response.outcome.optionId : undefined;
			} catch (error) {
				if (!signal?.aborted)
					log(`Permission request failed: ${error instanceof Error ? error.message : String(error)}`);
			}
			if (!about) {
				const option = permissionOptions.find((candidate) => candidate.optionId === chosen);
				send({
					sessionUpdate: "tool_call_update",
					toolCallId,
					status: option && ALLOWING.has(option.kind) ? "completed" : "failed",
					...(option ? { content: [{ type: "content", content: { type: "text", text: option.name } }] } : {}),
				});
			}
			return chosen;
		},

		async askText(request: TextRequest, signal) {
			if (!capabilities.elicitation?.form) return undefined;
			try {
				const response = await client.request(
					"elicitation/create",
					{
						mode: "form",
						sessionId,
						message: request.title,
						requestedSchema: {
							type: "object",
							properties: {
								value: {
									type: "string",
									title: request.title,
									...(request.placeholder !== undefined ? { description: request.placeholder } : {}),
									...(request.prefill !== undefined ? { default: request.prefill } : {}),
								},
							},
							required: ["value"],
						},
					},
					signal ? { cancellationSignal: signal, stopWaitingOnCancel: true } : undefined,
				);
				if (response.action !== "accept" || !("content" in response)) return undefined;
				const value = (response.content as Record<string, unknown> | null | undefined)?.value;
				return typeof value === "string" ? value : undefined;
			} catch (error) {
				if (!signal?.aborted) log(`Form request failed: ${error instanceof Error ? error.message : String(error)}`);
				return undefined;
			}
		},

		notify(message: string, type: NotifyType) {
			if (capabilities.session?.notices) send({ sessionUpdate: "notice", severity: type, title: message });
			else log(`[${type}] ${message}`);
		},
	};
}
