// Finding sessions: listings for the resume picker, `-c`, and `--session <id-prefix>` (session-format.md §9.1–9.2).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { getAgentDir, getSessionsRoot } from "../config/paths.js";
import type { SessionHeader, SessionInfo } from "./entries.js";
import { isSessionHeader, readFileHead } from "./session-file.js";
import { getSessionDirForCwd } from "./session-paths.js";

const NO_MESSAGES = "(no messages)";

// Lines written by either program start `{"type":"message","id":…,"parentId":…,"timestamp":…,"message":{"role":…`.
// Listing recognises that shape without parsing the (possibly large) rest of the line; any other shape is parsed.
const MESSAGE_LINE_PREFIX =
	/\{"type":"message","id":"[^"\\]*","parentId":(?:null|"[^"\\]*"),"timestamp":"[^"\\]*","message":\{"role":"([A-Za-z]+)"/y;
// A message object whose last field is its timestamp, closing the entry: `…,"timestamp":1736933420000}}`.
const MESSAGE_TAIL_TIMESTAMP = /"timestamp":(\d+)\}\}\s*$/y;

type Loose = Record<string, unknown>;

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const texts: string[] = [];
	for (const block of content) {
		if (
			block &&
			typeof block === "object" &&
			(block as Loose).type === "text" &&
			typeof (block as Loose).text === "string"
		) {
			texts.push((block as Loose).text as string);
		}
	}
	return texts.join(" ");
}

function tailTimestamp(line: string): number | undefined {
	const at = line.lastIndexOf('"timestamp":');
	if (at < 0) return undefined;
	MESSAGE_TAIL_TIMESTAMP.lastIndex = at;
	const match = MESSAGE_TAIL_TIMESTAMP.exec(line);
	return match ? Number(match[1]) : undefined;
}

function parseLine(line: string): Loose | undefined {
	try {
		const value: unknown = JSON.parse(line);
		return value && typeof value === "object" && !Array.isArray(value) ? (value as Loose) : undefined;
	} catch {
		return undefined;
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
export function collectAllMessagesText(text: string): string {
	const parts: string[] = [];
	for (const line of text.split("\n")) {
		if (!line.includes('"message"')) continue;
		const entry = parseLine(line);
		const message = entry?.type === "message" ? (entry.message as Loose | undefined) : undefined;
		if (message?.role !== "user" && message?.role !== "assistant") continue;
		const messageText = textOf(message.content);
		if (messageText) parts.push(messageText);
	}
	return parts.join(" ");
}

/**
 * The listing of one session file's text, or undefined when it is not a session file. Reads each line only as
 * far as it needs to: message lines are counted and dated from their first and last bytes; only the first user
 * message and `session_info` lines are parsed. `allMessagesText` is read from the file on first access.
 */
export function summarizeSessionText(text: string, path: string, fileMtimeMs: number): SessionInfo | undefined {
	let header: SessionHeader | undefined;
	let name: string | undefined;
	let messageCount = 0;
	let firstMessage: string | undefined;
	let lastActivity: number | undefined;
	const noteActivity = (ms: number | undefined) => {
		if (ms !== undefined && (lastActivity === undefined || ms > lastActivity)) lastActivity = ms;
	};
	const handleParsed = (entry: Loose) => {
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
			const messageText = textOf(message.content);
			if (messageText) firstMessage = messageText;
		}
	};

	let start = 0;
	while (start < text.length) {
		let end = text.indexOf("\n", start);
		if (end === -1) end = text.length;
		const lineStart = start;
		start = end + 1;
		if (end === lineStart) continue;
		const line = text.slice(lineStart, end);
		if (!header) {
			const first = parseLine(line);
			if (!first) continue; // Blank or unparseable: the first parseable line decides.
			if (!isSessionHeader(first)) return undefined;
			header = first;
			continue;
		}
		MESSAGE_LINE_PREFIX.lastIndex = 0;
		const prefix = MESSAGE_LINE_PREFIX.exec(line);
		if (prefix) {
			const role = prefix[1];
			if (role !== "user" && role !== "assistant") {
				messageCount++;
				continue;
			}
			if (role === "assistant" || firstMessage !== undefined) {
				const ms = tailTimestamp(line);
				if (ms !== undefined) {
					messageCount++;
					noteActivity(ms);
					continue;
				}
			}
		} else if (
			line.startsWith('{"type":"') &&
			!line.startsWith('{"type":"session_info"') &&
			!line.startsWith('{"type":"message"')
		) {
			continue; // Another kind in the usual key order: nothing listings need.
		}
		const entry = parseLine(line);
		if (entry) handleParsed(entry);
	}
	if (!header) return undefined;

	const created = Date.parse(header.timestamp);
	const modified = lastActivity ?? (Number.isNaN(created) ? fileMtimeMs : created);
	const info: SessionInfo = {
		path,
		id: header.id,
		cwd: typeof header.cwd === "string" ? header.cwd : "",
		...(name !== undefined ? { name } : {}),
		...(typeof header.parentSession === "string" ? { parentSessionPath: header.parentSession } : {}),
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
					allMessagesText = collectAllMessagesText(readFileSync(path, "utf8"));
				} catch {
					allMessagesText = "";
				}
			}
			return allMessagesText;
		},
	});
	return info;
}

const READ_CONCURRENCY = 16;

async function summarizeFile(path: string): Promise<SessionInfo | undefined> {
	try {
		const [text, stats] = await Promise.all([readFile(path, "utf8"), stat(path)]);
		return summarizeSessionText(text, path, stats.mtimeMs);
	} catch {
		return undefined; // Vanished or unreadable: not listed.
	}
}

function byModifiedDesc(a: SessionInfo, b: SessionInfo): number {
	return b.modified.getTime() - a.modified.getTime();
}

async function summarizeDirectory(dir: string): Promise<SessionInfo[]> {
	let names: string[];
	try {
		names = await readdir(dir);
	} catch {
		return [];
	}
	const paths = names.filter((name) => name.endsWith(".jsonl")).map((name) => join(dir, name));
	const sessions: SessionInfo[] = [];
	for (let i = 0; i < paths.length; i += READ_CONCURRENCY) {
		const batch = await Promise.all(paths.slice(i, i + READ_CONCURRENCY).map(summarizeFile));
		for (const info of batch) if (info) sessions.push(info);
	}
	return sessions;
}

/** Sessions stored directly in `dir` (not recursive), newest first. */
export async function listSessionsInDir(dir: string): Promise<SessionInfo[]> {
	return (await summarizeDirectory(dir)).sort(byModifiedDesc);
}

/** Sessions of every project (each folder under `<agentDir>/sessions`), newest first. */
export async function listAllSessions(agentDir: string = getAgentDir()): Promise<SessionInfo[]> {
	const root = getSessionsRoot(agentDir);
	let dirs: string[];
	try {
		dirs = (await readdir(root, { withFileTypes: true }))
			.filter((d) => d.isDirectory())
			.map((d) => join(root, d.name));
	} catch {
		return [];
	}
	const sessions: SessionInfo[] = [];
	for (const dir of dirs) sessions.push(...(await summarizeDirectory(dir)));
	return sessions.sort(byModifiedDesc);
}

/** The first line of a file when it is a valid session header. Reads only the head of the file. */
function readHeaderLine(path: string): SessionHeader | undefined {
	for (const size of [512, 65536]) {
		const head = readFileHead(path, size);
		const newline = head.indexOf("\n");
		if (newline < 0 && head.length >= size) continue; // The header is longer than this read.
		const first = newline < 0 ? head : head.slice(0, newline);
		try {
			const value: unknown = JSON.parse(first);
			return isSessionHeader(value) ? value : undefined;
		} catch {
			return undefined;
		}
	}
	return undefined;
}

/**
 * `-c`: the `.jsonl` file of `sessionDir` with the newest modification time whose first line is a valid
 * header, or undefined.
 */
export function findMostRecentSession(sessionDir: string): string | undefined {
	let names: string[];
	try {
		names = readdirSync(sessionDir);
	} catch {
		return undefined;
	}
	let best: { path: string; mtimeMs: number } | undefined;
	for (const name of names) {
		if (!name.endsWith(".jsonl")) continue;
		const path = join(sessionDir, name);
		try {
			const { mtimeMs } = statSync(path);
			if (best && mtimeMs <= best.mtimeMs) continue;
			if (readHeaderLine(path)) best = { path, mtimeMs };
		} catch {
			// Unreadable: skipped.
		}
	}
	return best?.path;
}

export type SessionArgumentResolution =
	/** A path (opened as is, created lazily when missing). */
	| { kind: "path"; path: string }
	/** The newest session of this project whose id starts with the argument. */
	| { kind: "project"; session: SessionInfo }
	/** Found only in another project: the CLI asks whether to fork it here (`SessionManager.forkFrom`). */
	| { kind: "other-project"; session: SessionInfo }
	| { kind: "not-found" };

/** `--session <arg>` (cli.md §7): a path when it contains `/` or `\` or ends in `.jsonl`, else an id prefix. */
export async function resolveSessionArgument(
	arg: string,
	cwd: string,
	options: { sessionDir?: string; agentDir?: string } = {},
): Promise<SessionArgumentResolution> {
	if (arg.includes("/") || arg.includes("\\") || arg.endsWith(".jsonl"))
		return { kind: "path", path: resolve(cwd, arg) };
	const agentDir = options.agentDir ?? getAgentDir();
	const local = await listSessionsInDir(options.sessionDir ?? getSessionDirForCwd(cwd, agentDir));
	const inProject = local.find((session) => session.id.startsWith(arg));
	if (inProject) return { kind: "project", session: inProject };
	const everywhere = await listAllSessions(agentDir);
	const elsewhere = everywhere.find((session) => session.id.startsWith(arg));
	return elsewhere ? { kind: "other-project", session: elsewhere } : { kind: "not-found" };
}

/** The `--session` error for an id prefix that matches nothing (exit code 1). */
export function noSessionFoundMessage(arg: string): string {
	return `No session found matching '${arg}'`;
}
