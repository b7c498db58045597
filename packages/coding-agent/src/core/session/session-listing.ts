// Finding sessions: listings for the resume picker, `-c`, and `--session <id-prefix>` (docs/session-format.md "Listing sessions").
// What one file contributes to a listing is computed in session-summary.ts.
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { getAgentDir, getSessionsRoot } from "../config/paths.js";
import type { SessionHeader, SessionInfo } from "./entries.js";
import { isSessionHeader, readFileHead } from "./session-file.js";
import { getSessionDirForCwd } from "./session-paths.js";
import { summarizeSessionFile } from "./session-summary.js";

/** Files read between two yields to the event loop, so a long listing never freezes the UI for long. */
const FILES_PER_SLICE = 32;

function yieldToEventLoop(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}

/** Reads a whole file into `buffer` (grown when too small); returns the buffer used and the file's mtime. */
function readInto(path: string, buffer: Buffer): { buffer: Buffer; length: number; mtimeMs: number } {
	const fd = openSync(path, "r");
	try {
		const stats = fstatSync(fd);
		const target = stats.size > buffer.length ? Buffer.allocUnsafe(stats.size) : buffer;
		let length = 0;
		while (length < stats.size) {
			const bytesRead = readSync(fd, target, length, stats.size - length, length);
			if (bytesRead === 0) break;
			length += bytesRead;
		}
		return { buffer: target, length, mtimeMs: stats.mtimeMs };
	} finally {
		closeSync(fd);
	}
}

/**
 * Summarizes files through one buffer reused from file to file: listing 1,000 sessions would otherwise allocate
 * (and collect) hundreds of MB. Reads are synchronous, which for files in the page cache costs a fraction of
 * promise-based reads, in slices between which the event loop runs.
 */
async function summarizeFiles(paths: readonly string[]): Promise<SessionInfo[]> {
	const sessions: SessionInfo[] = [];
	let buffer: Buffer = Buffer.allocUnsafe(256 * 1024);
	for (let i = 0; i < paths.length; i++) {
		if (i > 0 && i % FILES_PER_SLICE === 0) await yieldToEventLoop();
		const path = paths[i] as string;
		try {
			const read = readInto(path, buffer);
			buffer = read.buffer;
			const info = summarizeSessionFile(buffer.subarray(0, read.length), path, read.mtimeMs);
			if (info) sessions.push(info);
		} catch {
			// Vanished or unreadable: not listed.
		}
	}
	return sessions;
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
	return summarizeFiles(names.filter((name) => name.endsWith(".jsonl")).map((name) => join(dir, name)));
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

/** `--session <arg>`: a path when it contains `/` or `\` or ends in `.jsonl`, else an id prefix. */
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
