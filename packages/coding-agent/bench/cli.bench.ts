// The `agent` binary's own overhead, measured against a local fake model server that answers at once, so the
// figures are startup, the loop and the tools — not a model. Targets from the issue (the reference needs about
// 1,000 ms, 1,100 ms, 6 ms and 200 MB on the same 2-core machine).
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";
import { CLI_PATH, type CliSandbox, createCliSandbox } from "../test/helpers/cli-sandbox.js";
import { FakeModelServer, textReply, toolCallReply } from "../test/helpers/fake-model-server.js";

const RUNS = 9;
const TURNS = 50;
const TIME_BIN = "/usr/bin/time";

interface Run {
	wallMs: number;
	code: number | null;
	stdout: string;
	/** Peak RSS in MB (from /usr/bin/time), when available. */
	peakRssMb?: number;
	/** User + system CPU time in ms (from /usr/bin/time): less sensitive than wall time to a busy machine. */
	cpuMs?: number;
}

/** Runs a command to completion, timing it from spawn to exit. */
function timeRun(command: string, args: string[], sandbox: CliSandbox, measureRss = false): Promise<Run> {
	const useTime = measureRss && existsSync(TIME_BIN);
	const file = useTime ? TIME_BIN : command;
	const argv = useTime ? ["-f", "PEAK_RSS_KB=%M CPU_S=%U+%S", command, ...args] : args;
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(file, argv, { cwd: sandbox.cwd, env: sandbox.env, stdio: ["ignore", "pipe", "pipe"] });
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
			const rss = /PEAK_RSS_KB=(\d+) CPU_S=([\d.]+)\+([\d.]+)/.exec(stderr);
			if (code !== 0) reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${stderr}`));
			else
				resolve({
					wallMs,
					code,
					stdout,
					...(rss ? { peakRssMb: Number(rss[1]) / 1024, cpuMs: (Number(rss[2]) + Number(rss[3])) * 1000 } : {}),
				});
		});
	});
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] as number;
}

async function repeat(times: number, run: () => Promise<Run>): Promise<Run[]> {
	const runs: Run[] = [];
	for (let i = 0; i < times; i++) runs.push(await run());
	return runs;
}

let server: FakeModelServer;
let sandbox: CliSandbox;

beforeAll(async () => {
	server = await FakeModelServer.start();
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
});
afterAll(async () => {
	sandbox.cleanup();
	await server.close();
});

describe("agent CLI overhead", () => {
	it("startup, one print turn, 50 bash turns, peak memory", async () => {
		const node = process.execPath;
		// Warm the file system cache once.
		await timeRun(node, [CLI_PATH, "--version"], sandbox);

		const nodeRuns = await repeat(RUNS, () => timeRun(node, ["-e", "0"], sandbox, true));
		const nodeBaseline = median(nodeRuns.map((r) => r.wallMs));
		const nodeCpu = nodeRuns.map((r) => r.cpuMs).filter((v): v is number => v !== undefined);
		const version = median(
			(await repeat(RUNS, () => timeRun(node, [CLI_PATH, "--version"], sandbox))).map((r) => r.wallMs),
		);

		server.setFallback(textReply("ok"));
		const oneTurnRuns = await repeat(RUNS, () =>
			timeRun(node, [CLI_PATH, "--no-session", "-p", "hi"], sandbox, true),
		);
		expect(oneTurnRuns.every((run) => run.stdout === "ok\n")).toBe(true);
		const oneTurn = median(oneTurnRuns.map((r) => r.wallMs));
		const rss = oneTurnRuns.map((r) => r.peakRssMb).filter((v): v is number => v !== undefined);
		const oneTurnCpu = oneTurnRuns.map((r) => r.cpuMs).filter((v): v is number => v !== undefined);

		// 49 tool calls, then an answer: 50 model turns in one run.
		const runTurns = async (
			toolCall: () => ReturnType<typeof toolCallReply>,
		): Promise<{ wallMs: number; cpuMs: number | undefined }> => {
			server.reset();
			let turn = 0;
			server.setFallback(() => {
				turn += 1;
				return turn < TURNS ? toolCall() : textReply("done");
			});
			const totals: number[] = [];
			const cpu: number[] = [];
			for (let i = 0; i < 3; i++) {
				turn = 0;
				server.scriptedTimeMs = 0;
				const run = await timeRun(node, [CLI_PATH, "--no-session", "-p", "loop"], sandbox, true);
				expect(run.stdout).toBe("done\n");
				totals.push(run.wallMs - server.scriptedTimeMs);
				if (run.cpuMs !== undefined) cpu.push(run.cpuMs);
			}
			return { wallMs: median(totals), cpuMs: cpu.length > 0 ? median(cpu) : undefined };
		};
		const bashRun = await runTurns(() => toolCallReply([{ name: "bash", arguments: { command: "true" } }]));
		const fiftyBashTurns = bashRun.wallMs;
		writeFileSync(join(sandbox.cwd, "note.txt"), "a small file\n");
		const readRun = await runTurns(() => toolCallReply([{ name: "read", arguments: { path: "note.txt" } }]));
		const fiftyReadTurns = readRun.wallMs;
		// The agent process's own CPU per further turn (its waited-for bash children included): what the agent
		// costs, without the fake server's work, which runs on the same two cores and shows up in wall time.
		const oneTurnCpuMedian = oneTurnCpu.length > 0 ? median(oneTurnCpu) : undefined;
		const cpuPerTurn = (run: { cpuMs: number | undefined }) =>
			run.cpuMs !== undefined && oneTurnCpuMedian !== undefined
				? (run.cpuMs - oneTurnCpuMedian) / (TURNS - 1)
				: undefined;
		const bashTurnCpu = cpuPerTurn(bashRun);
		const readTurnCpu = cpuPerTurn(readRun);
		const perTurnTotal = fiftyBashTurns / TURNS;
		// Without startup: what each further turn (request, stream, tool, events) adds.
		const perTurnMarginal = (fiftyBashTurns - oneTurn) / (TURNS - 1);
		const perReadTurnMarginal = (fiftyReadTurns - oneTurn) / (TURNS - 1);

		reportBenchmark("cli", [
			{ name: "node -e 0 (baseline)", value: nodeBaseline, unit: "ms", note: `median of ${RUNS}` },
			{ name: "agent --version", value: version, unit: "ms", target: { max: 100 }, note: `median of ${RUNS}` },
			{
				name: "print mode, one turn (wall)",
				value: oneTurn,
				unit: "ms",
				target: { max: 250 },
				note: `median of ${RUNS}; spawn to exit`,
			},
			{
				name: "per-turn overhead, 50 bash turns (total / turns)",
				value: perTurnTotal,
				unit: "ms",
				target: { max: 3 },
				note: `run ${fiftyBashTurns.toFixed(0)} ms incl. startup, median of 3`,
			},
			{
				name: "per-turn overhead, 50 bash turns (marginal, startup excluded)",
				value: perTurnMarginal,
				unit: "ms",
				note: "includes spawning bash for each tool call",
			},
			{
				name: "per-turn overhead, 50 read turns (marginal, startup excluded)",
				value: perReadTurnMarginal,
				unit: "ms",
				note: "no process spawn: request, SSE parsing, validation, tool, events",
			},
			...(readTurnCpu !== undefined && bashTurnCpu !== undefined
				? [
						{
							name: "agent CPU per further turn, read turns",
							value: readTurnCpu,
							unit: "ms",
							target: { max: 3 },
							note: "utime+stime of the agent process, startup excluded; mostly the OpenAI SDK's HTTP client",
						},
						{
							name: "agent CPU per further turn, bash turns",
							value: bashTurnCpu,
							unit: "ms",
							note: "includes the CPU of each spawned bash",
						},
					]
				: []),
			...(nodeCpu.length > 0 && oneTurnCpu.length > 0
				? [
						{ name: "node -e 0 CPU time", value: median(nodeCpu), unit: "ms", note: "user + sys" },
						{ name: "print mode, one turn, CPU time", value: median(oneTurnCpu), unit: "ms", note: "user + sys" },
					]
				: []),
			...(rss.length > 0
				? [
						{
							name: "peak RSS, one-turn print run",
							value: median(rss),
							unit: "MB",
							target: { max: 100 },
							note: "/usr/bin/time %M",
						},
					]
				: []),
		]);
	});
});
