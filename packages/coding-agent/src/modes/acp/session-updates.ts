// The `session/update` notifications a live session produces: one AgentSession event in, the updates an
// editor needs out (message and thought chunks, tool calls with kind, title, locations and results). Holds
// only what the translation needs to remember between events; sending is the caller's job.
import type { AgentMessage } from "@agent/agent-core";
import type { AssistantMessage } from "@agent/ai";
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { AgentSessionEvent } from "../../core/session-runtime/events.js";
import { resolveToCwd } from "../../core/tools/path-utils.js";
import {
	type FileChange,
	firstChangedLineOf,
	toAcpContentBlocks,
	toolKindOf,
	toolLocationsOf,
	toolResultContent,
	toolTitleOf,
} from "./tool-calls.js";

export interface SessionUpdateTranslatorOptions {
	cwd: string;
	/** The recorded before/after of the edit or write of `absolutePath` that just finished, if any. */
	takeFileChange?: (toolName: string, absolutePath: string) => FileChange | undefined;
	/** The client terminal a call's command runs in, if it runs in one. */
	terminalOf?: (toolCallId: string) => string | undefined;
}

/** The announcement of a tool call the model made (status pending until it runs). */
export function toolCallAnnouncement(
	toolCallId: string,
	toolName: string,
	args: Record<string, unknown>,
	cwd: string,
): Extract<SessionUpdate, { sessionUpdate: "tool_call" }> {
	return {
		sessionUpdate: "tool_call",
		toolCallId,
		title: toolTitleOf(toolName, args),
		kind: toolKindOf(toolName),
		status: "pending",
		locations: toolLocationsOf(toolName, args, cwd),
		rawInput: args,
	};
}

/** Text of a user or custom message as content blocks (text and images). */
export function messageContentBlocks(message: AgentMessage): ReturnType<typeof toAcpContentBlocks> {
	return "content" in message ? toAcpContentBlocks(message.content) : [];
}

export class SessionUpdateTranslator {
	/** Calls already announced with `tool_call`; later changes are `tool_call_update`s. */
	private readonly announced = new Set<string>();
	private readonly running = new Map<string, { toolName: string; args: Record<string, unknown> }>();
	private suppressedUserMessages = 0;
	private lastAssistantMessage: AssistantMessage | undefined;

	constructor(private readonly options: SessionUpdateTranslatorOptions) {}

	/**
	 * The next user message is the prompt the client just sent (and shows already): it is not echoed. User
	 * messages that come from elsewhere (extensions, queued messages) are.
	 */
	expectPromptEcho(): void {
		this.suppressedUserMessages = 1;
		this.lastAssistantMessage = undefined;
	}

	/** The prompt is over: a prompt an extension consumed left no message to skip. */
	endPrompt(): void {
		this.suppressedUserMessages = 0;
	}

	/** The last reply the model finished since `expectPromptEcho`. */
	get lastAssistant(): AssistantMessage | undefined {
		return this.lastAssistantMessage;
	}

	/** Tool calls that started and have not finished, oldest first. */
	runningToolCalls(): { toolCallId: string; toolName: string }[] {
		return [...this.running].map(([toolCallId, call]) => ({ toolCallId, toolName: call.toolName }));
	}

	translate(event: AgentSessionEvent): SessionUpdate[] {
		switch (event.type) {
			case "message_update":
				return this.translateStreaming(event.assistantMessageEvent);
			case "message_start":
				return this.translateMessageStart(event.message);
			case "message_end":
				if (event.message.role === "assistant") this.lastAssistantMessage = event.message;
				return [];
			case "tool_execution_start":
				return this.translateToolStart(event.toolCallId, event.toolName, event.args);
			case "tool_execution_update": {
				const content = toAcpContentBlocks(event.partialResult.content);
				if (content.length === 0 || this.options.terminalOf?.(event.toolCallId)) return [];
				return [
					{
						sessionUpdate: "tool_call_update",
						toolCallId: event.toolCallId,
						content: content.map((block) => ({ type: "content", content: block })),
					},
				];
			}
			case "tool_execution_end":
				return this.translateToolEnd(event.toolCallId, event.toolName, event.result, event.isError);
			case "agent_end":
				this.running.clear();
				this.announced.clear();
				return [];
			default:
				return [];
		}
	}

	private translateStreaming(
		event: Extract<AgentSessionEvent, { type: "message_update" }>["assistantMessageEvent"],
	): SessionUpdate[] {
		switch (event.type) {
			case "text_delta":
				return event.delta
					? [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.delta } }]
					: [];
			case "thinking_delta":
				return event.delta
					? [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.delta } }]
					: [];
			case "toolcall_end": {
				const { id, name, arguments: args } = event.toolCall;
				if (this.announced.has(id)) return [];
				this.announced.add(id);
				return [toolCallAnnouncement(id, name, args, this.options.cwd)];
			}
			default:
				return [];
		}
	}

	private translateMessageStart(message: AgentMessage): SessionUpdate[] {
		if (message.role === "user") {
			if (this.suppressedUserMessages > 0) {
				this.suppressedUserMessages--;
				return [];
			}
			return messageContentBlocks(message).map((content) => ({ sessionUpdate: "user_message_chunk", content }));
		}
		if (message.role === "custom" && message.display) {
			return messageContentBlocks(message).map((content) => ({ sessionUpdate: "agent_message_chunk", content }));
		}
		return [];
	}

	private translateToolStart(toolCallId: string, toolName: string, args: Record<string, unknown>): SessionUpdate[] {
		this.running.set(toolCallId, { toolName, args });
		if (!this.announced.has(toolCallId)) {
			this.announced.add(toolCallId);
			return [{ ...toolCallAnnouncement(toolCallId, toolName, args, this.options.cwd), status: "in_progress" }];
		}
		return [{ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" }];
	}

	private translateToolEnd(
		toolCallId: string,
		toolName: string,
		result: { content?: unknown; details?: unknown },
		isError: boolean,
	): SessionUpdate[] {
		const args = this.running.get(toolCallId)?.args ?? {};
		this.running.delete(toolCallId);
		const { cwd } = this.options;
		const path = typeof args.path === "string" ? resolveToCwd(args.path, cwd) : undefined;
		const change =
			!isError && path && (toolName === "edit" || toolName === "write")
				? this.options.takeFileChange?.(toolName, path)
				: undefined;
		const terminalId = this.options.terminalOf?.(toolCallId);
		const content: ToolCallContent[] = terminalId
			? [{ type: "terminal", terminalId }]
			: toolResultContent(toolName, args, { content: result.content, isError }, cwd, change);
		const line = toolName === "edit" ? firstChangedLineOf(result.details) : undefined;
		return [
			{
				sessionUpdate: "tool_call_update",
				toolCallId,
				status: isError ? "failed" : "completed",
				content,
				...(path && line !== undefined ? { locations: [{ path, line }] } : {}),
			},
		];
	}
}
