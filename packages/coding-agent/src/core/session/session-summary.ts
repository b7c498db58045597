// One session file as listings show it (docs/session-format.md "Listing sessions"), read only as far as needed: message lines
// are counted and dated from their first and last bytes, without decoding the (often large) rest.
import { readFileSync } from "node:fs";
import type { SessionHeader, SessionInfo } from "./entries.js";
import { isSessionHeader } from "./session-file.js";

const NO_MESSAGES = "(no messages)";
const NEWLINE = 0x0a;

// Lines written by either program start `{"type":"message","id":…,"parentId":…,"timestamp":…,"message":{"role":…`.
// Any other shape is parsed in full.
const MESSAGE_LINE = Buffer.from('{"type":"message"');
const SESSION_INFO_LINE = Buffer.from('{"type":"session_info"');
const ANY_KIND_LINE = Buffer.from('{"type":"');
const MESSAGE_LINE_PREFIX =
	/\{"type":"message","id":"[^"\\]*","parentId":(?:null|"[^"\\]*"),"timestamp":"[^"\\]*","message":\{"role":"([A-Za-z]+)"/y;
/** Bytes enough for the prefix above (ids are 8 characters, timestamps 24; full UUIDs fit too). */
const PREFIX_BYTES = 192;
// A message whose last field is its timestamp, closing the entry: `…,"timestamp":1736933420000}}`.
const TAIL_TIMESTAMP = /"timestamp":(\d+)\}\}\s*$/;
const TAIL_BYTES = 48;

type Loose = Record<string, unknown>;

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const texts: string[] = [];
	for (const block of content) {
		const { type, text } = (block ?? {}) as Loose;
		if (type === "text" && typeof text === "string") texts.push(text);
	}
	return texts.join(" ");
}

function parseObject(text: string): Loose | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return value && typeof value === "object" && !Array.isArray(value) ? (value as Loose) : undefined;
	} catch {
		return undefined;
	}
}

function startsWith(buffer: Buffer, start: number, end: number, prefix: Buffer): boolean {
	return end - start >= prefix.length && buffer.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0;
}

/** The [start, end) byte ranges of the non-empty lines. */
function* lineRanges(buffer: Buffer): Generator<[number, number]> {
	let start = 0;
	while (start < buffer.length) {
		let end = buffer.indexOf(NEWLINE, start);
		if (end === -1) end = buffer.length;
		if (end > start) yield [start, end];
		start = end + 1;
	}
}

/** The time a user/assistant message counts for: its own timestamp, else its entry's. */
function messageTime(entry: Loose): number | undefined {
	const message = entry.message as Loose | undefined;
	if (typeof message?.timestamp === "number") return message.timestamp;
	const ms = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : Number.NaN;
	return Number.isNaN(ms) ? undefined : ms;
}

/** All user and assistant text of a session file, joined by spaces (for search). */
export function collectAllMessagesText(file: Buffer): string {
	const parts: string[] = [];
	for (const [start, end] of lineRanges(file)) {
		const line = file.toString("utf8", start, end);
		if (!line.includes('"message"')) continue;
		const entry = parseObject(line);
		const message = entry?.type === "message" ? (entry.message as Loose | undefined) : undefined;
		if (message?.role !== "user" && message?.role !== "assistant") continue;
		const text = textOf(message.content);
		if (text) parts.push(text);
	}
	return parts.join(" ");
}

/**
 * The listing of one session file, or undefined when it is not a session file (its first parseable line is
 * not a header). `allMessagesText` is read from the file on first access.
 */
export function summarizeSessionFile(file: Buffer, path: string, fileMtimeMs: number): SessionInfo | undefined {
	let header: SessionHeader | undefined;
	let name: string | undefined;
	let messageCount = 0;
	let firstMessage: string | undefined;
	let lastActivity: number | undefined;
	const noteActivity = (ms: number | undefined) => {
		if (ms !== undefined && (lastActivity === undefined || ms > lastActivity)) lastActivity = ms;
	};
	const handleEntry = (entry: Loose) => {
		if (entry.type === "session_info") {
			const value = typeof entry.name === "string" ? entry.name.trim() : "";
			if (value) name = value;
			return;
		}
		if (entry.type !== "message") return;
		messageCount++;
		const message = entry.message as Loose | undefined;
		if (message?.role !== "user" && message?.role !== "assistant") return;
		noteActivity(messageTime(entry));
		if (message.role === "user" && firstMessage === undefined) {
			const text = textOf(message.content);
			if (text) firstMessage = text;
		}
	};

	for (const [start, end] of lineRanges(file)) {
		if (!header) {
			const first = parseObject(file.toString("utf8", start, end));
			if (!first) continue; // Blank or unparseable: the first parseable line decides.
			if (!isSessionHeader(first)) return undefined;
			header = first;
			continue;
		}
		if (startsWith(file, start, end, MESSAGE_LINE)) {
			MESSAGE_LINE_PREFIX.lastIndex = 0;
			const prefix = MESSAGE_LINE_PREFIX.exec(file.toString("latin1", start, Math.min(end, start + PREFIX_BYTES)));
			const role = prefix?.[1];
			if (role !== undefined && role !== "user" && role !== "assistant") {
				messageCount++;
				continue;
			}
			if (role === "assistant" || (role === "user" && firstMessage !== undefined)) {
				const tail = TAIL_TIMESTAMP.exec(file.toString("latin1", Math.max(start, end - TAIL_BYTES), end));
				if (tail) {
					messageCount++;
					noteActivity(Number(tail[1]));
					continue;
				}
			}
		} else if (startsWith(file, start, end, ANY_KIND_LINE) && !startsWith(file, start, end, SESSION_INFO_LINE)) {
			continue; // Another kind in the usual key order: nothing listings need.
		}
		const entry = parseObject(file.toString("utf8", start, end));
		if (entry) handleEntry(entry);
	}
	if (!header) return undefined;
	const found: SessionHeader = header;

	const created = Date.parse(found.timestamp);
	const modified = lastActivity ?? (Number.isNaN(created) ? fileMtimeMs : created);
	const info: SessionInfo = {
		path,
		id: found.id,
		cwd: typeof found.cwd === "string" ? found.cwd : "",
		...(name !== undefined ? { name } : {}),
		...(typeof found.parentSession === "string" ? { parentSessionPath: found.parentSession } : {}),
		created: new Date(Number.isNaN(created) ? fileMtimeMs : created),
		modified: new Date(modified),
		messageCount,
		firstMessage: firstMessage ?? NO_MESSAGES,
		allMessagesText: "",
	};
	let allMessagesText: string | undefined;
	Object.defineProperty(info, "allMessagesText", {
		enumerable: true,
		get() {
			if (allMessagesText === undefined) {
				try {
					allMessagesText = collectAllMessagesText(readFileSync(path));
				} catch {
					allMessagesText = "";
				}
			}
			return allMessagesText;
		},
	});
	return info;
}
