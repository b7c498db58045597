import type { AssistantMessage, Message } from "@agent/ai";

function countToolCalls(message: AssistantMessage): number {
	let count = 0;
	for (const block of message.content) if (block.type === "toolCall") count++;
	return count;
}

function hasToolCall(message: AssistantMessage, id: string): boolean {
	return message.content.some((block) => block.type === "toolCall" && block.id === id);
}

/**
 * Whether `transformMessages` would have to repair this history before a provider accepts it: a failed
 * (error/aborted) assistant turn to drop, a tool call without a result before the next turn, or a result
 * that answers no pending call (or answers one twice). Allocation-free, so the loop can check before every
 * call and pay for the rewrite only when something is wrong; the rules are those of `transformMessages`'s pairing pass (@agent/ai).
 */
export function needsPairingRepair(messages: readonly Message[]): boolean {
	let turn: AssistantMessage | undefined;
	let expected = 0;
	let answered = 0;
	for (let index = 0; index < messages.length; index++) {
		const message = messages[index];
		if (message.role === "toolResult") {
			if (!turn || answered >= expected || !hasToolCall(turn, message.toolCallId)) return true;
			// The results of a turn follow it directly, so the earlier ones are the `answered` messages before.
			for (let back = 1; back <= answered; back++) {
				if ((messages[index - back] as { toolCallId?: string }).toolCallId === message.toolCallId) return true;
			}
			answered++;
			continue;
		}
		if (answered < expected) return true;
		if (message.role === "assistant") {
			if (message.stopReason === "error" || message.stopReason === "aborted") return true;
			turn = message;
			expected = countToolCalls(message);
		} else {
			turn = undefined;
			expected = 0;
		}
		answered = 0;
	}
	// A history ending with some of the last turn's results but not all gets the missing ones filled in.
	return answered > 0 && answered < expected;
}
