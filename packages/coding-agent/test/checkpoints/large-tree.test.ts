// A 50,000-file working tree: indexed once, then each bash command's changes found exactly (by notification and
// by rescanning), and the file limit's notice. The tree is written once for the file (writing and removing 50,000
// files is most of the time these tests take on a busy machine); each test leaves it as it found it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
	bash,
	checkpointEntries,
	createCheckpointHarness,
	runTurn,
	toolCalls,
	userEntryId,
} from "../helpers/checkpoint-fixtures.js";
import type { RuntimeHarness } from "../helpers/runtime-harness.js";

const FILES = 50_000;
const PER_DIR = 100;
const CHANGED = 31_337;
const DELETED = 4_242;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function fileOf(i: number): string {
	return `d${Math.floor(i / PER_DIR / 20)}/s${Math.floor(i / PER_DIR)}/f${i % PER_DIR}.txt`;
}

let root: string;
let cwd: string;

beforeAll(async () => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "agent-large-tree-")));
	cwd = join(root, "project");
	for (let i = 0; i < FILES; i++) {
		if (i % PER_DIR === 0) {
			mkdirSync(join(cwd, fileOf(i), ".."), { recursive: true });
			// Keep the worker answering vitest while the files are written.
			await yieldToEventLoop();
		}
		writeFileSync(join(cwd, fileOf(i)), `file ${i}\n`);
	}
}, 600_000);

// Not rmSync: removing 50,000 files can take a minute on a busy machine, and the worker must keep answering vitest.
afterAll(async () => {
	if (root) await rm(root, { recursive: true, force: true });
}, 600_000);

let harness: RuntimeHarness | undefined;
/** Files of the tree a test changed (besides the two every test may change), with their contents. */
const touched = new Map<string, string>();
afterEach(() => {
	harness?.dispose();
	harness = undefined;
	// The tree as it was written, whatever a failed test left.
	for (const i of [CHANGED, DELETED]) touched.set(fileOf(i), `file ${i}\n`);
	for (const [path, content] of touched) writeFileSync(join(cwd, path), content);
	touched.clear();
	rmSync(join(cwd, "new.txt"), { force: true });
});

describe.each([{ watch: true }, { watch: false }])("a 50,000-file tree (watch: $watch)", ({ watch }) => {
	it("records exactly what a bash command changed, and restores it", async () => {
		harness = await createCheckpointHarness({ root, settings: { checkpoints: { watch } } });
		const h = harness;
		const changed = fileOf(CHANGED);
		const deleted = fileOf(DELETED);
		await runTurn(h, "t1", toolCalls(bash(`echo more >> ${changed} && rm ${deleted} && echo n > new.txt`)));
		const index = await h.session.checkpoints.recorder.ensureIndex();
		// One deleted, one created.
		expect(index?.trackedFiles).toBe(FILES);
		expect(h.session.checkpoints.recorder.isWatching).toBe(watch);
		const files = checkpointEntries(h.sessionManager.getEntries()).flatMap((entry) => entry.files);
		expect(files.map((file) => file.path).sort()).toEqual([changed, deleted, "new.txt"].sort());
		expect(files.find((file) => file.path === deleted)?.after).toBeNull();
		expect(files.find((file) => file.path === "new.txt")?.before).toBeNull();

		const point = h.sessionManager.getEntry(userEntryId(h, "t1"))?.parentId as string;
		const result = h.session.restoreFiles(point);
		expect(result).toMatchObject({ restored: [changed, deleted].sort(), removed: ["new.txt"], conflicts: [] });
		expect(readFileSync(join(h.cwd, changed), "utf8")).toBe(`file ${CHANGED}\n`);
		expect(readFileSync(join(h.cwd, deleted), "utf8")).toBe(`file ${DELETED}\n`);
		expect(existsSync(join(h.cwd, "new.txt"))).toBe(false);
		expect(h.eventsOf("checkpoint_notice")).toEqual([]);
	}, 300_000);
});

describe("the file limit", () => {
	it("says once that only the first files are tracked, and records what changes in those", async () => {
		harness = await createCheckpointHarness({ root, settings: { checkpoints: { maxFiles: 20_000 } } });
		const h = harness;
		await runTurn(h, "t1", toolCalls(bash("echo n > new.txt")));
		const index = await h.session.checkpoints.recorder.ensureIndex();
		expect(index?.trackedFiles).toBe(20_000);
		// At the limit, a new file is not tracked either.
		expect(checkpointEntries(h.sessionManager.getEntries())).toEqual([]);

		const tracked = [...(index?.entries ?? [])].find(([, entry]) => entry.kind === "file")?.[0] as string;
		touched.set(tracked, readFileSync(join(cwd, tracked), "utf8"));
		await runTurn(h, "t2", toolCalls(bash(`echo more >> ${tracked}`)));
		const files = checkpointEntries(h.sessionManager.getEntries()).flatMap((entry) => entry.files);
		expect(files.map((file) => file.path)).toEqual([tracked]);

		const notices = h.eventsOf("checkpoint_notice").map((event) => event.message);
		expect(notices).toEqual([
			`File checkpoints track the first 20,000 files of ${h.cwd} (checkpoints.maxFiles); what bash changes in the others is not recorded.`,
		]);
	}, 300_000);
});
