// MCP servers in an AgentSession: their tools join the active tools when they connect (the system prompt does
// not change), calls go through the extension hooks like built-in tools, /reload picks up a changed mcp.json,
// and shutdown stops the servers.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxText, fauxToolCall } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE_SERVER_PATH, stdioServer, stdioServerJson, waitForState } from "../helpers/mcp-fixtures.js";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";
import { TestHooks } from "../helpers/runtime-hooks.js";

let harness: RuntimeHarness | undefined;

afterEach(async () => {
	await harness?.session.mcp?.dispose();
	harness?.dispose();
	harness = undefined;
});

function toolResultTexts(h: RuntimeHarness): string[] {
	return h.session.messages
		.filter((message) => message.role === "toolResult")
		.map((message) => (message.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join(""));
}

describe("an MCP server in a session", () => {
	it("adds its tools when it connects, without changing the system prompt", async () => {
		harness = await createRuntimeHarness({ mcp: { servers: [stdioServer("fixture", FIXTURE_SERVER_PATH)] } });
		const { session } = harness;
		const promptBefore = session.systemPrompt;
		expect(session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write", "mcp"]);
		// Servers start when the mode binds the session (or with the first prompt).
		expect(session.getMcpServers()[0]?.pid).toBeUndefined();
		await session.bindExtensions();
		await waitForState(session.mcp as NonNullable<typeof session.mcp>, "fixture", "connected");
		expect(session.getActiveToolNames()).toContain("mcp__fixture__echo");
		expect(session.systemPrompt).toBe(promptBefore);
		expect(promptBefore).toContain("- mcp: Find and call tools of the connected MCP servers");
		expect(session.getMcpServers()[0]).toMatchObject({ name: "fixture", state: "connected", source: "sdk" });
	});

	it("runs calls through the tool_call and tool_result hooks like built-in tools", async () => {
		const seen: string[] = [];
		const hooks = new TestHooks({
			emitToolCall: async (event) => {
				seen.push(`call ${event.toolName} ${JSON.stringify(event.input)}`);
				return event.toolName === "mcp__fixture__crash" ? { block: true, reason: "not today" } : undefined;
			},
			emitToolResult: async (event) => {
				seen.push(`result ${event.toolName} ${event.isError}`);
				return event.toolName === "mcp__fixture__echo"
					? { content: [{ type: "text", text: "patched by an extension" }] }
					: undefined;
			},
		});
		harness = await createRuntimeHarness({ hooks, mcp: { servers: [stdioServer("fixture", FIXTURE_SERVER_PATH)] } });
		const { session, faux } = harness;
		await session.bindExtensions();
		await waitForState(session.mcp as NonNullable<typeof session.mcp>, "fixture", "connected");
		faux.enqueue(
			fauxToolCall("mcp__fixture__echo", { message: "hello" }),
			fauxToolCall("mcp__fixture__crash", {}),
			fauxToolCall("mcp__fixture__fail", {}),
			fauxText("done"),
		);
		await session.prompt("go");
		expect(seen).toEqual([
			'call mcp__fixture__echo {"message":"hello"}',
			"result mcp__fixture__echo false",
			// A blocked call has no result to patch.
			"call mcp__fixture__crash {}",
			"call mcp__fixture__fail {}",
			"result mcp__fixture__fail true",
		]);
		expect(toolResultTexts(harness)).toEqual(["patched by an extension", "not today", "the fixture refuses"]);
		// The blocked crash never reached the server.
		expect(session.getMcpServers()[0]?.state).toBe("connected");
	});

	it("picks up a changed mcp.json on /reload, and stops its servers on shutdown", async () => {
		harness = await createRuntimeHarness();
		const { session, agentDir } = harness;
		const manager = session.mcp as NonNullable<typeof session.mcp>;
		await session.bindExtensions();
		expect(session.getMcpServers()).toEqual([]);
		writeFileSync(
			join(agentDir, "mcp.json"),
			JSON.stringify({ mcpServers: { added: stdioServerJson(FIXTURE_SERVER_PATH) } }),
		);
		await session.reload();
		const connected = await waitForState(manager, "added", "connected");
		expect(connected.source).toBe("user");
		expect(session.getActiveToolNames()).toContain("mcp__added__echo");

		const pid = connected.pid as number;
		await session.shutdown();
		// Shutdown resolves once the server's process has exited (and been reaped).
		expect(() => process.kill(pid, 0)).toThrow();
		expect(session.getMcpServers()[0]?.state).toBe("stopped");
	});
});
