import type { AssistantMessage, Message } from "@agent/ai";

function countToolCalls(message: AssistantMessage): number {
	let count = 0;
	for (const block of message.content) if (block.type === "toolCall") count++;
	return count;
}

function hasToolCall(message: AssistantMessage, id: string): boolean {
	return message.content.some((block) => block.type === "toolCall" && block.id === id);
}

/** Where a scan of a well-formed history stopped: the latest turn, its calls, and how many results followed. */
interface ScanState {
	turn: AssistantMessage | undefined;
	expected: number;
	answered: number;
}

/**
 * The messages a scan found well-formed and its state after them, kept per conversation (by its first
 * message) so the next call, whose history starts with the same messages, only scans what was added.
 * `length` is taken at the scan: a caller may grow the same array before the next call.
 */
interface Checkpoint extends ScanState {
	messages: readonly Message[];
	length: number;
}
const checkpoints = new WeakMap<Message, Checkpoint>();

/** Whether `messages` starts with the checkpoint's messages, the same objects. */
function extendsCheckpoint(messages: readonly Message[], checkpoint: Checkpoint): boolean {
	const previous = checkpoint.messages;
	if (checkpoint.length > messages.length || previous.length < checkpoint.length) return false;
	for (let index = 0; index < checkpoint.length; index++) if (previous[index] !== messages[index]) return false;
	return true;
}

/**
 * Whether `transformMessages` would have to repair this history before a provider accepts it: a failed
 * (error/aborted) assistant turn to drop, a tool call without a result before the next turn, or a result
 * that answers no pending call (or answers one twice). Allocation-free, so the loop can check before every
 * call and pay for the rewrite only when something is wrong; the rules are those of `transformMessages`'s pairing pass (@agent/ai).
 * A history in a new array that extends the previous call's (the same message objects, more at the end) is only
 * scanned from where that one ended.
 */
export function needsPairingRepair(messages: readonly Message[]): boolean {
	if (messages.length === 0) return false;
	const checkpoint = checkpoints.get(messages[0]);
	// The same array again may have been edited anywhere since (not only grown): scanned whole.
	const resume =
		checkpoint && checkpoint.messages !== messages && extendsCheckpoint(messages, checkpoint)
			? checkpoint
			: undefined;
	const state: ScanState = resume
		? { turn: resume.turn, expected: resume.expected, answered: resume.answered }
		: { turn: undefined, expected: 0, answered: 0 };
	if (scanNeedsRepair(messages, resume?.length ?? 0, state)) return true;
	checkpoints.set(messages[0], { messages, length: messages.length, ...state });
	// A history ending with some of the last turn's results but not all gets the missing ones filled in.
	return state.answered > 0 && state.answered < state.expected;
}

/** Scans from `start`, updating `state`; true at the first message that needs a repair. */
function scanNeedsRepair(messages: readonly Message[], start: number, state: ScanState): boolean {
	let { turn, expected, answered } = state;
	for (let index = start; index < messages.length; index++) {
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
	state.turn = turn;
	state.expected = expected;
	state.answered = answered;
	return false;
}
