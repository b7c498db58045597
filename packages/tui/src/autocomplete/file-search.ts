import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fuzzyMatch } from "./fuzzy.js";
import { type IgnoreRule, isIgnored, parseGitignore } from "./gitignore.js";

export interface FileEntry {
	/** Path relative to the base directory, "/"-separated; directories end with "/". */
	path: string;
	isDirectory: boolean;
}

export interface FileIndexOptions {
	/** Use `fd` at this path to list files instead of walking the tree in-process. */
	fdPath?: string | null;
	/** At most this many entries are indexed. */
	maxEntries?: number;
	/** The index is rebuilt when older than this (ms). */
	maxAgeMs?: number;
	now?: () => number;
}

const DEFAULT_MAX_ENTRIES = 50_000;
const DEFAULT_MAX_AGE_MS = 5_000;
const MAX_DEPTH = 32;

/**
 * The files and directories under a base directory, honouring .gitignore files (nested ones too) and
 * .git/info/exclude, including hidden files, never descending into .git. Built lazily and cached.
 */
export class FileIndex {
	private entries: FileEntry[] | undefined;
	private builtAt = 0;

	constructor(
		private readonly basePath: string,
		private readonly options: FileIndexOptions = {},
	) {}

	/** Entries fuzzily matching `query`, best first; with an empty query, the shallowest entries. */
	search(query: string, limit: number): FileEntry[] {
		const entries = this.getEntries();
		if (query.length === 0) {
			return [...entries]
				.sort((a, b) => depthOf(a.path) - depthOf(b.path) || a.path.localeCompare(b.path))
				.slice(0, limit);
		}
		const scored: { entry: FileEntry; score: number }[] = [];
		for (const entry of entries) {
			const score = scorePath(query, entry.path);
			if (score !== undefined) scored.push({ entry, score });
		}
		scored.sort((a, b) => a.score - b.score || a.entry.path.length - b.entry.path.length);
		return scored.slice(0, limit).map((item) => item.entry);
	}

	/** Forgets the cached listing (the next search lists the files again). */
	refresh(): void {
		this.entries = undefined;
	}

	private getEntries(): FileEntry[] {
		const now = this.options.now?.() ?? Date.now();
		if (!this.entries || now - this.builtAt > (this.options.maxAgeMs ?? DEFAULT_MAX_AGE_MS)) {
			this.entries = this.options.fdPath ? this.listWithFd(this.options.fdPath) : this.walk();
			this.builtAt = now;
		}
		return this.entries;
	}

	private walk(): FileEntry[] {
		const maxEntries = this.options.maxEntries ?? DEFAULT_MAX_ENTRIES;
		const entries: FileEntry[] = [];
		const rootRules = [
			...readRules(join(this.basePath, ".git", "info", "exclude"), ""),
			...readRules(join(this.basePath, ".gitignore"), ""),
		];
		const visit = (relativeDir: string, rules: IgnoreRule[], depth: number) => {
			if (entries.length >= maxEntries || depth > MAX_DEPTH) return;
			let dirents: import("node:fs").Dirent[];
			try {
				dirents = readdirSync(join(this.basePath, relativeDir), { withFileTypes: true });
			} catch {
				return;
			}
			dirents.sort((a, b) => a.name.localeCompare(b.name));
			const subdirectories: { path: string; rules: IgnoreRule[] }[] = [];
			for (const dirent of dirents) {
				if (dirent.name === ".git") continue;
				const path = relativeDir === "" ? dirent.name : `${relativeDir}/${dirent.name}`;
				const isDirectory = dirent.isDirectory();
				if (!isDirectory && !dirent.isFile() && !dirent.isSymbolicLink()) continue;
				if (isIgnored(rules, path, isDirectory)) continue;
				entries.push({ path: isDirectory ? `${path}/` : path, isDirectory });
				if (entries.length >= maxEntries) return;
				if (isDirectory) {
					const nested = readRules(join(this.basePath, path, ".gitignore"), path);
					subdirectories.push({ path, rules: nested.length > 0 ? [...rules, ...nested] : rules });
				}
			}
			for (const sub of subdirectories) visit(sub.path, sub.rules, depth + 1);
		};
		visit("", rootRules, 0);
		return entries;
	}

	private listWithFd(fdPath: string): FileEntry[] {
		const maxEntries = this.options.maxEntries ?? DEFAULT_MAX_ENTRIES;
		// Separate runs for files and directories: fd's trailing "/" on directories varies by version.
		const list = (type: "f" | "d"): string[] | undefined => {
			const result = spawnSync(
				fdPath,
				[
					"--base-directory",
					this.basePath,
					"--max-results",
					String(maxEntries),
					"--type",
					type,
					"--hidden",
					"--exclude",
					".git",
				],
				{ encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
			);
			if (result.status !== 0 || typeof result.stdout !== "string") return undefined;
			return result.stdout
				.split("\n")
				.filter(Boolean)
				.map((line) => line.replace(/\\/g, "/").replace(/^\.\//, "").replace(/\/$/, ""));
		};
		const files = list("f");
		const directories = list("d");
		if (!files || !directories) return this.walk();
		return [
			...directories.map((path) => ({ path: `${path}/`, isDirectory: true })),
			...files.map((path) => ({ path, isDirectory: false })),
		].slice(0, maxEntries);
	}
}

function readRules(file: string, base: string): IgnoreRule[] {
	try {
		return parseGitignore(readFileSync(file, "utf8"), base);
	} catch {
		return [];
	}
}

function depthOf(path: string): number {
	return path.replace(/\/$/, "").split("/").length;
}

/** Lower is better; matches on the file name beat matches spread over the directories. */
function scorePath(query: string, path: string): number | undefined {
	const trimmed = path.replace(/\/$/, "");
	const name = trimmed.slice(trimmed.lastIndexOf("/") + 1);
	const full = fuzzyMatch(query, trimmed);
	if (!full.matches) return undefined;
	const onName = query.includes("/") ? undefined : fuzzyMatch(query, name);
	const best = onName?.matches ? Math.min(full.score, onName.score - 0.5) : full.score;
	return best + depthOf(path) * 0.01;
}
