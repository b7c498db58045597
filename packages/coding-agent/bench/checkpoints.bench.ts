// File checkpoints (issue 19; docs/checkpoints.md): what recording costs a tool call, and how long a restore takes.
//
// Targets (issue 19): recording overhead < 2 ms per edit/write call and < 30 ms per bash call in a 50,000-file
// tree; restoring 100 files < 200 ms.
//
// Method. A 50,000-file working tree (1 KB TypeScript-like files, 500 directories, plus 5,000 ignored files in
// node_modules and dist) and a persisted session file beside it. The real edit, write and bash tools run wrapped by
// `SessionCheckpoints.wrapTool`, as in an AgentSession; each call's own work (the inner tool) is timed inside the
// wrapper, and the overhead is the wrapped call's wall time minus that, plus writing the `file_checkpoint` entry
// (`beforeRecordMessage`, as just before the tool result is appended). Subtracting the inner time per call keeps
// the spawn time of bash (which varies a lot on a busy machine) out of the figure. Figures are medians after a
// warm-up call, with p90 alongside.
// - index: the one-time walk of the tree when the first prompt starts (every file read and stored in one pack).
// - edit/write: a 10 KB file changed in place / rewritten.
// - bash: `echo … > file` with file-system notifications (the default on Linux), and with `checkpoints.watch:
//   false`, the fallback that compares the whole tree by stat around each command (no target; reported).
// - restore: 100 files that one bash command changed, restored to before it and back again, alternately.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentTool } from "@agent/agent-core";
import type { ToolResultMessage } from "@agent/ai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BenchFigure, median, reportBenchmark } from "../../../scripts/bench-report.js";
import { SessionCheckpoints } from "../src/core/checkpoints/session-checkpoints.js";
import { SettingsManager } from "../src/core/config/settings-manager.js";
import { SessionManager } from "../src/core/session/session-manager.js";
import { createBashTool, createEditTool, createWriteTool } from "../src/index.js";

const TREE_FILES = 50_000;
const FILES_PER_DIR = 100;
const IGNORED_FILES = 5_000;
const FILE_WRITE_RUNS = 40;
const BASH_RUNS = 15;
const SCAN_RUNS = 5;
const RESTORE_RUNS = 10;
const RESTORED_FILES = 100;

let root: string;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

const BODY = Array.from({ length: 24 }, (_, i) => `export const value${i} = compute(${i}, "text");`).join("\n");

async function generateTree(cwd: string): Promise<void> {
	mkdirSync(cwd, { recursive: true });
	writeFileSync(join(cwd, ".gitignore"), "node_modules/\ndist/\n");
	for (let i = 0; i < TREE_FILES; i++) {
		const dir = join(cwd, "packages", `p${Math.floor(i / 2000)}`, `m${Math.floor(i / FILES_PER_DIR)}`);
		if (i % FILES_PER_DIR === 0) {
			mkdirSync(dir, { recursive: true });
			await yieldToEventLoop();
		}
		writeFileSync(join(dir, `f${i}.ts`), `${BODY}\n// ${i}\n`);
	}
	for (let i = 0; i < IGNORED_FILES; i++) {
		const dir = join(cwd, i % 2 ? "node_modules" : "dist", `lib${i % 50}`);
		if (i < 100) mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, `f${i}.js`), `${BODY}\n`);
		if (i % 500 === 0) await yieldToEventLoop();
	}
	mkdirSync(join(cwd, "work"), { recursive: true });
	writeFileSync(join(cwd, "work", "edited.ts"), `${"x".repeat(10_000)}\nMARK 0\n`);
}

interface Setup {
	cwd: string;
	checkpoints: SessionCheckpoints;
	sessionManager: SessionManager;
	dispose(): void;
}

/** A persisted session in `cwd` with checkpoints (a user message and an answer, so the file is written). */
function setup(cwd: string, sessionDir: string, watch: boolean): Setup {
	const sessionManager = SessionManager.create(cwd, sessionDir);
	const settingsManager = SettingsManager.inMemory({ checkpoints: { watch } });
	const notices: string[] = [];
	const checkpoints = new SessionCheckpoints({
		cwd,
		sessionManager,
		settingsManager,
		notice: (message) => notices.push(message),
	});
	sessionManager.appendMessage({ role: "user", content: [{ type: "text", text: "bench" }], timestamp: Date.now() });
	sessionManager.appendMessage({
		role: "assistant",
		content: [{ type: "text", text: "ok" }],
		api: "bench",
		provider: "bench",
		model: "bench",
		usage: {
			input: 1,
			output: 1,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 2,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "stop",
		timestamp: Date.now(),
	});
	return {
		cwd,
		checkpoints,
		sessionManager,
		dispose: () => {
			expect(notices).toEqual([]);
			checkpoints.dispose();
			sessionManager.close();
		},
	};
}

function toolResult(toolCallId: string, toolName: string): ToolResultMessage {
	return { role: "toolResult", toolCallId, toolName, content: [], isError: false, timestamp: Date.now() };
}

let callCount = 0;

/**
 * Runs `tool` wrapped for checkpoints, then records its result as the session would; the recording overhead of
 * the call in ms (wrapped time minus the tool's own time, plus writing the checkpoint entry).
 */
async function recordedCall(s: Setup, tool: AgentTool, params: unknown): Promise<number> {
	let inner = 0;
	const timed: AgentTool = {
		...tool,
		execute: async (...args) => {
			const start = performance.now();
			try {
				return await tool.execute(...args);
			} finally {
				inner = performance.now() - start;
			}
		},
	};
	const wrapped = s.checkpoints.wrapTool(timed);
	const id = `call-${++callCount}`;
	const start = performance.now();
	const result = await wrapped.execute(id, params as never, undefined, undefined);
	s.checkpoints.beforeRecordMessage(toolResult(id, tool.name));
	const total = performance.now() - start;
	const text = result.content[0];
	if (text?.type === "text" && /error/i.test(text.text) && tool.name !== "bash") throw new Error(text.text);
	return total - inner;
}

beforeAll(async () => {
	root = mkdtempSync(join(tmpdir(), "agent-checkpoints-bench-"));
	await generateTree(join(root, "tree"));
}, 600_000);

// Not rmSync: removing 55,000 files can take a minute on a busy machine, and the worker must keep answering vitest.
afterAll(() => rm(root, { recursive: true, force: true }), 600_000);

it("records edit, write and bash calls in a 50,000-file tree, and restores 100 files", async () => {
	const figures: BenchFigure[] = [];
	const cwd = join(root, "tree");
	const load = loadavg()[0]?.toFixed(1);

	// ── watching (the default) ──
	const s = setup(cwd, join(root, "sessions"), true);
	const indexStart = performance.now();
	const index = await s.checkpoints.recorder.ensureIndex();
	const indexMs = performance.now() - indexStart;
	expect(index?.trackedFiles).toBe(TREE_FILES + 2);
	expect(s.checkpoints.recorder.isWatching).toBe(true);
	figures.push({
		name: `index ${TREE_FILES.toLocaleString("en-US")} files (once, at the first prompt)`,
		value: indexMs,
		unit: "ms",
	});

	const edit = createEditTool(cwd);
	const write = createWriteTool(cwd);
	const bash = createBashTool(cwd);

	const editTimes: number[] = [];
	for (let i = 0; i <= FILE_WRITE_RUNS; i++) {
		const overhead = await recordedCall(s, edit, {
			path: "work/edited.ts",
			oldText: `MARK ${i}`,
			newText: `MARK ${i + 1}`,
		});
		if (i > 0) editTimes.push(overhead);
	}
	figures.push({
		name: "edit: recording overhead per call (10 KB file)",
		value: median(editTimes),
		unit: "ms",
		target: { max: 2 },
		note: `p90 ${percentile(editTimes, 0.9).toFixed(2)} ms`,
	});

	const writeTimes: number[] = [];
	for (let i = 0; i <= FILE_WRITE_RUNS; i++) {
		const overhead = await recordedCall(s, write, {
			path: `work/written-${i % 4}.ts`,
			content: `${"y".repeat(10_000)}\n${i}\n`,
		});
		if (i > 0) writeTimes.push(overhead);
	}
	figures.push({
		name: "write: recording overhead per call (10 KB file)",
		value: median(writeTimes),
		unit: "ms",
		target: { max: 2 },
		note: `p90 ${percentile(writeTimes, 0.9).toFixed(2)} ms`,
	});

	const bashTimes: number[] = [];
	for (let i = 0; i <= BASH_RUNS; i++) {
		const overhead = await recordedCall(s, bash, { command: `echo ${i} > work/bash-${i % 4}.txt` });
		if (i > 0) bashTimes.push(overhead);
	}
	figures.push({
		name: "bash: recording overhead per call, watching (50,000-file tree)",
		value: median(bashTimes),
		unit: "ms",
		target: { max: 30 },
		note: `p90 ${percentile(bashTimes, 0.9).toFixed(1)} ms`,
	});

	// 100 files changed by one command; restored to before it and back.
	mkdirSync(join(cwd, "restore"), { recursive: true });
	for (let i = 0; i < RESTORED_FILES; i++) writeFileSync(join(cwd, "restore", `r${i}.ts`), `${BODY}\n// v1 ${i}\n`);
	await recordedCall(s, bash, { command: "true" });
	const before = s.sessionManager.getLeafId() as string;
	await recordedCall(s, bash, {
		command: `for f in restore/*.ts; do printf '%s\\n// v2\\n' "$(head -c 2000 "$f")" > "$f"; done`,
	});
	const after = s.sessionManager.getLeafId() as string;
	const restoreTimes: number[] = [];
	const restoreCpu: number[] = [];
	for (let i = 0; i <= RESTORE_RUNS; i++) {
		const target = i % 2 === 0 ? before : after;
		const cpu = process.cpuUsage();
		const start = performance.now();
		const result = s.checkpoints.restoreTo(target);
		const elapsed = performance.now() - start;
		const used = process.cpuUsage(cpu);
		expect(result.conflicts).toEqual([]);
		expect(result.restored).toHaveLength(RESTORED_FILES);
		if (i > 0) {
			restoreTimes.push(elapsed);
			restoreCpu.push((used.user + used.system) / 1000);
		}
		// The watcher reports the restored files; the next command's settle reads them again, not this restore.
		await recordedCall(s, bash, { command: "true" });
	}
	figures.push({
		name: `restore ${RESTORED_FILES} files (plan, conflict check, write, entry)`,
		value: median(restoreTimes),
		unit: "ms",
		target: { max: 200 },
		note: `p90 ${percentile(restoreTimes, 0.9).toFixed(1)} ms; CPU time ${median(restoreCpu).toFixed(1)} ms`,
	});
	s.dispose();

	// ── scanning (checkpoints.watch: false) ──
	const scanning = setup(cwd, join(root, "sessions-scan"), false);
	await scanning.checkpoints.recorder.ensureIndex();
	const scanTimes: number[] = [];
	for (let i = 0; i <= SCAN_RUNS; i++) {
		const overhead = await recordedCall(scanning, bash, { command: `echo ${i} > work/scan-${i % 2}.txt` });
		if (i > 0) scanTimes.push(overhead);
	}
	figures.push({
		name: "bash: recording overhead per call, scanning (checkpoints.watch: false)",
		value: median(scanTimes),
		unit: "ms",
		note: `p90 ${percentile(scanTimes, 0.9).toFixed(0)} ms; two stat walks of the tree per command`,
	});
	scanning.dispose();

	figures.push({ name: "load average (1 min) at the start", value: Number(load), unit: "" });
	reportBenchmark("checkpoints", figures);
});
