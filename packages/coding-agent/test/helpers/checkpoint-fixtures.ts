// File-checkpoint tests: an AgentSession on the faux provider in a real temp directory (with or without git),
// scripted replies that call edit, write and bash, and readers for the tree and the recorded entries.
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type FauxBlock, type FauxResponse, fauxText } from "@agent/ai";
import type { Settings } from "../../src/core/config/settings-schema.js";
import type { FileCheckpointEntry, SessionEntry } from "../../src/core/session/entries.js";
import { createRuntimeHarness, type RuntimeHarness } from "./runtime-harness.js";

export interface CheckpointHarnessOptions {
	files?: Record<string, string>;
	/** Make the working directory a git repository with one commit of `files`. */
	git?: boolean;
	settings?: Settings;
	persist?: boolean;
	/** Reuse this root (its `project/` is the working directory); the harness then leaves it on dispose. */
	root?: string;
}

export async function createCheckpointHarness(options: CheckpointHarnessOptions = {}): Promise<RuntimeHarness> {
	const harness = await createRuntimeHarness({
		files: options.files ?? {},
		...(options.settings ? { settings: options.settings } : {}),
		...(options.persist !== undefined ? { persist: options.persist } : {}),
		...(options.root !== undefined ? { root: options.root } : {}),
		mcp: false,
	});
	if (options.git) initGitRepository(harness.cwd);
	return harness;
}

/** `git init` with everything committed (skipped silently when git is missing: the caller checks). */
export function initGitRepository(cwd: string): void {
	const git = (...args: string[]) =>
		spawnSync("git", args, {
			cwd,
			stdio: "ignore",
			env: {
				...process.env,
				GIT_AUTHOR_NAME: "t",
				GIT_AUTHOR_EMAIL: "t@t",
				GIT_COMMITTER_NAME: "t",
				GIT_COMMITTER_EMAIL: "t@t",
			},
		});
	git("init", "-q");
	git("add", "-A");
	git("commit", "-q", "-m", "initial");
}

export function isGitAvailable(): boolean {
	const result = spawnSync("git", ["--version"], { stdio: "ignore" });
	return !result.error && result.status === 0;
}

export type ToolCallSpec = { name: string; arguments: Record<string, unknown>; id?: string };

/** A reply calling the given tools (in parallel). */
export function toolCalls(...calls: ToolCallSpec[]): FauxResponse {
	return { content: calls.map((call): FauxBlock => ({ type: "toolCall", ...call })) };
}

export const edit = (path: string, oldText: string, newText: string, id?: string): ToolCallSpec => ({
	name: "edit",
	arguments: { path, oldText, newText },
	...(id ? { id } : {}),
});
export const write = (path: string, content: string, id?: string): ToolCallSpec => ({
	name: "write",
	arguments: { path, content },
	...(id ? { id } : {}),
});
export const bash = (command: string, id?: string): ToolCallSpec => ({
	name: "bash",
	arguments: { command },
	...(id ? { id } : {}),
});

/** Runs one prompt whose turn makes the given tool-call replies, then answers `done`. */
export async function runTurn(harness: RuntimeHarness, prompt: string, ...replies: FauxResponse[]): Promise<void> {
	harness.faux.enqueue(...replies, fauxText("done"));
	await harness.session.prompt(prompt);
}

/** Every file and link under `root` (not `.git`), with contents ("-> target" for links). */
export function readTree(root: string, skip: readonly string[] = [".git"]): Record<string, string> {
	const tree: Record<string, string> = {};
	const visit = (dir: string, prefix: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			if (skip.includes(entry.name)) continue;
			const abs = join(dir, entry.name);
			const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
			const stats = lstatSync(abs);
			if (stats.isSymbolicLink()) tree[rel] = `-> ${readlinkSync(abs)}`;
			else if (stats.isDirectory()) visit(abs, rel);
			else tree[rel] = readFileSync(abs, "utf8");
		}
	};
	visit(root, "");
	return tree;
}

export function writeFiles(root: string, files: Record<string, string>): void {
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), content);
	}
}

export function checkpointEntries(entries: readonly SessionEntry[]): FileCheckpointEntry[] {
	return entries.filter((entry): entry is FileCheckpointEntry => entry.type === "file_checkpoint");
}

/** The id of the user message entry whose text is `text` (on any branch). */
export function userEntryId(harness: RuntimeHarness, text: string): string {
	const entry = harness.sessionManager
		.getEntries()
		.find(
			(candidate) =>
				candidate.type === "message" &&
				candidate.message.role === "user" &&
				JSON.stringify(candidate.message.content).includes(JSON.stringify(text).slice(1, -1)),
		);
	if (!entry) throw new Error(`no user message "${text}"`);
	return entry.id;
}
