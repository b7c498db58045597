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
 * Returns the history for `targetModel`: the input array itself when nothing needs to change, else a new
 * array. The input is never mutated: changed messages are new objects, unchanged messages (users, tool results, and assistant turns replayed to the model that wrote
 * them) are passed through as the same objects, so providers can cache their conversion by message identity.
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

// Pass 1: per-message rewrite of thinking, text signatures and tool-call ids.
function adaptToTargetModel(
	messages: Message[],
	targetModel: Model,
	normalizeToolCallId: ToolCallIdNormalizer | undefined,
): Message[] {
	// Renamed ids of the most recent replayable assistant turn: its results follow it. Scoped per turn so
	// an id reused by a later same-model turn is not renamed by an earlier turn's mapping. Failed turns
	// (removed in pass 2) do not open a new scope, so results after them still find the earlier mapping.
	let renamedIds: ReadonlyMap<string, string> = NO_RENAMES;
	let targetKey: string | undefined;
	const output = new LazyCopy(messages);
	for (let index = 0; index < messages.length; index++) {
		const message = messages[index];
		if (message.role === "user") {
			output.put(index, message);
		} else if (message.role === "toolResult") {
			const renamed = renamedIds.get(message.toolCallId);
			output.put(index, renamed === undefined ? message : renamedResult(message, renamed));
		} else if (isSameModel(message, targetModel)) {
			// The same model never renames ids, and replays everything but unsigned empty thinking.
			output.put(index, hasDroppedThinking(message) ? adaptTurn(message, true) : message);
			if (!isFailedTurn(message)) renamedIds = NO_RENAMES;
		} else {
			targetKey ??= targetKeyOf(targetModel);
			const adapted = foreignTurn(message, targetModel, targetKey, normalizeToolCallId);
			if (!isFailedTurn(message)) renamedIds = adapted.renamedIds;
			else if (adapted.renamedIds.size > 0) renamedIds = new Map([...renamedIds, ...adapted.renamedIds]);
			output.put(index, adapted.message);
		}
	}
	return output.result();
}

/**
 * The output of a pass over `source` that mostly keeps each message as it is: the source array itself until
 * the output first differs (a message replaced, inserted or left out), a copy from then on.
 */
class LazyCopy {
	private copy: Message[] | undefined;
	/** How many source messages the output has taken while it equals the source so far. */
	private kept = 0;

	constructor(private readonly source: readonly Message[]) {}

	/** Appends the output for source message `index` (which the output has reached). */
	put(index: number, message: Message): void {
		if (!this.copy && message === this.source[index] && this.kept === index) {
			this.kept++;
			return;
		}
		this.detach(index).push(message);
	}

	/** Appends a message of the output's own before source message `index`. */
	insert(index: number, message: Message): void {
		this.detach(index).push(message);
	}

	/** Leaves source message `index` out. */
	skip(index: number): void {
		this.detach(index);
	}

	result(): Message[] {
		return this.copy ?? (this.source as Message[]);
	}

	private detach(index: number): Message[] {
		this.copy ??= this.source.slice(0, Math.min(index, this.kept));
		return this.copy;
	}
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
function repairToolCallPairing(messages: Message[]): Message[] {
	const repaired = new LazyCopy(messages);
	// The latest replayed assistant turn, whose calls are waiting for results, and the ids answered so far.
	let pendingTurn: AssistantMessage | undefined;
	// The ids answered so far are answeredIds[0, answeredCount): the array is reused, not emptied, because
	// emptying it (`length = 0`) frees its storage and the next push allocates anew, once per turn of the history.
	const answeredIds: string[] = [];
	let answeredCount = 0;
	const isAnswered = (id: string) => {
		for (let i = 0; i < answeredCount; i++) if (answeredIds[i] === id) return true;
		return false;
	};

	// Synthetic results for the pending turn's unanswered calls, placed before source message `index`.
	const fillMissingResults = (index: number) => {
		if (pendingTurn) {
			for (const block of pendingTurn.content) {
				if (block.type === "toolCall" && !isAnswered(block.id)) repaired.insert(index, missingResult(block));
			}
		}
		pendingTurn = undefined;
		answeredCount = 0;
	};

	for (let index = 0; index < messages.length; index++) {
		const message = messages[index];
		if (message.role === "assistant") {
			if (isFailedTurn(message)) {
				repaired.skip(index);
				continue;
			}
			fillMissingResults(index);
			pendingTurn = message;
			repaired.put(index, message);
		} else if (message.role === "user") {
			fillMissingResults(index);
			repaired.put(index, message);
		} else if (!pendingTurn || !hasToolCall(pendingTurn, message.toolCallId) || isAnswered(message.toolCallId)) {
			repaired.skip(index);
		} else {
			answeredIds[answeredCount++] = message.toolCallId;
			repaired.put(index, message);
		}
	}
	if (answeredCount > 0) fillMissingResults(messages.length);
	return repaired.result();
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
