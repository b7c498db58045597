import { crc32 } from "node:zlib";

/**
 * The framings a successful reply may arrive in, as the reply guard checks them: server-sent events (every SSE
 * API) and the AWS event stream (`application/vnd.amazon.eventstream`, Bedrock's binary framing).
 */
export type WireFormat = "sse" | "aws-eventstream";

export type SniffVerdict = "event-stream" | "not-event-stream" | "undecided";

/** Watches a body as it arrives; returns what is wrong with it once something is. */
export interface BodyMonitor {
	feed(chunk: Uint8Array): string | undefined;
}

export interface WireFormatRules {
	/** The content type (without parameters, lower-case) a reply of this format declares. */
	contentType: string;
	/** Whether the start of a body (`head`, all bytes so far up to a small cap) is this format. */
	sniff(head: Uint8Array, atEnd: boolean): SniffVerdict;
	createMonitor(): BodyMonitor;
}

const MIB = 1024 * 1024;
/**
 * The longest line an event stream may have. One line is one event's data; the largest real ones (a Responses
 * `response.completed` repeating a whole long reply) stay well under a megabyte. The SDKs' line decoders copy
 * and rescan a line on every chunk, so a line of tens of megabytes would cost minutes of CPU before the size
 * limit ended it.
 */
export const MAX_LINE_BYTES = 8 * MIB;
/**
 * The largest AWS event-stream frame accepted. The SDK allocates a buffer of the size a frame's prelude declares
 * before reading it, so the declaration is checked first; real Converse frames are a few kilobytes.
 */
export const MAX_FRAME_BYTES = 8 * MIB;
const LF = 0x0a;
const CR = 0x0d;
/** Enough leading characters to tell an SSE field (`retry:` is the longest) from anything else. */
const SNIFF_CHARS = 6;
/** The first line of an event stream: a comment (`:`) or one of the SSE fields. */
const SSE_FIRST_LINE = /^(?:data|event|id|retry)?:/;

class SseLineMonitor implements BodyMonitor {
	/** Bytes of the line still open at the end of the body so far. */
	private lineBytes = 0;

	feed(chunk: Uint8Array): string | undefined {
		const last = Math.max(chunk.lastIndexOf(LF), chunk.lastIndexOf(CR));
		if (last === -1) {
			this.lineBytes += chunk.byteLength;
		} else {
			const lf = chunk.indexOf(LF);
			const cr = chunk.indexOf(CR);
			// The line open before this chunk ends at its first line break. Lines that start and end inside one
			// chunk are no longer than a chunk (tens of kilobytes), so only the ends need counting.
			const ended = this.lineBytes + (lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr));
			this.lineBytes = Math.max(ended, chunk.byteLength - last - 1);
		}
		if (this.lineBytes > MAX_LINE_BYTES) return `a line longer than ${MAX_LINE_BYTES / MIB} MiB`;
		if (last !== -1) this.lineBytes = chunk.byteLength - last - 1;
		return undefined;
	}
}

const SSE: WireFormatRules = {
	contentType: "text/event-stream",
	sniff(head, atEnd) {
		const text = new TextDecoder()
			.decode(head)
			.replace(/^\uFEFF/, "")
			.trimStart();
		if (SSE_FIRST_LINE.test(text)) return "event-stream";
		const canDecide = atEnd || text.length >= SNIFF_CHARS || /[\r\n]/.test(text) || head.byteLength >= 1024;
		return canDecide ? "not-event-stream" : "undecided";
	},
	createMonitor: () => new SseLineMonitor(),
};

/** Total length, headers length, prelude CRC; then headers, payload and the message CRC. */
const PRELUDE_BYTES = 12;
const MESSAGE_CRC_BYTES = 4;
const MIN_FRAME_BYTES = PRELUDE_BYTES + MESSAGE_CRC_BYTES;

/** Big-endian; by hand, since a DataView per read was a measurable share of decoding small frames. */
function readUint32(bytes: Uint8Array, offset: number): number {
	return ((bytes[offset] << 24) >>> 0) + (bytes[offset + 1] << 16) + (bytes[offset + 2] << 8) + bytes[offset + 3];
}

/** What is wrong with a frame's 12-byte prelude, or undefined when it is a valid one. */
function preludeProblem(prelude: Uint8Array): string | undefined {
	const total = readUint32(prelude, 0);
	const headers = readUint32(prelude, 4);
	if (crc32(prelude.subarray(0, 8)) !== readUint32(prelude, 8)) return "a frame whose prelude checksum does not match";
	if (total < MIN_FRAME_BYTES || headers > total - MIN_FRAME_BYTES)
		return `a frame with an impossible length (${total})`;
	if (total > MAX_FRAME_BYTES) return `a frame longer than ${MAX_FRAME_BYTES / MIB} MiB (${total} bytes)`;
	return undefined;
}

/**
 * Checks every frame of an AWS event stream as its bytes pass: the prelude (length within bounds, prelude CRC) and
 * the message CRC over the whole frame, so a corrupt or hostile frame fails the reply before the SDK decodes it.
 */
class EventStreamFrameMonitor implements BodyMonitor {
	private readonly prelude = new Uint8Array(PRELUDE_BYTES);
	private preludeFilled = 0;
	/** Bytes of the current frame still to come after its prelude (message CRC included). */
	private remaining = 0;
	private crc = 0;
	private readonly crcTail = new Uint8Array(MESSAGE_CRC_BYTES);
	private crcTailFilled = 0;

	feed(chunk: Uint8Array): string | undefined {
		let offset = 0;
		while (offset < chunk.byteLength) {
			if (this.remaining === 0) {
				const take = Math.min(PRELUDE_BYTES - this.preludeFilled, chunk.byteLength - offset);
				this.prelude.set(chunk.subarray(offset, offset + take), this.preludeFilled);
				this.preludeFilled += take;
				offset += take;
				if (this.preludeFilled < PRELUDE_BYTES) return undefined;
				const problem = preludeProblem(this.prelude);
				if (problem) return problem;
				this.remaining = readUint32(this.prelude, 0) - PRELUDE_BYTES;
				this.crc = crc32(this.prelude);
				this.crcTailFilled = 0;
				this.preludeFilled = 0;
				continue;
			}
			const take = Math.min(this.remaining, chunk.byteLength - offset);
			const part = chunk.subarray(offset, offset + take);
			offset += take;
			// The last four bytes of a frame are its CRC, not covered by it.
			const covered = Math.min(take, Math.max(0, this.remaining - MESSAGE_CRC_BYTES));
			if (covered > 0) this.crc = crc32(part.subarray(0, covered), this.crc);
			const tail = part.subarray(covered);
			this.crcTail.set(tail, this.crcTailFilled);
			this.crcTailFilled += tail.byteLength;
			this.remaining -= take;
			if (this.remaining === 0 && readUint32(this.crcTail, 0) !== this.crc) {
				return "a frame whose message checksum does not match";
			}
		}
		return undefined;
	}
}

const AWS_EVENTSTREAM: WireFormatRules = {
	contentType: "application/vnd.amazon.eventstream",
	sniff(head, atEnd) {
		if (head.byteLength < PRELUDE_BYTES) return atEnd ? "not-event-stream" : "undecided";
		return preludeProblem(head.subarray(0, PRELUDE_BYTES)) ? "not-event-stream" : "event-stream";
	},
	createMonitor: () => new EventStreamFrameMonitor(),
};

export const WIRE_FORMATS: Readonly<Record<WireFormat, WireFormatRules>> = {
	sse: SSE,
	"aws-eventstream": AWS_EVENTSTREAM,
};
