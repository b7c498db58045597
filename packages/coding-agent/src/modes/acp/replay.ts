// `session/load`: the stored conversation of the current branch, from the first entry (compacted parts
// included: the user sees the whole conversation, not the model's summary of it), as the updates a live
// session would have sent. Pure.
import type { AgentMessage } from "@agent/agent-core";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { SessionEntry } from "../../core/session/entries.js";
import { resolveToCwd } from "../../core/tools/path-utils.js";
import { messageContentBlocks, toolCallAnnouncement } from "./session-updates.js";
import { firstChangedLineOf, toolResultContent } from "./tool-calls.js";

type ToolCalls = Map<string, { name: string; args: Record<string, unknown> }>;

function fenced(text: string): string {
	const fence = text.includes("```") ? "~~~~" : "```";
	return `${fence}\n${text}\n${fence}`;
}

function replayMessage(message: AgentMessage, cwd: string, toolCalls: ToolCalls): SessionUpdate[] {
	switch (message.role) {
		case "user":
			return messageContentBlocks(message).map((content) => ({ sessionUpdate: "user_message_chunk", content }));
		case "assistant": {
			const updates: SessionUpdate[] = [];
			for (const block of message.content) {
				if (block.type === "thinking" && !block.redacted && block.thinking) {
					updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: block.thinking } });
				} else if (block.type === "text" && block.text) {
					updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: block.text } });
				} else if (block.type === "toolCall") {
					toolCalls.set(block.id, { name: block.name, args: block.arguments });
					updates.push(toolCallAnnouncement(block.id, block.name, block.arguments, cwd));
				}
			}
			return updates;
		}
		case "toolResult": {
			const call = toolCalls.get(message.toolCallId);
			const args = call?.args ?? {};
			const path = typeof args.path === "string" ? resolveToCwd(args.path, cwd) : undefined;
			const line = message.toolName === "edit" ? firstChangedLineOf(message.details) : undefined;
			return [
				{
					sessionUpdate: "tool_call_update",
					toolCallId: message.toolCallId,
					status: message.isError ? "failed" : "completed",
					content: toolResultContent(message.toolName, args, message, cwd, undefined),
					...(path && line !== undefined ? { locations: [{ path, line }] } : {}),
				},
			];
		}
		case "bashExecution":
			return [
				{ sessionUpdate: "user_message_chunk", content: { type: "text", text: `!${message.command}` } },
				{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: fenced(message.output) } },
			];
		case "custom":
			return message.display
				? messageContentBlocks(message).map((content) => ({ sessionUpdate: "agent_message_chunk", content }))
				: [];
		default:
			return [];
	}
}

/** Updates for the branch's entries, root first. Entries that are not conversation (labels, models…) add none. */
export function replayBranch(branch: readonly SessionEntry[], cwd: string): SessionUpdate[] {
	const toolCalls: ToolCalls = new Map();
	const updates: SessionUpdate[] = [];
	for (const entry of branch) {
		if (entry.type === "message") updates.push(...replayMessage(entry.message, cwd, toolCalls));
		else if (entry.type === "custom_message" && entry.display) {
			const blocks = messageContentBlocks({
				role: "custom",
				customType: entry.customType,
				content: entry.content,
				display: true,
				timestamp: 0,
			});
			updates.push(...blocks.map((content): SessionUpdate => ({ sessionUpdate: "agent_message_chunk", content })));
		}
	}
	return updates;
}
