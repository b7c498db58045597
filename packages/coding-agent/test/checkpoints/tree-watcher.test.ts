import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isWatchingSupported, TreeWatcher } from "../../src/core/checkpoints/tree-watcher.js";

describe.runIf(isWatchingSupported())("TreeWatcher barriers", () => {
	let root: string;
	let watcher: TreeWatcher;
	let brokenReasons: string[];

	beforeEach(() => {
		root = realpathSync(mkdtempSync(join(tmpdir(), "tree-watcher-")));
		brokenReasons = [];
		watcher = new TreeWatcher(root, (reason) => brokenReasons.push(reason));
		expect(watcher.add(root)).toBe(true);
	});

	afterEach(() => {
		watcher.dispose();
		rmSync(root, { recursive: true, force: true });
	});

	it("reports each change made before the barrier, barrier after barrier, with or without changes", async () => {
		for (let round = 0; round < 40; round++) {
			// Rounds without a change: successive barriers must not be merged into one event by the kernel.
			if (round % 3 === 0) {
				expect([...(await watcher.takeChanges()).paths]).toEqual([]);
				continue;
			}
			writeFileSync(join(root, `file-${round}`), String(round));
			expect([...(await watcher.takeChanges()).paths]).toEqual([`file-${round}`]);
		}
		expect(brokenReasons).toEqual([]);
		expect(watcher.isBroken).toBe(false);
	});

	it("resolves barriers taken at the same time, in order", async () => {
		writeFileSync(join(root, "first"), "1");
		const results = await Promise.all([watcher.takeChanges(), watcher.takeChanges(), watcher.takeChanges()]);
		// The first barrier hands over the change; the others find nothing new.
		expect(results.map((changes) => [...changes.paths])).toEqual([["first"], [], []]);
		expect(watcher.isBroken).toBe(false);
	});

	it("falls back to scanning, without failing the command, when its barrier directory disappears", async () => {
		// The barrier directory is made at the first barrier, under the temporary directory of that moment.
		const privateTemp = mkdtempSync(join(tmpdir(), "tree-watcher-tmp-"));
		const savedTmpdir = process.env.TMPDIR;
		process.env.TMPDIR = privateTemp;
		try {
			await watcher.takeChanges();
		} finally {
			if (savedTmpdir === undefined) delete process.env.TMPDIR;
			else process.env.TMPDIR = savedTmpdir;
		}
		const barrierDirs = readdirSync(privateTemp);
		expect(barrierDirs).toHaveLength(1);
		rmSync(privateTemp, { recursive: true, force: true });
		const changes = await watcher.takeChanges();
		expect(changes.paths.size).toBe(0);
		expect(watcher.isBroken).toBe(true);
		expect(brokenReasons).toHaveLength(1);
		expect(brokenReasons[0]).toMatch(/barrier could not be written/);
	});
});
