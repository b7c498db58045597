import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COMPILE_CACHE_MAX_AGE_MS, pruneCompileCache } from "../../src/cli/compile-cache.js";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("pruning the compile cache", () => {
	let dir: string;
	const now = Date.UTC(2026, 10, 26);

	/** Writes a cache entry last written `ageMs` before `now`. */
	const entry = (path: string, ageMs: number): string => {
		const full = join(dir, path);
		mkdirSync(join(full, ".."), { recursive: true });
		writeFileSync(full, "cached code");
		const time = new Date(now - ageMs);
		utimesSync(full, time, time);
		return full;
	};

	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), "compile-cache-"));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it("removes entries nobody wrote for 30 days, and a Node version's directory left empty", () => {
		const stale = entry("v22.1-x64-aaaa/0badc0de", COMPILE_CACHE_MAX_AGE_MS + DAY_MS);
		const fresh = entry("v22.1-x64-aaaa/1234abcd", DAY_MS);
		const oldNode = entry("v22.0-x64-bbbb/5678ef01", COMPILE_CACHE_MAX_AGE_MS + DAY_MS);
		pruneCompileCache(dir, now);
		expect(existsSync(stale)).toBe(false);
		expect(existsSync(fresh)).toBe(true);
		expect(existsSync(oldNode)).toBe(false);
		expect(existsSync(join(dir, "v22.0-x64-bbbb"))).toBe(false);
	});

	it("keeps a directory that was empty already: Node makes it when the cache is enabled, and writes at exit", () => {
		mkdirSync(join(dir, "v22.1-x64-aaaa"));
		pruneCompileCache(dir, now);
		expect(existsSync(join(dir, "v22.1-x64-aaaa"))).toBe(true);
	});

	it("runs at most once a day", () => {
		pruneCompileCache(dir, now - DAY_MS / 2);
		const stale = entry("v22.1-x64-aaaa/0badc0de", COMPILE_CACHE_MAX_AGE_MS + DAY_MS);
		const marker = join(dir, ".pruned");
		const half = new Date(now - DAY_MS / 2);
		utimesSync(marker, half, half);
		pruneCompileCache(dir, now);
		expect(existsSync(stale)).toBe(true);
		const yesterday = new Date(now - DAY_MS - 1);
		utimesSync(marker, yesterday, yesterday);
		pruneCompileCache(dir, now);
		expect(existsSync(stale)).toBe(false);
	});

	it("creates the directory when Node has not yet", () => {
		rmSync(dir, { recursive: true });
		pruneCompileCache(dir, now);
		expect(existsSync(join(dir, ".pruned"))).toBe(true);
	});
});
