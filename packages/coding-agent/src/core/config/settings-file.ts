import { mkdir, readFile, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "../tools/atomic-write.js";
import { findJsonSyntaxErrorOffset } from "./settings-json-location.js";

/** The JSON text of a settings object as written to disk: 2-space indentation, no trailing newline. */
export function serializeSettings(settings: Record<string, unknown>): string {
	return JSON.stringify(settings, null, 2);
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
	const before = text.slice(0, Math.min(position, text.length));
	const lines = before.split("\n");
	return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/**
 * Parses a JSON file that must hold an object. An empty file counts as `{}`. A problem comes back as a message
 * naming the file and the line and column it was found at. `what` names the content for that message.
 */
export function parseJsonObjectText(
	text: string,
	path: string,
	what: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
	const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	if (source.trim() === "") return { ok: true, value: {} };
	let value: unknown;
	try {
		value = JSON.parse(source);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		const positionMatch = / at position (\d+)/.exec(reason);
		const position = positionMatch ? Number(positionMatch[1]) : (findJsonSyntaxErrorOffset(source) ?? source.length);
		const { line, column } = lineAndColumn(source, position);
		// Node quotes the whole text in some messages (`Unexpected token '}', "{…}" is not valid JSON`).
		const cleanReason = reason
			.replace(/ in JSON at position \d+.*$/, "")
			.replace(/, ".*" is not valid JSON$/s, "")
			.replace(/^Unexpected end of JSON input$/, "Unexpected end of input");
		return { ok: false, message: `Invalid JSON in ${path} at line ${line}, column ${column}: ${cleanReason}` };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return { ok: false, message: `Invalid ${what} in ${path}: expected a JSON object at the top level` };
	}
	return { ok: true, value: value as Record<string, unknown> };
}

/** Parses the text of a settings file (see `parseJsonObjectText`); the caller decides what to do — never overwrite. */
export function parseSettingsText(
	text: string,
	path: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
	return parseJsonObjectText(text, path, "settings");
}

const LOCK_STALE_MS = 10_000;
const LOCK_TIMEOUT_MS = 5_000;

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Takes the lock `<path>.lock` (a directory: `mkdir` is atomic on every file system we run on, and other
 * programs using proper-lockfile agree on it). A lock older than 10 s is left over from a crashed process
 * and is taken over. Returns the release function.
 */
async function acquireLock(path: string): Promise<() => Promise<void>> {
	const lockPath = `${path}.lock`;
	const deadline = Date.now() + LOCK_TIMEOUT_MS;
	let wait = 5;
	while (true) {
		try {
			await mkdir(lockPath);
			return () => rm(lockPath, { recursive: true, force: true });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
		}
		try {
			const lockStats = await stat(lockPath);
			if (Date.now() - lockStats.mtimeMs > LOCK_STALE_MS) {
				await rm(lockPath, { recursive: true, force: true });
				continue;
			}
		} catch {
			continue; // released between our mkdir and stat
		}
		if (Date.now() > deadline) throw new Error(`Timed out waiting for the lock ${lockPath}`);
		await delay(wait);
		wait = Math.min(wait * 2, 100);
	}
}

/**
 * Read-modify-write of a settings file under its lock: `update` gets the current text (undefined when the file
 * does not exist) and returns the new text, or undefined to leave the file alone.
 */
export async function updateFileLocked(
	path: string,
	update: (current: string | undefined) => string | undefined,
): Promise<void> {
	await mkdir(dirname(path), { recursive: true });
	const release = await acquireLock(path);
	try {
		let current: string | undefined;
		try {
			current = await readFile(path, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
		}
		const next = update(current);
		if (next !== undefined && next !== current) await writeFileAtomic(path, next);
	} finally {
		await release();
	}
}
