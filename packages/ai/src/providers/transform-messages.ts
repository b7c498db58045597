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
import { ConversationRuns } from "./conversation-runs.js";

/**
 * Maps a tool-call id from another model to one the target API accepts. `source` is the assistant
 * message the call came from. Return the id unchanged when it is already acceptable. The result may depend on
 * the id, the target's provider, API and model id, and the source message only: what it returned is reused by
 * later calls given the same function (by identity) for the same target.
 */
export type ToolCallIdNormalizer = (id: string, targetModel: Model, source: AssistantMessage) => string;

/** Text of the result synthesised for a tool call that never got one. */
export const MISSING_TOOL_RESULT_TEXT = "No result provided";

type AssistantBlock = AssistantMessage["content"][number];

/**
 * Returns the history for `targetModel`: the input array itself when nothing needs to change, else a new
 * array. The input is never mutated: changed messages are new objects, unchanged messages (users, tool results, and assistant turns replayed to the model that wrote
 * them) are passed through as the same objects, so providers can cache their conversion by message identity.
 *
 * A request's history is the previous one's with new messages at the end, so the passes below resume where the
 * previous call over the same conversation, target and normalizer stopped (`TransformRun`): a call costs its new
 * messages plus one identity check per message. The normalizer is part of that key by identity: a function
 * that numbers ids within one request (Mistral's) is a new function per request and starts over every time.
 */
export function transformMessages(
	messages: Message[],
	targetModel: Model,
	normalizeToolCallId?: ToolCallIdNormalizer,
): Message[] {
	const targetKey = targetKeyOf(targetModel);
	const run = runs.resume(
		messages,
		(candidate) => candidate.targetKey === targetKey && candidate.normalizeToolCallId === normalizeToolCallId,
		() => new TransformRun(targetKey, normalizeToolCallId),
	);
	for (let index = run.inputs.length; index < messages.length; index++) run.take(messages[index], targetModel);
	return run.result(messages);
}

function isSameModel(message: AssistantMessage, model: Model): boolean {
	return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

function isFailedTurn(message: Message): boolean {
	return message.role === "assistant" && (message.stopReason === "error" || message.stopReason === "aborted");
}

const NO_RENAMES: ReadonlyMap<string, string> = new Map();

interface AdaptedTurn {
	message: AssistantMessage;
	/** Tool-call ids the normalizer changed, old to new; its results are renamed to match. */
	renamedIds: ReadonlyMap<string, string>;
}

/**
 * Another model's turn as adapted for a target, remembered per message so a long history is not rewritten
 * on every request. Valid while the target (provider, API, model) and the normalizer are the same: a
 * per-request normalizer (Mistral's, which numbers ids within one request) never matches, so it is not reused.
 */
interface CachedTurn extends AdaptedTurn {
	targetKey: string;
	normalizeToolCallId: ToolCallIdNormalizer | undefined;
}
const adaptedTurns = new WeakMap<AssistantMessage, CachedTurn>();
const renamedResults = new WeakMap<ToolResultMessage, ToolResultMessage>();

function targetKeyOf(model: Model): string {
	return `${model.provider}\u0000${model.api}\u0000${model.id}`;
}

function renamedResult(message: ToolResultMessage, toolCallId: string): ToolResultMessage {
	const cached = renamedResults.get(message);
	if (cached?.toolCallId === toolCallId) return cached;
	const renamed = { ...message, toolCallId };
	renamedResults.set(message, renamed);
	return renamed;
}

/** Whether replaying a turn to its own model drops a block: unsigned thinking without text. */
function hasDroppedThinking(message: AssistantMessage): boolean {
	for (const block of message.content) {
		if (block.type === "thinking" && !block.redacted && !block.thinkingSignature && block.thinking.trim() === "") {
			return true;
		}
	}
	return false;
}

function foreignTurn(
	message: AssistantMessage,
	targetModel: Model,
	targetKey: string,
	normalizeToolCallId: ToolCallIdNormalizer | undefined,
): AdaptedTurn {
	const cached = adaptedTurns.get(message);
	if (cached && cached.targetKey === targetKey && cached.normalizeToolCallId === normalizeToolCallId) return cached;
	const turnIds = new Map<string, string>();
	const adapted = adaptTurn(message, false, (call) => {
		if (!normalizeToolCallId) return;
		const normalizedId = normalizeToolCallId(call.id, targetModel, message);
		if (normalizedId !== call.id) {
			turnIds.set(call.id, normalizedId);
			call.id = normalizedId;
		}
	});
	const turn: CachedTurn = { message: adapted, renamedIds: turnIds, targetKey, normalizeToolCallId };
	adaptedTurns.set(message, turn);
	return turn;
}

/** A new assistant message with each block as the target model should see it. */
function adaptTurn(
	message: AssistantMessage,
	sameModel: boolean,
	renameCall?: (call: ToolCall) => void,
): AssistantMessage {
	const content: AssistantBlock[] = [];
	for (const block of message.content) {
		const adapted = adaptBlock(block, sameModel);
		if (!adapted) continue;
		if (adapted.type === "toolCall") renameCall?.(adapted);
		content.push(adapted);
	}
	return { ...message, content };
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
// Runs remembered per conversation: a few targets, for a session that switches models back and forth.
const runs = new ConversationRuns<TransformRun>(4);

/**
 * Both passes over a history, message by message, as far as the history has been seen: pass 1 rewrites each
 * message for the target (thinking, text signatures, tool-call ids), pass 2 repairs the pairing of calls and
 * results. What they produce for a message depends only on the messages before it, except for the results
 * filled in at the end of a history (`result`), so the output so far stays valid when messages are added.
 */
class TransformRun {
	readonly inputs: Message[] = [];
	private readonly outputs: Message[] = [];
	/** Whether the output so far is the input, message for message. */
	private unchanged = true;

	// Pass 1. Renamed ids of the most recent replayable assistant turn: its results follow it. Scoped per turn so
	// an id reused by a later same-model turn is not renamed by an earlier turn's mapping. Failed turns
	// (removed in pass 2) do not open a new scope, so results after them still find the earlier mapping.
	private renamedIds: ReadonlyMap<string, string> = NO_RENAMES;

	// Pass 2. The latest replayed assistant turn, whose calls are waiting for results, and the ids answered so
	// far: answeredIds[0, answeredCount). The array is reused, not emptied, because emptying it (`length = 0`)
	// frees its storage and the next push allocates anew, once per turn of the history.
	private pendingTurn: AssistantMessage | undefined;
	private readonly answeredIds: string[] = [];
	private answeredCount = 0;

	constructor(
		readonly targetKey: string,
		readonly normalizeToolCallId: ToolCallIdNormalizer | undefined,
	) {}

	/** Takes the next message of the history. */
	take(message: Message, targetModel: Model): void {
		this.inputs.push(message);
		const produced = this.outputs.length;
		this.repair(this.adapt(message, targetModel));
		if (this.unchanged && (this.outputs.length !== produced + 1 || this.outputs[produced] !== message)) {
			this.unchanged = false;
		}
	}

	/** The history for the target: `messages` (the inputs taken) itself when nothing changed, else a new array. */
	result(messages: Message[]): Message[] {
		// Reference quirk kept and ours differs, see above: the end of a history gets synthetic results only
		// when it holds some of the pending turn's results but not all.
		const missing = this.answeredCount > 0 ? this.missingResults() : [];
		if (this.unchanged && missing.length === 0) return messages;
		const output = this.outputs.slice();
		for (const result of missing) output.push(result);
		return output;
	}

	private adapt(message: Message, targetModel: Model): Message {
		if (message.role === "user") return message;
		if (message.role === "toolResult") {
			const renamed = this.renamedIds.get(message.toolCallId);
			return renamed === undefined ? message : renamedResult(message, renamed);
		}
		if (isSameModel(message, targetModel)) {
			// The same model never renames ids, and replays everything but unsigned empty thinking.
			if (!isFailedTurn(message)) this.renamedIds = NO_RENAMES;
			return hasDroppedThinking(message) ? adaptTurn(message, true) : message;
		}
		const adapted = foreignTurn(message, targetModel, this.targetKey, this.normalizeToolCallId);
		if (!isFailedTurn(message)) this.renamedIds = adapted.renamedIds;
		else if (adapted.renamedIds.size > 0) this.renamedIds = new Map([...this.renamedIds, ...adapted.renamedIds]);
		return adapted.message;
	}

	private repair(message: Message): void {
		if (message.role === "assistant") {
			if (isFailedTurn(message)) return;
			this.fillMissingResults();
			this.pendingTurn = message;
			this.outputs.push(message);
		} else if (message.role === "user") {
			this.fillMissingResults();
			this.outputs.push(message);
		} else if (
			this.pendingTurn &&
			hasToolCall(this.pendingTurn, message.toolCallId) &&
			!this.isAnswered(message.toolCallId)
		) {
			this.answeredIds[this.answeredCount++] = message.toolCallId;
			this.outputs.push(message);
		}
	}

	private isAnswered(id: string): boolean {
		for (let i = 0; i < this.answeredCount; i++) if (this.answeredIds[i] === id) return true;
		return false;
	}

	/** Synthetic results for the pending turn's unanswered calls, before the message being taken. */
	private fillMissingResults(): void {
		for (const result of this.missingResults()) this.outputs.push(result);
		this.pendingTurn = undefined;
		this.answeredCount = 0;
	}

	private missingResults(): ToolResultMessage[] {
		const missing: ToolResultMessage[] = [];
		if (!this.pendingTurn) return missing;
		for (const block of this.pendingTurn.content) {
			if (block.type === "toolCall" && !this.isAnswered(block.id)) missing.push(missingResult(block));
		}
		return missing;
	}
}

function hasToolCall(message: AssistantMessage, id: string): boolean {
	for (const block of message.content) if (block.type === "toolCall" && block.id === id) return true;
	return false;
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
