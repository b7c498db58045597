// Cross-provider handoff: rewrites a history so it can be replayed to `targetModel`,
// whichever provider, API or model produced each assistant turn. Providers call this before converting.
import type {
	AssistantMessage,
	Message,
	Model,
	TextContent,
	ThinkingContent,
	ToolCall,
	ToolResultMessage,
} from "../types.js";

/**
 * Maps a tool-call id from another model to one the target API accepts. `source` is the assistant
 * message the call came from. Return the id unchanged when it is already acceptable.
 */
export type ToolCallIdNormalizer = (id: string, targetModel: Model, source: AssistantMessage) => string;

/** Text of the result synthesised for a tool call that never got one. */
export const MISSING_TOOL_RESULT_TEXT = "No result provided";

type AssistantBlock = AssistantMessage["content"][number];

/**
 * Returns a new history for `targetModel`. The input messages are never mutated: changed messages are
 * new objects, unchanged user and tool-result messages are passed through as the same objects.
 */
export function transformMessages(
	messages: Message[],
	targetModel: Model,
	normalizeToolCallId?: ToolCallIdNormalizer,
): Message[] {
	return repairToolCallPairing(adaptToTargetModel(messages, targetModel, normalizeToolCallId));
}

function isSameModel(message: AssistantMessage, model: Model): boolean {
	return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

function isFailedTurn(message: Message): boolean {
	return message.role === "assistant" && (message.stopReason === "error" || message.stopReason === "aborted");
}

// Pass 1: per-message rewrite of thinking, text signatures and tool-call ids.
function adaptToTargetModel(
	messages: Message[],
	targetModel: Model,
	normalizeToolCallId: ToolCallIdNormalizer | undefined,
): Message[] {
	// Renamed ids of the most recent replayable assistant turn: its results follow it. Scoped per turn so
	// an id reused by a later same-model turn is not renamed by an earlier turn's mapping. Failed turns
	// (removed in pass 2) do not open a new scope, so results after them still find the earlier mapping.
	let renamedIds = new Map<string, string>();
	return messages.map((message): Message => {
		if (message.role === "user") return message;
		if (message.role === "toolResult") {
			const renamed = renamedIds.get(message.toolCallId);
			return renamed === undefined ? message : { ...message, toolCallId: renamed };
		}
		const sameModel = isSameModel(message, targetModel);
		const turnIds = new Map<string, string>();
		const content: AssistantBlock[] = [];
		for (const block of message.content) {
			const adapted = adaptBlock(block, sameModel);
			if (!adapted) continue;
			if (adapted.type === "toolCall" && !sameModel && normalizeToolCallId) {
				const normalizedId = normalizeToolCallId(adapted.id, targetModel, message);
				if (normalizedId !== adapted.id) {
					turnIds.set(adapted.id, normalizedId);
					adapted.id = normalizedId;
				}
			}
			content.push(adapted);
		}
		if (!isFailedTurn(message)) renamedIds = turnIds;
		else for (const [from, to] of turnIds) renamedIds.set(from, to);
		return { ...message, content };
	});
}

/** The block as the target model should see it (a fresh object), or undefined to drop it. */
function adaptBlock(block: AssistantBlock, sameModel: boolean): AssistantBlock | undefined {
	if (block.type === "thinking") return adaptThinking(block, sameModel);
	if (block.type === "text") return sameModel ? { ...block } : ({ type: "text", text: block.text } as TextContent);
	if (sameModel) return { ...block };
	const { thoughtSignature: _foreignSignature, ...call } = block;
	return call satisfies ToolCall;
}

function adaptThinking(block: ThinkingContent, sameModel: boolean): ThinkingContent | TextContent | undefined {
	// Redacted thinking is an encrypted payload only the producing model can read.
	if (block.redacted) return sameModel ? { ...block } : undefined;
	// Signed reasoning may legitimately have empty text (encrypted reasoning); the signature is what counts.
	if (sameModel && block.thinkingSignature) return { ...block };
	if (block.thinking.trim() === "") return undefined;
	if (sameModel) return { ...block };
	// Another model's reasoning is replayed as plain text, without <thinking> tags or signatures.
	return { type: "text", text: block.thinking };
}

// Pass 2: drop failed turns and make tool calls and their results pair up exactly.
//
// Every provider rejects a history in which a tool call has no result before the next turn, or a result
// refers to no call. So:
// - A call without a result gets a synthetic error result, inserted right before the next replayed
//   assistant or user message (failed turns are removed, so they do not count as "next").
// - Assistant turns that ended in `error` or `aborted` are removed entirely. The reference keeps the
//   tool results that follow such a turn, which then refer to a call that no longer exists and make every
//   provider reject the history ("orphaned tool calls"). Ours drops every result that does not answer a
//   pending call of the latest replayed assistant turn: results of removed turns, results arriving after
//   a later user message, and second results for the same call.
// - Reference quirk kept: when the history *ends* with the assistant turn itself, its calls get no
//   synthetic results (the agent loop only calls a provider when the last message is a user or tool
//   result, so such a list is never sent as is). Ours differs in one case: when the history ends with
//   some of the turn's results but not all, the missing ones are filled in, since the request would
//   otherwise be rejected.
function repairToolCallPairing(messages: Message[]): Message[] {
	const repaired: Message[] = [];
	let pendingCalls: ToolCall[] = [];
	let answeredIds = new Set<string>();

	const fillMissingResults = () => {
		for (const call of pendingCalls) {
			if (!answeredIds.has(call.id)) repaired.push(missingResult(call));
		}
		pendingCalls = [];
		answeredIds = new Set();
	};

	for (const message of messages) {
		if (message.role === "assistant") {
			if (isFailedTurn(message)) continue;
			fillMissingResults();
			pendingCalls = message.content.filter((block): block is ToolCall => block.type === "toolCall");
			repaired.push(message);
		} else if (message.role === "user") {
			fillMissingResults();
			repaired.push(message);
		} else {
			const answersPendingCall = pendingCalls.some((call) => call.id === message.toolCallId);
			if (!answersPendingCall || answeredIds.has(message.toolCallId)) continue;
			answeredIds.add(message.toolCallId);
			repaired.push(message);
		}
	}
	if (answeredIds.size > 0) fillMissingResults();
	return repaired;
}

function missingResult(call: ToolCall): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
		isError: true,
		timestamp: Date.now(),
	};
}
