// A request body as bytes, without serializing the whole history on every request: the JSON of the `messages`
// array is kept from the previous request and only the messages after the part both share are added. A
// history is extended at its end, so a request costs its new messages plus one copy of the bytes, and no large
// string is left on the heap per request. Used by the adapters that keep each message's wire form between
// requests (Chat Completions, Anthropic Messages): a wire message is the same object while its source message
// and the settings shaping it are.

/** A wire message: any JSON object the adapter built and will not change afterwards. */
type WireMessage = object;

/** The field of a payload that holds its history: Chat Completions' and Anthropic's `messages`, Responses' `input`. */
export type HistoryField = "messages" | "input";

const encoder = new TextEncoder();
// Stands for the history array in the JSON of the other fields; never a valid model id or field value.
const HISTORY_MARKER = "\u0000history\u0000";
const COMMA = 0x2c;

/** The JSON of a messages array without its brackets (`m0,m1,…`), and which wire messages it holds. */
class SerializedMessages {
	private readonly messages: WireMessage[] = [];
	/** Byte offset where each message's JSON ends. */
	private readonly ends: number[] = [];
	private bytes = new Uint8Array(1024);
	length = 0;

	/** Makes this the JSON of `messages`, keeping the bytes of the messages both lists start with. */
	update(messages: readonly WireMessage[]): void {
		let shared = 0;
		const limit = Math.min(messages.length, this.messages.length);
		while (shared < limit && messages[shared] === this.messages[shared]) shared++;
		this.messages.length = shared;
		this.ends.length = shared;
		this.length = shared === 0 ? 0 : this.ends[shared - 1];
		for (let index = shared; index < messages.length; index++) this.append(messages[index]);
	}

	view(): Uint8Array {
		return this.bytes.subarray(0, this.length);
	}

	private append(message: WireMessage): void {
		const json = encoder.encode(JSON.stringify(message));
		const separator = this.messages.length > 0 ? 1 : 0;
		this.reserve(separator + json.length);
		if (separator) this.bytes[this.length++] = COMMA;
		this.bytes.set(json, this.length);
		this.length += json.length;
		this.messages.push(message);
		this.ends.push(this.length);
	}

	private reserve(extra: number): void {
		if (this.length + extra <= this.bytes.length) return;
		const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
		grown.set(this.view());
		this.bytes = grown;
	}
}

// One history per first message (Chat Completions reuses its system message object, Anthropic its first user
// message's), so two conversations in one process (a session and its compaction summary, say) do not evict
// each other.
const histories = new WeakMap<WireMessage, SerializedMessages>();
const EMPTY = new SerializedMessages();

function serializedMessagesOf(messages: readonly WireMessage[]): SerializedMessages {
	if (messages.length === 0) return EMPTY;
	let history = histories.get(messages[0]);
	if (!history) {
		history = new SerializedMessages();
		histories.set(messages[0], history);
	}
	history.update(messages);
	return history;
}

/**
 * `JSON.stringify(payload)` as UTF-8, byte for byte. The JSON of the messages is kept per wire message object,
 * so the payload's wire messages must not be changed once built (the adapters share them between requests
 * only when nothing outside sees the payload: no `onPayload` hook).
 */
export function serializePayload<F extends HistoryField>(
	payload: { [K in F]: readonly WireMessage[] },
	field: F,
): Uint8Array {
	const markerJson = `${JSON.stringify(field)}:${JSON.stringify(HISTORY_MARKER)}`;
	const rest = JSON.stringify({ ...payload, [field]: HISTORY_MARKER });
	const at = rest.indexOf(markerJson);
	const head = encoder.encode(`${rest.slice(0, at)}${JSON.stringify(field)}:[`);
	const tail = encoder.encode(`]${rest.slice(at + markerJson.length)}`);
	const messages = serializedMessagesOf(payload[field]).view();
	const body = new Uint8Array(head.length + messages.length + tail.length);
	body.set(head, 0);
	body.set(messages, head.length);
	body.set(tail, head.length + messages.length);
	return body;
}

// What the SDKs send with a body they serialize themselves; a body given as bytes goes out without a type.
const JSON_CONTENT_TYPE = { "content-type": "application/json" };

/** SDK request options sending `payload` as `serializePayload` bytes, with the JSON content type. */
export function serializedBody<F extends HistoryField>(
	payload: { [K in F]: readonly WireMessage[] },
	field: F,
): { body: Uint8Array; headers: Record<string, string> } {
	return { body: serializePayload(payload, field), headers: JSON_CONTENT_TYPE };
}

// The first wire messages of the latest few conversations, so that a history's first element (a system prompt
// built for each request) is the same object on every request and its conversation's JSON is found again.
const firstMessages = new Map<string, WireMessage>();
const MAX_FIRST_MESSAGES = 8;

/** The wire message `make()` builds for `key`, the same object as for the last requests with that key. */
export function sharedFirstMessage<T extends WireMessage>(key: string, make: () => T): T {
	let message = firstMessages.get(key) as T | undefined;
	if (message) {
		firstMessages.delete(key);
	} else {
		message = make();
		if (firstMessages.size >= MAX_FIRST_MESSAGES) firstMessages.delete(firstMessages.keys().next().value as string);
	}
	firstMessages.set(key, message);
	return message;
}
