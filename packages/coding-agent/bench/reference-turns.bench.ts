// Ours side by side with the reference agents, in one run, against the same instant model server
// (bench/instant-model-server.mjs, its own process): `--version`, one text turn, the cost of each further bash
// and read turn (wall and CPU, start-up excluded), peak RSS; and the floors under them on Node 22 (an empty
// script's start, and one request through Node's fetch: time and peak RSS). Runs alternate in blocks ours,
// reference, reference, ours (ABBA), so a machine that gets busier or quieter during the run affects both alike. The references are
// installed from npm into a cache directory on first use (bench/helpers/reference-install.ts): 0.58.3 runs on
// this Node, 1.5.2 and ours on a Node 22 from npm. Then a 1,000-turn session of ours, on this Node and on Node 22:
// the agent's time between two model calls at turn 10 and at turn 1,000 (wall, and CPU per turn from /proc), and
// its RSS; and on this Node once more with each reply 500 ms after its request, a model's pace (an instant server
// makes the agent allocate far faster than a real session does, and V8 sizes its young generation by that rate).
// AGENT_BENCH_BLOCKS sets the number of ABBA blocks (default 3); AGENT_BENCH_LONG_TURNS the long session's turns.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { median, reportBenchmark } from "../../../scripts/bench-report.js";
import { CLI_PATH, type CliSandbox, createCliSandbox, FAKE_MODEL, FAKE_PROVIDER } from "../test/helpers/cli-sandbox.js";
import { ensureNode22, ensureReference152, ensureReference0583 } from "./helpers/reference-install.js";

const BLOCKS = Number(process.env.AGENT_BENCH_BLOCKS ?? 3);
// The runs each further turn is measured over. 0.58.3's one-turn run, which the method subtracts, moves by ±100 ms
// between runs (it costs ~2.5 s of CPU): over 50 turns that was ±2 ms a turn, a third of its read turn.
const TURNS = 200;
const NOTE_TEXT = "a small file\n";
const LONG_TURNS = Number(process.env.AGENT_BENCH_LONG_TURNS ?? 1000);
const TIME_BIN = "/usr/bin/time";

interface Measured {
	wallMs: number;
	/** user + sys of the agent and the children it waited for (/usr/bin/time). */
	cpuMs: number;
	peakRssMb: number;
}

interface Agent {
	label: string;
	node: string;
	cliPath: string;
}

function runTimed(agent: Agent, args: string[], sandbox: CliSandbox, expected?: string): Promise<Measured> {
	const argv = ["-f", "BENCH_TIME %M %U %S", agent.node, agent.cliPath, ...args];
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(TIME_BIN, argv, { cwd: sandbox.cwd, env: sandbox.env, stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk: Buffer) => {
			stdout += chunk.toString("utf8");
		});
		child.stderr.on("data", (chunk: Buffer) => {
			stderr += chunk.toString("utf8");
		});
		child.once("error", reject);
		child.once("close", (code) => {
			const wallMs = performance.now() - started;
			const time = /BENCH_TIME (\d+) ([\d.]+) ([\d.]+)/.exec(stderr);
			if (code !== 0 || !time)
				return reject(new Error(`${agent.label} ${args.join(" ")} exited ${code}: ${stderr}`));
			if (expected !== undefined && stdout !== expected) {
				return reject(new Error(`${agent.label} ${args.join(" ")} printed ${JSON.stringify(stdout)}`));
			}
			resolve({ wallMs, cpuMs: (Number(time[2]) + Number(time[3])) * 1000, peakRssMb: Number(time[1]) / 1024 });
		});
	});
}

interface Summary {
	versionMs: number;
	oneTurnMs: number;
	oneTurnCpuMs: number;
	peakRssMb: number;
	bashTurnMs: number;
	bashTurnCpuMs: number;
	readTurnMs: number;
	readTurnCpuMs: number;
	editTurnMs: number;
	editTurnCpuMs: number;
}

async function measureBlock(agent: Agent, sandbox: CliSandbox): Promise<Summary> {
	const version = await runTimed(agent, ["--version"], sandbox);
	const oneTurn = await runTimed(agent, ["--no-session", "-p", "hi"], sandbox, "ok\n");
	const bash = await runTimed(agent, ["--no-session", "-p", `turns=${TURNS} tool=bash`], sandbox, "done\n");
	const read = await runTimed(agent, ["--no-session", "-p", `turns=${TURNS} tool=read`], sandbox, "done\n");
	// TURNS - 1 edits, an odd number: each run starts from the file as the sandbox wrote it.
	writeFileSync(join(sandbox.cwd, "note.txt"), NOTE_TEXT);
	const edit = await runTimed(agent, ["--no-session", "-p", `turns=${TURNS} tool=edit`], sandbox, "done\n");
	// Each further turn: what a TURNS-turn run costs beyond a one-turn run, per turn.
	const perTurn = (run: Measured, key: "wallMs" | "cpuMs") => (run[key] - oneTurn[key]) / (TURNS - 1);
	return {
		versionMs: version.wallMs,
		oneTurnMs: oneTurn.wallMs,
		oneTurnCpuMs: oneTurn.cpuMs,
		peakRssMb: oneTurn.peakRssMb,
		bashTurnMs: perTurn(bash, "wallMs"),
		bashTurnCpuMs: perTurn(bash, "cpuMs"),
		readTurnMs: perTurn(read, "wallMs"),
		readTurnCpuMs: perTurn(read, "cpuMs"),
		editTurnMs: perTurn(edit, "wallMs"),
		editTurnCpuMs: perTurn(edit, "cpuMs"),
	};
}

/** Each figure's median over the blocks. */
function summarize(blocks: Summary[]): Summary {
	const keys = Object.keys(blocks[0] as Summary) as (keyof Summary)[];
	return Object.fromEntries(keys.map((key) => [key, median(blocks.map((block) => block[key]))])) as Record<
		keyof Summary,
		number
	>;
}

/** Ours and the reference in ABBA blocks; returns the medians of each. */
async function compare(ours: Agent, reference: Agent, sandbox: CliSandbox): Promise<{ ours: Summary; ref: Summary }> {
	// Warm the file system cache and the Node compile caches once.
	await runTimed(ours, ["--no-session", "-p", "hi"], sandbox);
	await runTimed(reference, ["--no-session", "-p", "hi"], sandbox);
	const oursBlocks: Summary[] = [];
	const refBlocks: Summary[] = [];
	for (let block = 0; block < BLOCKS; block++) {
		oursBlocks.push(await measureBlock(ours, sandbox));
		refBlocks.push(await measureBlock(reference, sandbox));
		refBlocks.push(await measureBlock(reference, sandbox));
		oursBlocks.push(await measureBlock(ours, sandbox));
	}
	return { ours: summarize(oursBlocks), ref: summarize(refBlocks) };
}

/** The figures of one comparison: each measure as ours, the reference's, and their ratio against its target. */
function report(suite: string, ours: Summary, ref: Summary, targets: Partial<Record<keyof Summary, number>>): void {
	const names: Record<keyof Summary, [string, string]> = {
		versionMs: ["--version (wall)", "ms"],
		oneTurnMs: ["one text turn, print mode (wall)", "ms"],
		oneTurnCpuMs: ["one text turn, CPU", "ms"],
		peakRssMb: ["peak RSS, one text turn", "MB"],
		bashTurnMs: ["per further bash turn (wall)", "ms"],
		bashTurnCpuMs: ["per further bash turn, CPU", "ms"],
		readTurnMs: ["per further read turn (wall)", "ms"],
		readTurnCpuMs: ["per further read turn, CPU", "ms"],
		editTurnMs: ["per further edit turn (wall)", "ms"],
		editTurnCpuMs: ["per further edit turn, CPU", "ms"],
	};
	const figures = (Object.keys(names) as (keyof Summary)[]).flatMap((key) => {
		const [name, unit] = names[key];
		const target = targets[key];
		return [
			{ name: `${name}: ours`, value: ours[key], unit },
			{ name: `${name}: reference`, value: ref[key], unit },
			{
				name: `${name}: ratio ours/reference`,
				value: ours[key] / ref[key],
				unit: "×",
				...(target !== undefined ? { target: { max: target } } : {}),
			},
		];
	});
	reportBenchmark(suite, figures);
}

let server: ChildProcess;
let baseUrl: string;
let sandbox: CliSandbox;
let serverLines: string[] = [];

function startInstantServer(): Promise<{ child: ChildProcess; baseUrl: string }> {
	const script = fileURLToPath(new URL("./instant-model-server.mjs", import.meta.url));
	const child = spawn(process.execPath, [script, "--log"], { stdio: ["pipe", "pipe", "inherit"] });
	return new Promise((resolve, reject) => {
		let buffer = "";
		let resolved = false;
		child.once("error", reject);
		child.stdout?.setEncoding("utf8");
		child.stdout?.on("data", (text: string) => {
			buffer += text;
			const lines = buffer.split("\n");
			buffer = lines.pop() ?? "";
			for (const line of lines) {
				const parsed = JSON.parse(line) as { port?: number };
				if (!resolved && parsed.port !== undefined) {
					resolved = true;
					resolve({ child, baseUrl: `http://127.0.0.1:${parsed.port}/v1` });
				} else {
					serverLines.push(line);
				}
			}
		});
	});
}

beforeAll(async () => {
	({ child: server, baseUrl } = await startInstantServer());
	sandbox = createCliSandbox({
		modelServerUrl: baseUrl,
		// The references read the same agent directory; both pick the fake model by default.
		settings: { defaultProvider: FAKE_PROVIDER, defaultModel: FAKE_MODEL, retry: { baseDelayMs: 1, maxDelayMs: 10 } },
		env: {
			PI_CODING_AGENT_DIR: "",
			PI_OFFLINE: "1",
			PI_SKIP_VERSION_CHECK: "1",
			PI_TELEMETRY: "0",
		},
	});
	sandbox.env.PI_CODING_AGENT_DIR = sandbox.agentDir;
	writeFileSync(join(sandbox.cwd, "note.txt"), NOTE_TEXT);
});
afterAll(() => {
	sandbox.cleanup();
	server.stdin?.end();
});

const canTime = existsSync(TIME_BIN);

/**
 * One LONG_TURNS-turn print session of ours on `node`, each reply `replyDelayMs` after its request: time between
 * model calls, CPU and RSS, early against late.
 */
async function longSession(node: string, label: string, replyDelayMs = 0): Promise<void> {
	serverLines = [];
	const child = spawn(node, [CLI_PATH, "--no-session", "-p", `turns=${LONG_TURNS} tool=bash`], {
		cwd: sandbox.cwd,
		env: sandbox.env,
		stdio: ["ignore", "pipe", "inherit"],
	});
	server.stdin?.write(`${JSON.stringify({ watchPid: child.pid, replyDelayMs })}\n`);
	let stdout = "";
	child.stdout.on("data", (chunk: Buffer) => {
		stdout += chunk.toString("utf8");
	});
	await new Promise((resolve) => child.once("close", resolve));
	expect(stdout).toBe("done\n");
	const records = serverLines
		.map((line) => JSON.parse(line) as { request: number; gapMs?: number; rssKb?: number; cpuMs?: number })
		.filter((record) => record.gapMs !== undefined);
	// Requests are numbered within the server's life; this session's are the last LONG_TURNS.
	const session = records.slice(-(LONG_TURNS - 1));
	// RSS at turns 10 to 29 and over the last 20. The time between model calls over 100 turns, as CPU: medians over
	// 20 turns moved by ±20% between runs on the 2-core VM, with no trend inside a run.
	const early = session.slice(9, 29);
	const late = session.slice(-20);
	const earlyTurns = session.slice(9, 109);
	const lateTurns = session.slice(-100);
	const gapOf = (records: typeof session) => median(records.map((record) => record.gapMs as number));
	const rssOf = (records: typeof session) => median(records.map((record) => record.rssKb ?? 0)) / 1024;
	// CPU (user + sys, with the bash children) per turn over 100 turns: /proc counts in 10 ms ticks.
	const cpuOf = (records: typeof session) =>
		((records.at(-1)?.cpuMs ?? 0) - (records[0]?.cpuMs ?? 0)) / Math.max(1, records.length - 1);
	const earlyCpu = cpuOf(earlyTurns);
	const lateCpu = cpuOf(lateTurns);
	reportBenchmark(`long-session (${LONG_TURNS} bash turns, ${label})`, [
		{ name: "agent time between model calls, turns 10-109", value: gapOf(earlyTurns), unit: "ms", note: "median" },
		{ name: "agent time between model calls, last 100 turns", value: gapOf(lateTurns), unit: "ms", note: "median" },
		{ name: "ratio late/early", value: gapOf(lateTurns) / gapOf(earlyTurns), unit: "×", target: { max: 1.2 } },
		{ name: "CPU per turn, turns 10-109", value: earlyCpu, unit: "ms" },
		{ name: "CPU per turn, last 100 turns", value: lateCpu, unit: "ms" },
		{ name: "CPU ratio late/early", value: lateCpu / earlyCpu, unit: "×", target: { max: 1.2 } },
		{ name: "RSS, turns 10-29", value: rssOf(early), unit: "MB" },
		{ name: `RSS, last 20 turns`, value: rssOf(late), unit: "MB" },
		{ name: "RSS ratio late/early", value: rssOf(late) / rssOf(early), unit: "×", target: { max: 1.5 } },
	]);
}

/**
 * The floors under 1.5.2's figures, on Node 22: starting an empty ES module and an empty CommonJS file (what our bin
 * is), alternately with our `--version` (the ABBA blocks ran minutes before, and the machine's pace drifts); and one
 * streaming request to the same server through Node's fetch. Every official provider SDK builds its requests with
 * the global `Headers`, which loads undici (Node's fetch) as fetch does, so no agent built on them goes below it.
 */
async function reportFloors(node22: string, ours: Agent, ref: Summary): Promise<void> {
	const node = (file: string): Agent => ({ label: "node", node: node22, cliPath: file });
	const esm = { kind: "ES module", file: join(sandbox.root, "empty.mjs"), starts: [] as number[] };
	const cjs = { kind: "CommonJS file", file: join(sandbox.root, "empty.cjs"), starts: [] as number[] };
	for (const { file } of [esm, cjs]) writeFileSync(file, "");
	const versions: number[] = [];
	for (let run = 0; run < 2 * BLOCKS; run++) {
		for (const { file, starts } of [esm, cjs]) starts.push((await runTimed(node(file), [], sandbox, "")).wallMs);
		versions.push((await runTimed(ours, ["--version"], sandbox)).wallMs);
	}
	const oneRequest = join(sandbox.root, "one-request.mjs");
	writeFileSync(
		oneRequest,
		`const reply = await fetch(process.argv[2], { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: ${JSON.stringify(FAKE_MODEL)}, stream: true, messages: [{ role: "user", content: "hi" }] }) });
if (!reply.ok) process.exit(1);
await reply.text();
`,
	);
	const requests: Measured[] = [];
	for (let run = 0; run < 2 * BLOCKS; run++) {
		requests.push(await runTimed(node(oneRequest), [`${baseUrl}/chat/completions`], sandbox, ""));
	}
	const requestMs = median(requests.map((run) => run.wallMs));
	const requestRssMb = median(requests.map((run) => run.peakRssMb));
	reportBenchmark("reference-1.5.2 (node 22): the floor", [
		...[esm, cjs].flatMap(({ kind, starts }) => [
			{ name: `Node 22 starting an empty ${kind} (wall)`, value: median(starts), unit: "ms", note: "median" },
			{ name: "that floor / reference --version", value: median(starts) / ref.versionMs, unit: "×" },
		]),
		{ name: "ours --version, between these (wall)", value: median(versions), unit: "ms", note: "median" },
		{ name: "ours --version / the CommonJS floor", value: median(versions) / median(cjs.starts), unit: "×" },
		{ name: "Node 22 sending one request through fetch (wall)", value: requestMs, unit: "ms", note: "median" },
		{ name: "that floor / reference one text turn", value: requestMs / ref.oneTurnMs, unit: "×" },
		{ name: "its peak RSS", value: requestRssMb, unit: "MB", note: "median" },
		{ name: "that floor / reference peak RSS", value: requestRssMb / ref.peakRssMb, unit: "×" },
	]);
}

/**
 * The floor under a `read` turn on `node`: the OpenAI SDK alone sending the same kind of request each turn, in a bare
 * process (bench/sdk-turn-floor.mjs), against the same server; wall and CPU per turn, each against the reference's
 * read turn. Every agent built on the official SDK pays at least this much a turn.
 */
async function reportTurnFloor(node: string, suite: string, ref: Summary): Promise<void> {
	const script = fileURLToPath(new URL("./sdk-turn-floor.mjs", import.meta.url));
	const runs: { wallMs: number; cpuMs: number }[] = [];
	for (let run = 0; run < 2 * BLOCKS; run++) {
		const stdout = await new Promise<string>((resolve, reject) => {
			execFile(node, [script, baseUrl, String(TURNS)], { env: sandbox.env }, (error, out) =>
				error ? reject(error) : resolve(out),
			);
		});
		runs.push(JSON.parse(stdout) as { wallMs: number; cpuMs: number });
	}
	const wallMs = median(runs.map((run) => run.wallMs));
	const cpuMs = median(runs.map((run) => run.cpuMs));
	reportBenchmark(suite, [
		{ name: "the OpenAI SDK alone, per read turn (wall)", value: wallMs, unit: "ms", note: "median" },
		{ name: "that floor / reference read turn (wall)", value: wallMs / ref.readTurnMs, unit: "×" },
		{ name: "the OpenAI SDK alone, per read turn, CPU", value: cpuMs, unit: "ms", note: "median" },
		{ name: "that floor / reference read turn, CPU", value: cpuMs / ref.readTurnCpuMs, unit: "×" },
	]);
}

describe("per-turn cost side by side with the references", () => {
	it.skipIf(!canTime)("ours and reference 0.58.3 on this Node", async () => {
		const reference = ensureReference0583();
		const ours: Agent = { label: "ours", node: process.execPath, cliPath: CLI_PATH };
		const ref: Agent = { label: reference.label, node: process.execPath, cliPath: reference.cliPath };
		const result = await compare(ours, ref, sandbox);
		report(`reference-0.58.3 (node ${process.versions.node})`, result.ours, result.ref, {
			bashTurnMs: 0.5,
			readTurnMs: 0.5,
			bashTurnCpuMs: 0.5,
			readTurnCpuMs: 0.5,
		});
		await reportTurnFloor(
			process.execPath,
			`reference-0.58.3 (node ${process.versions.node}): the floor`,
			result.ref,
		);
	});

	it.skipIf(!canTime)("ours and reference 1.5.2 on Node 22", async () => {
		const node22 = ensureNode22();
		if (!node22) return;
		const reference = ensureReference152();
		const ours: Agent = { label: "ours", node: node22, cliPath: CLI_PATH };
		const ref: Agent = { label: reference.label, node: node22, cliPath: reference.cliPath };
		const result = await compare(ours, ref, sandbox);
		report("reference-1.5.2 (node 22)", result.ours, result.ref, {
			versionMs: 0.1,
			oneTurnMs: 0.25,
			peakRssMb: 0.5,
			bashTurnMs: 0.5,
			readTurnMs: 0.5,
			bashTurnCpuMs: 0.5,
			readTurnCpuMs: 0.5,
		});
		await reportFloors(node22, ours, result.ref);
		await reportTurnFloor(node22, "reference-1.5.2 (node 22): the floor", result.ref);
	});

	it(`a ${LONG_TURNS}-turn session stays flat, on this Node`, async () => {
		await longSession(process.execPath, `node ${process.versions.node}`);
	});

	it(`a ${LONG_TURNS}-turn session stays flat, on Node 22`, async () => {
		const node22 = ensureNode22();
		if (!node22 || node22 === process.execPath) return;
		await longSession(node22, "node 22");
	});

	const PACE_MS = 500;
	it(
		`a ${LONG_TURNS}-turn session at a model's pace stays flat, on this Node`,
		async () => {
			await longSession(process.execPath, `node ${process.versions.node}, replies after ${PACE_MS} ms`, PACE_MS);
		},
		LONG_TURNS * (PACE_MS + 100) + 60_000,
	);
});
