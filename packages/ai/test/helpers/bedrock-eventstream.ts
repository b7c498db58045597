// Builders for Bedrock ConverseStream replies: AWS event-stream frames (binary prelude, headers, JSON payload,
// CRC32s) as `application/vnd.amazon.eventstream` bodies, built with the Smithy codec the SDK itself decodes with.
import { crc32 } from "node:zlib";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import type { FakeReply, SseChunk } from "./fake-server.js";

export const EVENTSTREAM_CONTENT_TYPE = "application/vnd.amazon.eventstream";

const codec = new EventStreamCodec(
	(bytes) => Buffer.from(bytes).toString("utf8"),
	(text) => new Uint8Array(Buffer.from(text, "utf8")),
);

function frame(headers: Record<string, string>, body: unknown): Buffer {
	const encoded = codec.encode({
		headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { type: "string", value }])),
		body: new Uint8Array(Buffer.from(JSON.stringify(body))),
	});
	return Buffer.from(encoded);
}

/** One event frame; the payload is the event member's JSON (Bedrock adds a `p` padding field, as here). */
export function bedrockEvent(eventType: string, body: Record<string, unknown>): Buffer {
	return frame(
		{ ":message-type": "event", ":event-type": eventType, ":content-type": "application/json" },
		{ ...body, p: "abcdefgh" },
	);
}

/** An exception sent inside the stream (throttling, model errors). */
export function bedrockException(exceptionType: string, message: string): Buffer {
	return frame(
		{ ":message-type": "exception", ":exception-type": exceptionType, ":content-type": "application/json" },
		{ message },
	);
}

export const messageStart = (): Buffer => bedrockEvent("messageStart", { role: "assistant" });
export const textDelta = (index: number, text: string): Buffer =>
	bedrockEvent("contentBlockDelta", { contentBlockIndex: index, delta: { text } });
export const reasoningDelta = (index: number, reasoning: { text?: string; signature?: string }): Buffer =>
	bedrockEvent("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: reasoning } });
export const toolUseStart = (index: number, toolUseId: string, name: string): Buffer =>
	bedrockEvent("contentBlockStart", { contentBlockIndex: index, start: { toolUse: { toolUseId, name } } });
export const toolUseDelta = (index: number, input: string): Buffer =>
	bedrockEvent("contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input } } });
export const blockStop = (index: number): Buffer => bedrockEvent("contentBlockStop", { contentBlockIndex: index });
export const messageStop = (stopReason: string): Buffer => bedrockEvent("messageStop", { stopReason });
export const metadata = (usage: Record<string, number>): Buffer =>
	bedrockEvent("metadata", { usage, metrics: { latencyMs: 10 } });

/** A complete text reply. */
export function bedrockText(text: string, usage?: Record<string, number>): SseChunk[] {
	return [
		messageStart(),
		textDelta(0, text),
		blockStop(0),
		messageStop("end_turn"),
		metadata(usage ?? { inputTokens: 10, outputTokens: 2, totalTokens: 12 }),
	];
}

export function bedrockReply(chunks: SseChunk[], extra: Partial<Extract<FakeReply, { kind: "sse" }>> = {}): FakeReply {
	return { kind: "sse", chunks, headers: { "content-type": EVENTSTREAM_CONTENT_TYPE }, ...extra };
}

/** An HTTP error as Bedrock's REST-JSON protocol sends it: the exception named in `x-amzn-errortype`. */
export function bedrockHttpError(
	status: number,
	errorType: string,
	message: string,
	headers: Record<string, string> = {},
): Extract<FakeReply, { kind: "json" }> {
	return {
		kind: "json",
		status,
		headers: { "x-amzn-errortype": `${errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`, ...headers },
		body: { message },
	};
}

/** The 12-byte prelude of a frame that declares `totalLength` bytes (CRC correct), for replies that never end. */
export function framePrelude(totalLength: number): Buffer {
	const prelude = Buffer.alloc(12);
	prelude.writeUInt32BE(totalLength, 0);
	prelude.writeUInt32BE(0, 4);
	prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
	return prelude;
}
