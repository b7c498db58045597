import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { McpServerConfig } from "../../src/core/mcp/config.js";
import { McpManager } from "../../src/core/mcp/manager.js";
import type { McpNotice } from "../../src/core/mcp/status.js";
import {
	EVERYTHING_SERVER_PATH,
	FILESYSTEM_SERVER_PATH,
	FIXTURE_SERVER_PATH,
	stdioServer,
	waitForServer,
	waitForState,
} from "../helpers/mcp-fixtures.js";

const managers: McpManager[] = [];
const dirs: string[] = [];

afterEach(async () => {
	await Promise.all(managers.splice(0).map((manager) => manager.dispose()));
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function startManager(servers: McpServerConfig[], settings: { toolTimeoutMs?: number; directToolLimit?: number } = {}) {
	const manager = new McpManager({
		fileServers: servers,
		settings: () => ({
			toolTimeoutMs: settings.toolTimeoutMs ?? 60_000,
			connectTimeoutMs: 30_000,
			directToolLimit: settings.directToolLimit ?? 40,
		}),
		reconnectDelayMs: () => 0,
		maxAttempts: 3,
	});
	managers.push(manager);
	const notices: McpNotice[] = [];
	manager.onNotice((notice) => notices.push(notice));
	manager.start();
	return { manager, notices };
}

function tool(manager: McpManager, name: string) {
	const found = manager.getTools().find((candidate) => candidate.name === name);
	if (!found) throw new Error(`no tool ${name} in ${manager.getTools().map((t) => t.name)}`);
	return found;
}

function textOf(result: { content: { type: string; text?: string }[] }): string {
	return result.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
}

describe("the everything server over stdio", () => {
	it("lists its tools as mcp__everything__<tool> with the server's schema and answers a call", async () => {
		const { manager } = startManager([stdioServer("everything", EVERYTHING_SERVER_PATH, ["stdio"])]);
		const status = await waitForState(manager, "everything", "connected");
		expect(status.toolMode).toBe("direct");
		expect(status.pid).toBeGreaterThan(0);
		const echo = tool(manager, "mcp__everything__echo");
		expect(echo.description).toBe("Echoes back the input string");
		expect(echo.parameters).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
		expect(textOf(await echo.execute("c1", { message: "hi there" }))).toBe("Echo: hi there");
		const sum = await tool(manager, "mcp__everything__get-sum").execute("c2", { a: 2, b: 3 });
		expect(textOf(sum)).toContain("5");
	});

	it("passes images on to the model", async () => {
		const { manager } = startManager([stdioServer("everything", EVERYTHING_SERVER_PATH, ["stdio"])]);
		await waitForState(manager, "everything", "connected");
		const result = await tool(manager, "mcp__everything__get-tiny-image").execute("c1", {});
		const image = result.content.find((part) => part.type === "image");
		expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
		expect(textOf(result)).toContain("The image above is the MCP logo.");
	});

	it("offers the server's prompts as slash commands and expands one with positional arguments", async () => {
		const { manager } = startManager([stdioServer("everything", EVERYTHING_SERVER_PATH, ["stdio"])]);
		await waitForState(manager, "everything", "connected");
		const names = manager.getPromptCommands().map((command) => command.name);
		expect(names).toContain("mcp__everything__simple-prompt");
		const expanded = await manager.expandPromptCommand("/mcp__everything__simple-prompt");
		expect(expanded?.text).toContain("This is a simple prompt");
		expect(await manager.expandPromptCommand("/not-mcp")).toBeUndefined();
	});
});

describe("the filesystem server over stdio", () => {
	it("reads a file of the directory it was given", async () => {
		const dir = realpathSync(mkdtempSync(join(tmpdir(), "mcp-fs-")));
		dirs.push(dir);
		writeFileSync(join(dir, "notes.txt"), "filesystem says hello");
		const { manager } = startManager([stdioServer("fs", FILESYSTEM_SERVER_PATH, [dir])]);
		await waitForState(manager, "fs", "connected");
		const read = tool(manager, "mcp__fs__read_text_file");
		expect(textOf(await read.execute("c1", { path: join(dir, "notes.txt") }))).toContain("filesystem says hello");
		await expect(read.execute("c2", { path: "/etc/passwd" })).rejects.toThrow(/denied|outside/i);
	});
});

describe("misbehaving servers", () => {
	it("truncates a 1 MB answer like other tool output and keeps the whole text in a file", async () => {
		const { manager } = startManager([stdioServer("fixture", FIXTURE_SERVER_PATH)]);
		await waitForState(manager, "fixture", "connected");
		const oneLine = await tool(manager, "mcp__fixture__big").execute("c1", {});
		const text = textOf(oneLine);
		expect(Buffer.byteLength(text)).toBeLessThan(52 * 1024);
		const path = /Full output: (\S+)\]$/.exec(text)?.[1] as string;
		expect(text).toContain("[Showing the first 50.0KB of line 1 (1.0MB in all).");
		expect(readFileSync(path, "utf8")).toHaveLength(1024 * 1024);
		const manyLines = textOf(await tool(manager, "mcp__fixture__big").execute("c2", { lines: true }));
		expect(manyLines).toMatch(/\[Showing lines 1-\d+ of 20000 \(50\.0KB limit\)\. Full output: \S+\]$/);
		rmSync(path);
	});

	it("cancels a call that hits the per-call timeout, and the server learns of it", async () => {
		const { manager } = startManager([stdioServer("fixture", FIXTURE_SERVER_PATH)], { toolTimeoutMs: 200 });
		await waitForState(manager, "fixture", "connected");
		await expect(tool(manager, "mcp__fixture__hang").execute("c1", {})).rejects.toThrow(
			'MCP tool "hang" of server "fixture" did not answer within 200 ms and was cancelled.',
		);
		expect(textOf(await tool(manager, "mcp__fixture__cancellations").execute("c2", {}))).toBe("1");
	});

	it("cancels the MCP request when the tool call is aborted", async () => {
		const { manager } = startManager([stdioServer("fixture", FIXTURE_SERVER_PATH)]);
		await waitForState(manager, "fixture", "connected");
		const controller = new AbortController();
		const updates: string[] = [];
		// Aborted once the server reports that the call is running there.
		const call = tool(manager, "mcp__fixture__hang").execute("c1", {}, controller.signal, (partial) => {
			updates.push(textOf(partial));
			controller.abort();
		});
		await expect(call).rejects.toThrow("Operation aborted");
		expect(updates).toEqual(["waiting forever (0)"]);
		expect(textOf(await tool(manager, "mcp__fixture__cancellations").execute("c2", {}))).toBe("1");
	});

	it("returns an error result to the model as a tool error", async () => {
		const { manager } = startManager([stdioServer("fixture", FIXTURE_SERVER_PATH)]);
		await waitForState(manager, "fixture", "connected");
		await expect(tool(manager, "mcp__fixture__fail").execute("c1", {})).rejects.toThrow("the fixture refuses");
	});

	it("reports a crash once, fails the call, reconnects, and the tools work again", async () => {
		const { manager, notices } = startManager([stdioServer("fixture", FIXTURE_SERVER_PATH)]);
		const first = await waitForState(manager, "fixture", "connected");
		await expect(tool(manager, "mcp__fixture__crash").execute("c1", {})).rejects.toThrow(/MCP tool "crash"/);
		const again = await waitForServer(
			manager,
			"fixture",
			(status) => status.state === "connected" && status.pid !== first.pid,
		);
		expect(again.stderr).toContain("fixture: crashing on purpose");
		expect(notices).toEqual([
			{
				server: "fixture",
				level: "warning",
				text: expect.stringMatching(
					/^MCP server "fixture" stopped: the server exited with code 3; stderr: fixture: crashing on purpose\. Reconnecting/,
				),
			},
		]);
		expect(textOf(await tool(manager, "mcp__fixture__echo").execute("c2", { message: "back" }))).toBe("echo: back");
	});

	it("gives up on a server that never starts after the bounded attempts, reporting it twice at most", async () => {
		const { manager, notices } = startManager([
			stdioServer("broken", FIXTURE_SERVER_PATH, [], { FIXTURE_EXIT_ON_START: "2" }),
		]);
		const status = await waitForState(manager, "broken", "failed");
		expect(status.failedAttempts).toBe(3);
		expect(status.error).toContain("fixture: refusing to start");
		expect(notices.map((notice) => notice.text)).toEqual([
			expect.stringMatching(/^MCP server "broken" failed to start: .*Reconnecting in the background/),
			expect.stringMatching(/^MCP server "broken" failed 3 times and was stopped: .*\/mcp restart broken/),
		]);
		expect(manager.getTools().map((t) => t.name)).toEqual(["mcp"]);
	});

	it("does not pass the agent's provider keys to a server unless its env names them", async () => {
		process.env.OPENAI_API_KEY = "sk-from-the-agent";
		try {
			const { manager } = startManager([
				stdioServer("fixture", FIXTURE_SERVER_PATH, [], { CONFIGURED: "yes", ANTHROPIC_API_KEY: "given" }),
			]);
			await waitForState(manager, "fixture", "connected");
			const env = tool(manager, "mcp__fixture__env");
			expect(textOf(await env.execute("c1", { name: "OPENAI_API_KEY" }))).toBe("(unset)");
			expect(textOf(await env.execute("c2", { name: "ANTHROPIC_API_KEY" }))).toBe("given");
			expect(textOf(await env.execute("c3", { name: "CONFIGURED" }))).toBe("yes");
		} finally {
			delete process.env.OPENAI_API_KEY;
		}
	});
});

describe("direct and on-demand servers", () => {
	it("lists a small server directly and reaches a large one through the mcp tool", async () => {
		const { manager } = startManager(
			[
				stdioServer("small", FIXTURE_SERVER_PATH),
				stdioServer("large", FIXTURE_SERVER_PATH, [], { FIXTURE_EXTRA_TOOLS: "40" }),
			],
			{ directToolLimit: 20 },
		);
		await manager.whenStarted();
		const modes = Object.fromEntries(manager.getServers().map((server) => [server.name, server.toolMode]));
		expect(modes).toEqual({ small: "direct", large: "on-demand" });
		const names = manager.getTools().map((t) => t.name);
		expect(names).toContain("mcp__small__echo");
		expect(names.some((name) => name.startsWith("mcp__large__"))).toBe(false);

		const mcp = tool(manager, "mcp");
		const found = textOf(await mcp.execute("c1", { query: "extra tool number 7" }));
		expect(found).toContain("## mcp__large__tool_7\nExtra tool number 7\nInput schema: ");
		expect(textOf(await mcp.execute("c2", { tool: "mcp__large__tool_7" }))).toBe("tool_7");
		await expect(mcp.execute("c3", { tool: "mcp__large__echo", arguments: {} })).rejects.toThrow(
			/Validation failed for tool "mcp__large__echo"/,
		);
		await expect(mcp.execute("c4", { tool: "mcp__nowhere__x" })).rejects.toThrow(
			'Unknown MCP tool "mcp__nowhere__x"',
		);
	});

	it("answers a search while a server is still starting, once it is up", async () => {
		const { manager } = startManager([stdioServer("fixture", FIXTURE_SERVER_PATH)]);
		// No wait for the connection: the mcp tool waits for servers in their first attempt.
		const mcp = tool(manager, "mcp");
		expect(textOf(await mcp.execute("c1", { query: "echo" }))).toContain("## mcp__fixture__echo");
	});

	it("expands an MCP prompt, naming a missing required argument", async () => {
		const { manager } = startManager([stdioServer("fixture", FIXTURE_SERVER_PATH)]);
		await waitForState(manager, "fixture", "connected");
		expect((await manager.expandPromptCommand("/mcp__fixture__greet Ada very warmly"))?.text).toBe(
			"Say hello to Ada very warmly.",
		);
		await expect(manager.expandPromptCommand("/mcp__fixture__greet")).rejects.toThrow(
			"/mcp__fixture__greet needs the argument name (in this order, after the command).",
		);
	});
});

describe("lifecycle", () => {
	it("a disabled server never starts and is listed as disabled", async () => {
		const dir = realpathSync(mkdtempSync(join(tmpdir(), "mcp-off-")));
		dirs.push(dir);
		mkdirSync(dir, { recursive: true });
		const marker = join(dir, "started");
		const { manager } = startManager([
			{ ...stdioServer("off", FIXTURE_SERVER_PATH, [], { FIXTURE_MARKER: marker }), enabled: false },
		]);
		await manager.whenStarted();
		expect(manager.getServers()[0]).toMatchObject({ name: "off", state: "disabled" });
		expect(manager.getTools()).toEqual([]);
		expect(() => readFileSync(marker)).toThrow();
	});

	it("keeps only the end of a chatty server's stderr", async () => {
		const manager = new McpManager({
			fileServers: [stdioServer("noisy", FIXTURE_SERVER_PATH)],
			settings: () => ({ toolTimeoutMs: 1000, connectTimeoutMs: 1000, directToolLimit: 40 }),
			// A client whose server wrote 20,000 lines to stderr while starting.
			connect: async (_config, hooks) => {
				for (let i = 1; i <= 20_000; i++) hooks.onStderr(`noise line ${i}\n`);
				return {
					listTools: async () => [],
					listPrompts: async () => [],
					callTool: async () => ({ content: [] }),
					getPrompt: async () => ({ messages: [] }),
					close: async () => {},
				};
			},
		});
		managers.push(manager);
		manager.start();
		const status = await waitForState(manager, "noisy", "connected");
		expect(status.stderr?.length).toBeLessThanOrEqual(16 * 1024);
		expect(status.stderr).toMatch(/noise line 19999\nnoise line 20000\n$/);
	});

	it("restart starts a new process and resets the failures", async () => {
		const { manager } = startManager([stdioServer("fixture", FIXTURE_SERVER_PATH)]);
		const first = await waitForState(manager, "fixture", "connected");
		await manager.restart("fixture");
		const second = await waitForState(manager, "fixture", "connected");
		expect(second.pid).not.toBe(first.pid);
		await expect(manager.restart("nope")).rejects.toThrow('Unknown MCP server "nope"');
	});
});
