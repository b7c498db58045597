// MCP's costs (issue 18): start to editor ready with three configured stdio servers (they start in the
// background, so the figure should match a start without any), and what one MCP tool call adds to the server's
// own time: the agent's tool (our transport, timeout and abort wiring, result conversion and truncation)
// against a bare SDK client over the SDK's stdio transport calling the same server.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { median, reportBenchmark } from "../../../scripts/bench-report.js";
import { McpManager } from "../src/core/mcp/manager.js";
import { CLI_PATH, type CliSandbox, createCliSandbox } from "../test/helpers/cli-sandbox.js";
import { FakeModelServer, textReply } from "../test/helpers/fake-model-server.js";
import { FIXTURE_SERVER_PATH, stdioServer, stdioServerJson, waitForState } from "../test/helpers/mcp-fixtures.js";
import { startInPty } from "./helpers/pty.js";

const STARTUP_RUNS = 7;
const CALLS = 300;
const WARMUP_CALLS = 30;
const canUsePty = existsSync("/usr/bin/script");

let server: FakeModelServer;

beforeAll(async () => {
	if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: build first (pnpm build)`);
	server = await FakeModelServer.start();
	server.setFallback(textReply("ok"));
});
afterAll(async () => {
	await server?.close();
});

async function startupTimes(sandbox: CliSandbox): Promise<number[]> {
	const times: number[] = [];
	for (let run = 0; run < STARTUP_RUNS; run++) {
		const started = performance.now();
		const pty = startInPty([], sandbox);
		const ready = await pty.waitFor("fake-model");
		times.push(ready - started);
		pty.close();
		await new Promise((resolve) => pty.child.once("close", resolve));
	}
	return times;
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
			const none: number[] = [];
			const three: number[] = [];
			for (let round = 0; round < 2; round++) {
				none.push(...(await startupTimes(plain)));
				three.push(...(await startupTimes(withServers)));
			}
			reportBenchmark("mcp-startup", [
				{ name: "start to editor ready, no MCP server (median)", value: median(none), unit: "ms" },
				{
					name: "start to editor ready, three stdio MCP servers (median)",
					value: median(three),
					unit: "ms",
					target: { max: 150 },
					note: `${none.length} runs each in a pty, alternating; the servers start in the background`,
				},
			]);
			expect(median(three)).toBeGreaterThan(0);
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
