// A request body as bytes, without serializing the whole history on every request: the JSON of the `messages`
// array is kept from the previous request and only the messages after the part both share are added. A
// history is extended at its end, so a request costs its new messages. The body is framed in the history's own
// buffer (the other fields before and after its messages), lent to the request until it is over: no copy of
// the history per request, and no history-sized buffer left for the collector per request (external memory,
// which V8 frees only when it collects the object holding it). Used by the adapters that keep each message's
// wire form between requests (Chat Completions, Anthropic Messages, Responses): a wire message is the same
// object while its source message and the settings shaping it are.

/** A wire message: any JSON object the adapter built and will not change afterwards. */
type WireMessage = object;

/** The field of a payload that holds its history: Chat Completions' and Anthropic's `messages`, Responses' `input`. */
export type HistoryField = "messages" | "input";

const encoder = new TextEncoder();
// Stands for the history array in the JSON of the other fields; never a valid model id or field value.
const HISTORY_MARKER = "\u0000history\u0000";
const COMMA = 0x2c;

/** A request body framed in a history's buffer: valid until `release()`, after which the buffer is reused. */
export interface LentBody {
	body: Uint8Array;
	release(): void;
}

/**
 * The JSON of a messages array without its brackets (`m0,m1,…`), and which wire messages it holds. The bytes
 * sit at `start` of the buffer, leaving room before them for the fields a body puts ahead of the history.
 */
class SerializedMessages {
	private readonly messages: WireMessage[] = [];
	/** Byte offset, from `start`, where each message's JSON ends. */
	private readonly ends: number[] = [];
	private bytes = new Uint8Array(4096);
	private start = 1024;
	private length = 0;
	/** A body over this buffer is in flight: the buffer must not change until it is released. */
	lent = false;

	/** Makes this the JSON of `messages`, keeping the bytes of the messages both lists start with. */
	update(messages: readonly WireMessage[]): void {
		let shared = 0;
		const limit = Math.min(messages.length, this.messages.length);
		while (shared < limit && messages[shared] === this.messages[shared]) shared++;
		this.messages.length = shared;
		this.ends.length = shared;
		this.length = shared === 0 ? 0 : (this.ends[shared - 1] as number);
		for (let index = shared; index < messages.length; index++) this.append(messages[index] as WireMessage);
	}

	/** The body `head` + the messages + `tail`, in this buffer: it stays as it is until the lease is released. */
	lend(head: Uint8Array, tail: Uint8Array): LentBody {
		if (head.length > this.start) this.relayout(head.length * 2, 0);
		this.reserve(tail.length);
		const from = this.start - head.length;
		const end = this.start + this.length;
		this.bytes.set(head, from);
		this.bytes.set(tail, end);
		this.lent = true;
		let released = false;
		return {
			body: this.bytes.subarray(from, end + tail.length),
			release: () => {
				if (released) return;
				released = true;
				this.lent = false;
			},
		};
	}

	private append(message: WireMessage): void {
		const json = encoder.encode(JSON.stringify(message));
		const separator = this.messages.length > 0 ? 1 : 0;
		this.reserve(separator + json.length);
		if (separator) this.bytes[this.start + this.length++] = COMMA;
		this.bytes.set(json, this.start + this.length);
		this.length += json.length;
		this.messages.push(message);
		this.ends.push(this.length);
	}

	/** Room for `extra` more bytes after the messages. */
	private reserve(extra: number): void {
		if (this.start + this.length + extra > this.bytes.length) this.relayout(this.start, extra);
	}

	/** Moves the messages into a new buffer starting at `start`, with room for `extra` bytes after them. */
	private relayout(start: number, extra: number): void {
		const needed = start + this.length + extra;
		const grown = new Uint8Array(Math.max(this.bytes.length * 2, needed));
		grown.set(this.bytes.subarray(this.start, this.start + this.length), start);
		this.bytes = grown;
		this.start = start;
	}
}

// One history per first message (Chat Completions reuses its system message object, Anthropic its first user
// message's), so two conversations in one process (a session and its compaction summary, say) do not evict
// each other.
const histories = new WeakMap<WireMessage, SerializedMessages>();

/**
 * The kept JSON of `messages`, brought up to date. A history whose buffer is lent to a request in flight (two
 * conversations with the same first message, at once) is not touched: this request gets a buffer of its own.
 */
function serializedMessagesOf(messages: readonly WireMessage[]): SerializedMessages {
	let history = messages.length > 0 ? histories.get(messages[0] as WireMessage) : undefined;
	if (!history || history.lent) {
		history = new SerializedMessages();
		if (messages.length > 0 && !histories.has(messages[0] as WireMessage)) {
			histories.set(messages[0] as WireMessage, history);
		}
	}
	history.update(messages);
	return history;
}

/**
 * `JSON.stringify(payload)` as UTF-8, byte for byte, framed in the buffer that keeps the JSON of the history:
 * the caller must `release()` it once the request is over (the reply read, failed or aborted), and must not use
 * the bytes after that. The JSON of the messages is kept per wire message object, so the payload's wire messages
 * must not be changed once built (the adapters share them between requests only when nothing outside sees the
 * payload: no `onPayload` hook).
 */
export function lendPayload<F extends HistoryField>(payload: { [K in F]: readonly WireMessage[] }, field: F): LentBody {
	const markerJson = `${JSON.stringify(field)}:${JSON.stringify(HISTORY_MARKER)}`;
	const rest = JSON.stringify({ ...payload, [field]: HISTORY_MARKER });
	const at = rest.indexOf(markerJson);
	const head = encoder.encode(`${rest.slice(0, at)}${JSON.stringify(field)}:[`);
	const tail = encoder.encode(`]${rest.slice(at + markerJson.length)}`);
	return serializedMessagesOf(payload[field]).lend(head, tail);
}

// What the SDKs send with a body they serialize themselves; a body given as bytes goes out without a type.
const JSON_CONTENT_TYPE = { "content-type": "application/json" };

/**
 * SDK request options sending `payload` as `lendPayload` bytes, with the JSON content type; the bytes are given
 * back when the request is over (`transport.whenOver`).
 */
export function serializedBody<F extends HistoryField>(
	payload: { [K in F]: readonly WireMessage[] },
	field: F,
	transport: { whenOver(callback: () => void): void },
): { body: Uint8Array; headers: Record<string, string> } {
	const lent = lendPayload(payload, field);
	transport.whenOver(lent.release);
	return { body: lent.body, headers: JSON_CONTENT_TYPE };
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
