// MCP's costs (issue 18): start to editor ready with three configured stdio servers (they start in the
// background, so the figure should match a start without any), and what one MCP tool call adds to the server's
// own time: the agent's tool (our transport, timeout and abort wiring, result conversion and truncation)
// against a bare SDK client over the SDK's stdio transport calling the same server.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { median, reportBenchmark } from "../../../scripts/bench-report.js";
import { McpManager } from "../src/core/mcp/manager.js";
import { BUNDLE_PATH, type CliSandbox, createCliSandbox } from "../test/helpers/cli-sandbox.js";
import { FakeModelServer, textReply } from "../test/helpers/fake-model-server.js";
import { FIXTURE_SERVER_PATH, stdioServer, stdioServerJson, waitForState } from "../test/helpers/mcp-fixtures.js";
import { cpuTicks, findAgentPid, startInPty } from "./helpers/pty.js";

const STARTUP_RUNS = 7;
const CALLS = 300;
const WARMUP_CALLS = 30;
const canUsePty = existsSync("/usr/bin/script") && existsSync("/proc/self/stat");
const CLOCK_TICKS_PER_SECOND = 100;

let server: FakeModelServer;

beforeAll(async () => {
	if (!existsSync(BUNDLE_PATH)) throw new Error(`${BUNDLE_PATH} is missing: build first (pnpm build)`);
	server = await FakeModelServer.start();
	server.setFallback(textReply("ok"));
});
afterAll(async () => {
	await server?.close();
});

/** Wall time from spawn to the first frame with the footer, and the agent's CPU time when it arrived. */
async function startupTimes(sandbox: CliSandbox, into: { wall: number[]; cpu: number[] }): Promise<void> {
	for (let run = 0; run < STARTUP_RUNS; run++) {
		const started = performance.now();
		const pty = startInPty([], sandbox);
		const ready = await pty.waitFor("fake-model");
		into.wall.push(ready - started);
		const pid = findAgentPid(pty.child.pid as number);
		if (pid !== undefined) into.cpu.push((cpuTicks(pid) / CLOCK_TICKS_PER_SECOND) * 1000);
		pty.close();
		await new Promise((resolve) => pty.child.once("close", resolve));
	}
}

describe("MCP", () => {
	it.skipIf(!canUsePty)("starts as fast with three stdio servers configured as with none", async () => {
		const plain = createCliSandbox({ modelServerUrl: server.baseUrl });
		const withServers = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFileSync(
			join(withServers.agentDir, "mcp.json"),
			JSON.stringify({
				mcpServers: {
					one: stdioServerJson(FIXTURE_SERVER_PATH),
					two: stdioServerJson(FIXTURE_SERVER_PATH),
					three: stdioServerJson(FIXTURE_SERVER_PATH),
				},
			}),
		);
		try {
			// Alternating runs, so drift of the machine's load affects both alike.
			const none = { wall: [] as number[], cpu: [] as number[] };
			const three = { wall: [] as number[], cpu: [] as number[] };
			for (let round = 0; round < 2; round++) {
				await startupTimes(plain, none);
				await startupTimes(withServers, three);
			}
			const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
			reportBenchmark("mcp-startup", [
				{ name: "start to editor ready, no MCP server (median)", value: median(none.wall), unit: "ms" },
				{
					name: "start to editor ready, three stdio MCP servers (median)",
					value: median(three.wall),
					unit: "ms",
					target: { max: 150 },
					note: `${none.wall.length} runs each in a pty, alternating; the servers start after the first frame; load average ${load}`,
				},
				{ name: "CPU time to editor ready, no MCP server (median)", value: median(none.cpu), unit: "ms" },
				{
					name: "CPU time to editor ready, three stdio MCP servers (median)",
					value: median(three.cpu),
					unit: "ms",
					note: "utime+stime of the agent process when the first frame arrived (less sensitive to a busy machine)",
				},
			]);
			expect(median(three.wall)).toBeGreaterThan(0);
		} finally {
			plain.cleanup();
			withServers.cleanup();
		}
	});

	it("adds little to an MCP tool call over the server's own time", async () => {
		// The baseline: the SDK's own client and stdio transport, nothing of ours.
		const bare = new Client({ name: "bench", version: "1" });
		await bare.connect(
			new StdioClientTransport({ command: process.execPath, args: [FIXTURE_SERVER_PATH], stderr: "pipe" }),
		);
		const manager = new McpManager({
			fileServers: [stdioServer("fixture", FIXTURE_SERVER_PATH)],
			settings: () => ({ toolTimeoutMs: 60_000, connectTimeoutMs: 30_000, directToolLimit: 40 }),
		});
		manager.start();
		await waitForState(manager, "fixture", "connected");
		const tool = manager.getTools().find((candidate) => candidate.name === "mcp__fixture__echo");
		if (!tool) throw new Error("no echo tool");
		try {
			const bareTimes: number[] = [];
			const agentTimes: number[] = [];
			for (let i = 0; i < WARMUP_CALLS + CALLS; i++) {
				// Interleaved, so both see the same machine.
				let start = performance.now();
				await bare.callTool({ name: "echo", arguments: { message: `m${i}` } });
				const bareMs = performance.now() - start;
				start = performance.now();
				await tool.execute(`c${i}`, { message: `m${i}` }, new AbortController().signal);
				const agentMs = performance.now() - start;
				if (i >= WARMUP_CALLS) {
					bareTimes.push(bareMs);
					agentTimes.push(agentMs);
				}
			}
			const overhead = median(agentTimes) - median(bareTimes);
			reportBenchmark("mcp-tool-call", [
				{ name: "echo call, bare SDK client (median)", value: median(bareTimes), unit: "ms" },
				{ name: "echo call, the agent's MCP tool (median)", value: median(agentTimes), unit: "ms" },
				{
					name: "added by the agent per call (median difference)",
					value: overhead,
					unit: "ms",
					target: { max: 5 },
					note: `${CALLS} interleaved calls after ${WARMUP_CALLS} warm-up calls, stdio fixture server`,
				},
			]);
			expect(overhead).toBeLessThan(5);
		} finally {
			await bare.close();
			await manager.dispose();
		}
	});
});
