// Peak memory while a command prints 400 MB: through the bash tool with streaming updates, through a whole
// session (the model's tool call, its update events to a subscriber), and as the user's !cmd shown by the
// interactive display. Target: peak RSS at most 50 MB above the baseline taken just before each run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxText, fauxToolCall } from "@agent/ai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BenchFigure, reportBenchmark } from "../../../scripts/bench-report.js";
import { createBashTool } from "../src/index.js";
import { BashExecutionComponent } from "../src/modes/interactive/components/bash-execution.js";
import type { DisplayState } from "../src/modes/interactive/display-state.js";
import { createRuntimeHarness } from "../test/helpers/runtime-harness.js";

const BYTES = 400_000_000;
const COMMAND = `yes 'a line of command output that is roughly eighty characters long, give or take' | head -c ${BYTES}`;
const TARGET_MB = 50;

let root: string;
let savedTmpdir: string | undefined;

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), "agent-bash-memory-bench-"));
	// The 400 MB full-output logs go here, removed afterwards whatever happens.
	savedTmpdir = process.env.TMPDIR;
	process.env.TMPDIR = root;
});

afterAll(() => {
	process.env.TMPDIR = savedTmpdir;
	rmSync(root, { recursive: true, force: true });
});

/** Runs `work` while sampling RSS every 10 ms (and whenever `sample` is called); returns the peak above baseline. */
async function peakRssAbove(work: (sample: () => void) => Promise<void>): Promise<{ mb: number; ms: number }> {
	globalThis.gc?.();
	const baseline = process.memoryUsage().rss;
	let peak = baseline;
	const sample = () => {
		peak = Math.max(peak, process.memoryUsage().rss);
	};
	const timer = setInterval(sample, 10);
	const start = performance.now();
	try {
		await work(sample);
	} finally {
		clearInterval(timer);
	}
	sample();
	return { mb: (peak - baseline) / 1024 / 1024, ms: performance.now() - start };
}

it("bash printing 400 MB keeps memory bounded", async () => {
	const figures: BenchFigure[] = [];

	const tool = createBashTool(root);
	let updates = 0;
	const direct = await peakRssAbove(async (sample) => {
		const result = await tool.execute("b", { command: COMMAND }, undefined, () => {
			if (++updates % 50 === 0) sample();
		});
		expect(result.details?.truncation?.totalBytes).toBe(BYTES);
	});
	figures.push({
		name: "bash tool (streaming updates): peak RSS above baseline",
		value: direct.mb,
		unit: "MB",
		target: { max: TARGET_MB },
		note: `${updates} updates, ${Math.round(direct.ms)} ms`,
	});

	const harness = await createRuntimeHarness({ persist: false });
	try {
		// The harness records every event; a mode renders and forgets them, so drop them here too.
		harness.session.subscribe(() => {
			harness.events.length = 0;
		});
		harness.faux.enqueue(fauxToolCall("bash", { command: COMMAND }), fauxText("done"));
		const session = await peakRssAbove(async (sample) => {
			const unsubscribe = harness.session.subscribe((event) => {
				if (event.type === "tool_execution_update") sample();
			});
			await harness.session.prompt("print a lot");
			unsubscribe();
		});
		figures.push({
			name: "session tool call (update events to a subscriber): peak RSS above baseline",
			value: session.mb,
			unit: "MB",
			target: { max: TARGET_MB },
			note: `${Math.round(session.ms)} ms`,
		});

		const component = new BashExecutionComponent({} as DisplayState, COMMAND, false);
		let chunks = 0;
		const user = await peakRssAbove(async (sample) => {
			const result = await harness.session.executeBash(COMMAND, (chunk) => {
				component.appendOutput(chunk);
				if (++chunks % 50 === 0) sample();
			});
			expect(result.truncated).toBe(true);
		});
		figures.push({
			name: "!cmd shown by the interactive display: peak RSS above baseline",
			value: user.mb,
			unit: "MB",
			target: { max: TARGET_MB },
			note: `${chunks} chunks, ${Math.round(user.ms)} ms`,
		});
	} finally {
		harness.dispose();
	}
	reportBenchmark("coding-agent tools: bash output memory", figures);
});
