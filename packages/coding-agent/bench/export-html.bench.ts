/// <reference lib="dom" />
// HTML export of a 5,000-message session (test/export-html/large-session-fixture.ts: ~2 KB per message with code,
// diffs, tool output, branches, labels and compactions).
// - export: `agent --export` (the built bin, Node start-up included) until the file is written, and the same work
//   in-process (`exportSessionToHtml`, after a warm-up). Target: the file written in under 1 s.
// - page: the exported file opened from disk in headless Chromium (the system's /usr/bin/chromium), from navigation
//   start to the page's `export-ready` mark (tree and first chunk of the transcript on screen, handlers attached).
//   DOMContentLoaded is reported too: it is the same moment for a page that renders in one synchronous script.
//   Target: interactive in under 1.5 s.
// With AGENT_BENCH_REFERENCE_CLI=<path to pi's dist/cli.js> (e.g. from `npm pack @mariozechner/pi-coding-agent`),
// the reference exports the same session and its page is timed the same way (to DOMContentLoaded and load).
// Wall times on this shared 2-core VM move with other jobs; CPU times (from /usr/bin/time, or the process) less so.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, it } from "vitest";
import { type BenchFigure, median, reportBenchmark } from "../../../scripts/bench-report.js";
import { exportSessionToHtml } from "../src/core/export-html/index.js";
import { findChromium, launchChromium } from "../test/export-html/chromium.js";
import { largeSessionLines } from "../test/export-html/large-session-fixture.js";
import { CLI_PATH } from "../test/helpers/cli-sandbox.js";

const MESSAGES = 5_000;
const CLI_RUNS = 5;
/** Timed loads of our page; the reference's page (tens of seconds per load of this session) gets 3. */
const PAGE_RUNS = 5;
const TIME_BIN = "/usr/bin/time";

const dir = mkdtempSync(join(tmpdir(), "agent-export-bench-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sessionFile = join(dir, "session.jsonl");
writeFileSync(sessionFile, `${largeSessionLines(MESSAGES).join("\n")}\n`);

interface CliRun {
	wallMs: number;
	cpuMs?: number;
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
	const useTime = existsSync(TIME_BIN);
	const file = useTime ? TIME_BIN : process.execPath;
	const argv = useTime ? ["-f", "CPU_S=%U+%S", process.execPath, ...args] : args;
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(file, argv, { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
		let stderr = "";
		child.stderr.on("data", (chunk: Buffer) => {
			stderr += chunk.toString("utf8");
		});
		child.once("error", reject);
		child.once("close", (code) => {
			const wallMs = performance.now() - started;
			if (code !== 0) return reject(new Error(`export exited ${code}: ${stderr}`));
			const cpu = /CPU_S=([\d.]+)\+([\d.]+)/.exec(stderr);
			resolve({ wallMs, ...(cpu ? { cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 } : {}) });
		});
	});
}

async function timeCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ wallMs: number; cpuMs?: number }> {
	await runCli(args, env); // warm-up: page cache
	const runs: CliRun[] = [];
	for (let i = 0; i < CLI_RUNS; i++) runs.push(await runCli(args, env));
	const cpu = runs.flatMap((run) => (run.cpuMs === undefined ? [] : [run.cpuMs]));
	return { wallMs: median(runs.map((run) => run.wallMs)), ...(cpu.length ? { cpuMs: median(cpu) } : {}) };
}

interface PageTiming {
	readyMs?: number;
	domContentLoadedMs: number;
	loadMs: number;
	/** Loads whose page showed the conversation (the rest threw or showed nothing). */
	rendered: number;
	runs: number;
	errors: string[];
}

/**
 * Opens a page PAGE_RUNS times (after one warm-up load) in fresh contexts. `renderedSelector` must match once the
 * page shows the conversation; our page also waits for its `data-ready` marker.
 */
async function timePage(
	browser: Browser,
	file: string,
	renderedSelector: string,
	waitForReady: boolean,
	runs = PAGE_RUNS,
): Promise<PageTiming> {
	const samples: { readyMs?: number; domContentLoadedMs: number; loadMs: number }[] = [];
	const errors: string[] = [];
	let rendered = 0;
	for (let run = 0; run <= runs; run++) {
		const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
		const page = await context.newPage();
		page.on("pageerror", (error) => {
			if (run > 0) errors.push(error.message);
		});
		await page.goto(pathToFileURL(file).href, { waitUntil: "load", timeout: 300_000 });
		if (waitForReady) await page.waitForSelector("html[data-ready]", { timeout: 300_000 });
		const timing = await page.evaluate((selector) => {
			const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
			const ready = performance.getEntriesByName("export-ready")[0];
			return {
				domContentLoadedMs: navigation.domContentLoadedEventEnd,
				loadMs: navigation.loadEventEnd,
				shown: document.querySelectorAll(selector).length > 0,
				...(ready ? { readyMs: ready.startTime } : {}),
			};
		}, renderedSelector);
		await context.close();
		if (run === 0) continue; // the first load warms the browser and the page cache
		samples.push(timing);
		if (timing.shown) rendered++;
	}
	const ready = samples.flatMap((sample) => (sample.readyMs === undefined ? [] : [sample.readyMs]));
	return {
		domContentLoadedMs: median(samples.map((sample) => sample.domContentLoadedMs)),
		loadMs: median(samples.map((sample) => sample.loadMs)),
		...(ready.length ? { readyMs: median(ready) } : {}),
		rendered,
		runs,
		errors,
	};
}

function cpuMs(): number {
	const usage = process.cpuUsage();
	return (usage.user + usage.system) / 1000;
}

function note(): string {
	return `load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`;
}

it(`exports a ${MESSAGES.toLocaleString("en")}-message session and opens it`, async () => {
	const figures: BenchFigure[] = [];
	const sizeMb = statSync(sessionFile).size / 1e6;
	const ours = join(dir, "ours.html");

	const env = { ...process.env, AGENT_DIR: join(dir, "agent-home") };
	const cli = await timeCli([CLI_PATH, "--export", sessionFile, ours], env);
	figures.push({
		name: `agent --export, ${MESSAGES} messages (${sizeMb.toFixed(1)} MB session), wall`,
		value: cli.wallMs,
		unit: "ms",
		target: { max: 1000 },
		note: note(),
	});
	if (cli.cpuMs !== undefined) figures.push({ name: "agent --export, CPU", value: cli.cpuMs, unit: "ms" });

	await exportSessionToHtml(sessionFile, ours);
	const wall: number[] = [];
	const cpu: number[] = [];
	for (let run = 0; run < CLI_RUNS; run++) {
		const cpuStart = cpuMs();
		const start = performance.now();
		await exportSessionToHtml(sessionFile, ours);
		wall.push(performance.now() - start);
		cpu.push(cpuMs() - cpuStart);
	}
	figures.push(
		{ name: "exportSessionToHtml in-process (warm), wall", value: median(wall), unit: "ms" },
		{ name: "exportSessionToHtml in-process (warm), CPU", value: median(cpu), unit: "ms" },
		{ name: "page size", value: statSync(ours).size / 1e6, unit: "MB" },
	);

	const referenceCli = process.env.AGENT_BENCH_REFERENCE_CLI;
	const reference = join(dir, "reference.html");
	if (referenceCli) {
		const referenceEnv = { ...process.env, PI_CODING_AGENT_DIR: join(dir, "pi-home") };
		const run = await timeCli([referenceCli, "--export", sessionFile, reference], referenceEnv);
		figures.push({ name: "reference pi --export, wall", value: run.wallMs, unit: "ms" });
		if (run.cpuMs !== undefined) figures.push({ name: "reference pi --export, CPU", value: run.cpuMs, unit: "ms" });
		figures.push({ name: "reference page size", value: statSync(reference).size / 1e6, unit: "MB" });
	}

	const chromiumPath = findChromium();
	if (chromiumPath) {
		const browser = await launchChromium(chromiumPath);
		try {
			const page = await timePage(browser, ours, "#entries .slot", true);
			figures.push(
				{
					name: "page interactive (navigation start → export-ready), headless Chromium",
					value: page.readyMs ?? Number.NaN,
					unit: "ms",
					target: { max: 1500 },
					note: note(),
				},
				{ name: "page DOMContentLoaded", value: page.domContentLoadedMs, unit: "ms" },
				{ name: "page load event", value: page.loadMs, unit: "ms" },
			);
			if (page.rendered !== page.runs)
				throw new Error(`our page showed nothing in ${page.runs - page.rendered} loads`);
			if (referenceCli) {
				// The reference renders the whole branch in one synchronous script: DOMContentLoaded is when it is done.
				const referencePage = await timePage(browser, reference, "#messages > *", false, 3);
				const failures = referencePage.runs - referencePage.rendered;
				figures.push(
					{
						name: "reference page DOMContentLoaded",
						value: referencePage.domContentLoadedMs,
						unit: "ms",
						note:
							failures > 0
								? `its page showed no conversation in ${failures} of ${referencePage.runs} loads (${[...new Set(referencePage.errors)].join("; ")})`
								: "",
					},
					{ name: "reference page load event", value: referencePage.loadMs, unit: "ms" },
				);
			}
		} finally {
			await browser.close();
		}
	} else {
		process.stdout.write("export-html bench: no Chromium at /usr/bin/chromium; page figures skipped\n");
	}
	reportBenchmark("export-html", figures);
}, 900_000);
