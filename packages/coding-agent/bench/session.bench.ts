// Session files: opening + rebuilding the context, listing many sessions, appending.
//
// Method. Files are generated in a temp directory with the shape of real coding sessions: user prompts
// (~200 B), assistant turns with thinking, text and a tool call (~900 B), tool results (~1.5 KB, every tenth
// ~12 KB), a model or thinking change now and then, a label every 300 entries, a branch back every 500 entries
// and a compaction every 2,000 — about 1.3 KB per entry on average. Every figure is the median of several runs
// after a warm-up run, with the files in the page cache (as after the first resume). Both CPU time of the process
// and wall time are reported: on a shared machine wall time mostly measures waiting for a core, while CPU time
// also counts V8's parallel GC threads (so it can exceed wall time when a second core is free).
// - open+context: `SessionManager.open(file)` (read, parse, index, take the lock) + `buildSessionContext()` +
//   `close()`, for 1,000 / 10,000 / 100,000 entries. Linear growth shows as a flat per-1,000-entry cost.
// - listing: `SessionManager.list()` over 1,000 session files of 20–180 entries (what `/resume` shows).
// - append: one `appendMessage` to a persisted session (one write call per entry).
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, it } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";
import { SessionManager } from "../src/core/session/index.js";
import { ASSISTANT_TURN_TOKENS, words } from "./helpers/session-content.js";

const root = mkdtempSync(join(tmpdir(), "agent-session-bench-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const usage = {
	...ASSISTANT_TURN_TOKENS,
	cost: { input: 0.0036, output: 0.0012, cacheRead: 0, cacheWrite: 0.004125, total: 0.008925 },
};

/** The JSONL text of a session with `entryCount` entries (header excluded from the count). */
function generateSession(entryCount: number, cwd: string, startMs: number): string {
	const lines: string[] = [
		JSON.stringify({
			type: "session",
			version: 3,
			id: randomUUID(),
			timestamp: new Date(startMs).toISOString(),
			cwd,
		}),
	];
	const ids: string[] = [];
	let parentId: string | null = null;
	let now = startMs;
	for (let i = 0; i < entryCount; i++) {
		const id = i.toString(16).padStart(8, "0");
		now += 1500;
		const base = { id, parentId, timestamp: new Date(now).toISOString() };
		let entry: Record<string, unknown>;
		const phase = i % 4;
		if (i > 0 && i % 2000 === 0) {
			entry = {
				type: "compaction",
				...base,
				summary: words(300, i),
				firstKeptEntryId: ids[ids.length - 40],
				tokensBefore: 150_000,
				details: { readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] },
				fromHook: false,
			};
		} else if (i % 300 === 299) {
			entry = { type: "label", ...base, targetId: ids[ids.length - 3], label: `checkpoint-${i}` };
		} else if (i % 97 === 0) {
			entry = { type: "model_change", ...base, provider: "anthropic", modelId: "claude-sonnet-4-5" };
		} else if (phase === 0) {
			entry = {
				type: "message",
				...base,
				message: { role: "user", content: [{ type: "text", text: words(30, i) }], timestamp: now },
			};
		} else if (phase === 1) {
			entry = {
				type: "message",
				...base,
				message: {
					role: "assistant",
					content: [
						{ type: "thinking", thinking: words(60, i), thinkingSignature: "EqQBCkgIARABGAIiQ".repeat(4) },
						{ type: "text", text: words(40, i + 1) },
						{ type: "toolCall", id: `toolu_${i}`, name: "read", arguments: { path: `src/file-${i}.ts` } },
					],
					api: "anthropic-messages",
					provider: "anthropic",
					model: "claude-sonnet-4-5",
					usage,
					stopReason: "toolUse",
					timestamp: now,
				},
			};
		} else {
			const size = i % 10 === 2 ? 2000 : 250;
			entry = {
				type: "message",
				...base,
				message: {
					role: "toolResult",
					toolCallId: `toolu_${i - 1}`,
					toolName: "read",
					content: [{ type: "text", text: words(size, i) }],
					isError: false,
					timestamp: now,
				},
			};
		}
		lines.push(JSON.stringify(entry));
		ids.push(id);
		// Every 500 entries the user goes back a few entries and continues from there.
		parentId = i % 500 === 499 ? (ids[ids.length - 6] as string) : id;
	}
	return `${lines.join("\n")}\n`;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] as number;
}

function cpuMs(): number {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
}

interface Timing {
	/** Median wall-clock time. */
	wallMs: number;
	/** Median CPU time of this process: what the work costs when the machine is not shared. */
	cpuMs: number;
}

async function measure(runs: number, action: () => void | Promise<void>): Promise<Timing> {
	await action(); // warm-up
	const wall: number[] = [];
	const cpu: number[] = [];
	for (let run = 0; run < runs; run++) {
		const cpuStart = cpuMs();
		const start = performance.now();
		await action();
		wall.push(performance.now() - start);
		cpu.push(cpuMs() - cpuStart);
	}
	return { wallMs: median(wall), cpuMs: median(cpu) };
}

function loadNote(): string {
	const [oneMinute] = loadavg();
	return `load average ${oneMinute?.toFixed(1)} on ${availableParallelism()} cores`;
}

it("opens and rebuilds sessions of 1k, 10k and 100k entries", async () => {
	const sizes = [1_000, 10_000, 100_000];
	const results: { entries: number; timing: Timing; mb: number; messages: number }[] = [];
	for (const entries of sizes) {
		const file = join(root, `open-${entries}.jsonl`);
		writeFileSync(file, generateSession(entries, "/bench", Date.UTC(2025, 0, 1)));
		let messages = 0;
		const timing = await measure(entries >= 100_000 ? 3 : 7, () => {
			const session = SessionManager.open(file);
			messages = session.buildSessionContext().messages.length;
			session.close();
		});
		results.push({ entries, timing, mb: statSync(file).size / 1e6, messages });
	}
	const perThousand = results.map((r) => (r.timing.cpuMs / r.entries) * 1000);
	reportBenchmark("session-open", [
		...results.flatMap((r) => {
			const label = `open + buildSessionContext, ${r.entries.toLocaleString("en")} entries (${r.mb.toFixed(1)} MB, ${r.messages} messages in context)`;
			return [
				{
					name: `${label}, CPU`,
					value: r.timing.cpuMs,
					unit: "ms",
					...(r.entries === 10_000 ? { target: { max: 150 } } : {}),
				},
				{ name: `${label}, wall`, value: r.timing.wallMs, unit: "ms", note: loadNote() },
			];
		}),
		{
			name: "growth: CPU per 1,000 entries at 100k ÷ at 1k (1 = linear)",
			value: (perThousand[2] as number) / (perThousand[0] as number),
			unit: "x",
			target: { max: 1.5 },
		},
	]);
});

it("lists 1,000 session files", async () => {
	const dir = join(root, "listing");
	mkdirSync(dir);
	let bytes = 0;
	for (let i = 0; i < 1_000; i++) {
		const text = generateSession(20 + ((i * 37) % 161), "/bench", Date.UTC(2025, 0, 1) + i * 60_000);
		bytes += Buffer.byteLength(text);
		writeFileSync(join(dir, `${String(i).padStart(4, "0")}_${randomUUID()}.jsonl`), text);
	}
	let count = 0;
	const timing = await measure(5, async () => {
		count = (await SessionManager.list("/bench", dir)).length;
	});
	if (count !== 1_000) throw new Error(`listed ${count} sessions`);
	const label = `SessionManager.list, 1,000 files of 20–180 entries (${(bytes / 1e6).toFixed(0)} MB)`;
	reportBenchmark("session-list", [
		{ name: `${label}, CPU`, value: timing.cpuMs, unit: "ms", target: { max: 300 } },
		{ name: `${label}, wall`, value: timing.wallMs, unit: "ms", note: loadNote() },
	]);
});

it("appends to a persisted session", () => {
	const session = SessionManager.create("/bench", join(root, "append"));
	session.appendMessage({
		role: "assistant",
		content: [{ type: "text", text: "start" }],
		api: "anthropic-messages",
		provider: "anthropic",
		model: "claude-sonnet-4-5",
		usage,
		stopReason: "stop",
		timestamp: Date.now(),
	});
	const count = 2_000;
	const text = words(150, 1);
	const start = performance.now();
	for (let i = 0; i < count; i++) {
		session.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });
	}
	const perAppendUs = ((performance.now() - start) / count) * 1000;
	session.close();
	reportBenchmark("session-append", [
		{ name: "appendMessage to a persisted session (~1 KB entry, one write call)", value: perAppendUs, unit: "µs" },
	]);
});
