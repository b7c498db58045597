// The tools on realistic loads: built-in grep and find against rg and fd on a 50,000-file tree with ignored
// folders, edit on a 10 MB file, and the memory bash uses while a command prints 100 MB.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BenchFigure, reportBenchmark } from "../../../scripts/bench-report.js";
import { createBashTool, createEditTool, createFindTool, createGrepTool, findExternalTool } from "../src/index.js";

const RUNS = 5;
const TREE_FILES = 50_000;
const IGNORED_FILES = 10_000;

let root: string;
let treeRoot: string;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** 40,000 source files in nested packages plus 10,000 in git-ignored folders; a rare token in 40 files. */
async function generateTree(dir: string): Promise<void> {
	mkdirSync(join(dir, ".git"), { recursive: true });
	writeFileSync(join(dir, ".gitignore"), "node_modules/\ndist/\n*.log\n");
	const body = Array.from({ length: 20 }, (_, i) => `export const value${i} = compute(${i}, "some text here");`).join(
		"\n",
	);
	const sourceFiles = TREE_FILES - IGNORED_FILES;
	for (let i = 0; i < sourceFiles; i++) {
		const dirPath = join(dir, "packages", `pkg${i % 40}`, "src", `mod${Math.floor(i / 40) % 25}`);
		if (i < 1000) mkdirSync(dirPath, { recursive: true });
		const needle = i % 1000 === 7 ? "\n// RARE_NEEDLE_TOKEN marks this file" : "";
		writeFileSync(join(dirPath, `file${i}.ts`), `${body}${needle}\n`);
		// Keep the worker answering vitest while tens of thousands of files are written.
		if (i % 500 === 0) await yieldToEventLoop();
	}
	for (let i = 0; i < IGNORED_FILES; i++) {
		const dirPath = join(dir, i % 2 ? "node_modules" : "dist", `lib${i % 50}`);
		if (i < 100) mkdirSync(dirPath, { recursive: true });
		writeFileSync(join(dirPath, `file${i}.js`), `${body}\n// RARE_NEEDLE_TOKEN in an ignored file\n`);
		if (i % 500 === 0) await yieldToEventLoop();
	}
}

async function medianMs(run: () => Promise<unknown>): Promise<number> {
	await run();
	const times: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const start = performance.now();
		await run();
		times.push(performance.now() - start);
	}
	times.sort((a, b) => a - b);
	return times[Math.floor(times.length / 2)];
}

beforeAll(async () => {
	root = mkdtempSync(join(tmpdir(), "agent-tools-bench-"));
	treeRoot = join(root, "tree");
	await generateTree(treeRoot);
}, 600_000);

afterAll(() => {
	rmSync(root, { recursive: true, force: true });
});

it("built-in grep and find compared with rg and fd on 50,000 files", async () => {
	const figures: BenchFigure[] = [];
	const grepWith = (engine: "builtin" | "rg") => createGrepTool(treeRoot, { engine });
	const findWith = (engine: "builtin" | "fd") => createFindTool(treeRoot, { engine });
	const grepArgs = { pattern: "RARE_NEEDLE_TOKEN" };
	const findFullWalk = { pattern: "file39999.ts" };
	const findLimited = { pattern: "*.ts" };

	const builtinMatches = await grepWith("builtin").execute("b", grepArgs);
	const firstText = builtinMatches.content[0];
	expect(firstText.type === "text" && firstText.text.split("\n")).toHaveLength(40);

	const builtinGrep = await medianMs(() => grepWith("builtin").execute("b", grepArgs));
	figures.push({ name: "grep built-in (rare token, whole tree)", value: builtinGrep, unit: "ms" });
	const builtinFind = await medianMs(() => findWith("builtin").execute("b", findFullWalk));
	figures.push({ name: "find built-in (one name, whole tree)", value: builtinFind, unit: "ms" });
	const builtinFindLimited = await medianMs(() => findWith("builtin").execute("b", findLimited));
	figures.push({ name: "find built-in (*.ts, 1000-result limit)", value: builtinFindLimited, unit: "ms" });

	if (findExternalTool("rg")) {
		const rg = await medianMs(() => grepWith("rg").execute("b", grepArgs));
		figures.push({ name: "grep rg (rare token, whole tree)", value: rg, unit: "ms" });
		figures.push({ name: "grep built-in / rg", value: builtinGrep / rg, unit: "x", target: { max: 3 } });
	} else {
		figures.push({ name: "grep rg", value: 0, unit: "ms", note: "rg not installed; ratio not measured" });
	}
	if (findExternalTool("fd")) {
		const fd = await medianMs(() => findWith("fd").execute("b", findFullWalk));
		const fdLimited = await medianMs(() => findWith("fd").execute("b", findLimited));
		figures.push({ name: "find fd (one name, whole tree)", value: fd, unit: "ms" });
		figures.push({ name: "find built-in / fd (whole tree)", value: builtinFind / fd, unit: "x", target: { max: 3 } });
		figures.push({ name: "find fd (*.ts, 1000-result limit)", value: fdLimited, unit: "ms" });
		figures.push({
			name: "find built-in / fd (limited)",
			value: builtinFindLimited / fdLimited,
			unit: "x",
			note: "both stop at the limit; the built-in walker visits in path order, so its first results are stable",
		});
	} else {
		figures.push({ name: "find fd", value: 0, unit: "ms", note: "fd not installed; ratio not measured" });
	}
	reportBenchmark("coding-agent tools: search", figures);
});

it("edit of a 10 MB file", async () => {
	const dir = join(root, "edit");
	mkdirSync(dir);
	const line = "const value = computeSomething(alpha, beta, gamma); // filler text\n";
	const count = Math.ceil((10 * 1024 * 1024) / line.length);
	const lines = Array.from({ length: count }, () => line);
	lines[Math.floor(count * 0.9)] = "const target = 0;\n";
	const path = join(dir, "big.ts");
	writeFileSync(path, lines.join(""));
	const tool = createEditTool(dir);
	let n = 0;
	const ms = await medianMs(async () => {
		await tool.execute("e", { path: "big.ts", oldText: `target = ${n}`, newText: `target = ${n + 1}` });
		n++;
	});
	reportBenchmark("coding-agent tools: edit", [
		{ name: "edit 10 MB file (exact match near the end)", value: ms, unit: "ms", target: { max: 300 } },
	]);
});

it("bash printing 100 MB keeps memory bounded", async () => {
	const tool = createBashTool(root);
	const command =
		"yes 'a line of command output that is roughly eighty characters long, give or take' | head -c 100000000";
	const baseline = process.memoryUsage();
	let peakRss = baseline.rss;
	let peakHeap = baseline.heapUsed;
	const sample = () => {
		const usage = process.memoryUsage();
		peakRss = Math.max(peakRss, usage.rss);
		peakHeap = Math.max(peakHeap, usage.heapUsed);
	};
	const sampler = setInterval(sample, 10);
	let updates = 0;
	// The 100 MB full-output log goes to the benchmark's directory, removed afterwards whatever happens.
	const savedTmpdir = process.env.TMPDIR;
	process.env.TMPDIR = root;
	const start = performance.now();
	const result = await tool
		.execute("b", { command }, undefined, () => {
			updates++;
			if (updates % 50 === 0) sample();
		})
		.finally(() => {
			process.env.TMPDIR = savedTmpdir;
			clearInterval(sampler);
		});
	const elapsed = performance.now() - start;
	sample();
	const details = result.details;
	expect(details?.truncation?.totalBytes).toBe(100_000_000);
	reportBenchmark("coding-agent tools: bash", [
		{
			name: "RSS above baseline while printing 100 MB",
			value: (peakRss - baseline.rss) / 1024 / 1024,
			unit: "MB",
			target: { max: 50 },
		},
		{
			name: "heap above baseline",
			value: (peakHeap - baseline.heapUsed) / 1024 / 1024,
			unit: "MB",
			target: { max: 50 },
		},
		{ name: "time for 100 MB with streaming updates", value: elapsed, unit: "ms", note: `${updates} updates` },
	]);
});
