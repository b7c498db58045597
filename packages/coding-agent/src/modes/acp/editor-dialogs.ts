// The editor side of `ctx.ui` dialogs for one session: permission requests tied to the tool call they are
// about, text forms, notices.
import {
	type AgentContext,
	type ClientCapabilities,
	type PermissionOption,
	RequestError,
	type SessionUpdate,
	type ToolCallUpdate,
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

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A question withdrawn by us (timeout, cancel) is a dismissal, not a failure worth logging. */
function isWithdrawn(error: unknown): boolean {
	return error instanceof RequestError && error.code === REQUEST_CANCELLED;
}

const REQUEST_CANCELLED = -32800;

const ALLOWING: ReadonlySet<PermissionOption["kind"]> = new Set(["allow_once", "allow_always"]);

/** The session's dialogs, and a way to withdraw every open question (on `session/cancel`). */
export interface EditorDialogs extends AcpDialogs {
	/** Open questions are withdrawn (`$/cancel_request`) and resolve as dismissed. */
	withdrawAll(): void;
}

export function createEditorDialogs(options: EditorDialogsOptions): EditorDialogs {
	const { sessionId, client, capabilities, send, log } = options;
	let questions = 0;
	let withdrawal = new AbortController();
	/** The dialog's own signal (timeout, extension abort) or a withdrawal, whichever comes first. */
	const requestOptions = (signal: AbortSignal | undefined) => ({
		cancellationSignal: signal ? AbortSignal.any([signal, withdrawal.signal]) : withdrawal.signal,
		stopWaitingOnCancel: true,
	});

	return {
		withdrawAll() {
			withdrawal.abort();
			withdrawal = new AbortController();
		},

		async requestPermission(title, detail, permissionOptions, signal, aboutCall) {
			const running = options.runningToolCalls();
			// A question asked while exactly one tool call runs is about that call (a permission gate in a
			// `tool_call` handler); any other gets a tool call of its own, so the editor has something to show.
			const about = aboutCall ?? (running.length === 1 ? running[0]?.toolCallId : undefined);
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
					requestOptions(signal),
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
					requestOptions(signal),
				);
				if (response.action !== "accept" || !("content" in response)) return undefined;
				const value = (response.content as Record<string, unknown> | null | undefined)?.value;
				return typeof value === "string" ? value : undefined;
			} catch (error) {
				if (!isWithdrawn(error)) log(`Form request failed: ${errorText(error)}`);
				return undefined;
			}
		},

		notify(message: string, type: NotifyType) {
			if (capabilities.session?.notices) send({ sessionUpdate: "notice", severity: type, title: message });
			else log(`[${type}] ${message}`);
		},
	};
}
