// MCP servers in the built `agent` binary: print mode calling an MCP tool through a fake model, the trust gate
// for a project's servers, configuration errors, the RPC state command, and no server process outliving the
// agent.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RpcClient } from "../../src/modes/rpc/rpc-client.js";
import { BUNDLE_PATH, type CliSandbox, createCliSandbox, runCli, startRpcAgent } from "../helpers/cli-sandbox.js";
import {
	type RecordedModelRequest,
	startFakeModelServerForFile,
	textReply,
	toolCallReply,
} from "../helpers/fake-model-server.js";
import {
	everythingServerFactory,
	FIXTURE_SERVER_PATH,
	hostSse,
	hostStreamableHttp,
	stdioServerJson,
} from "../helpers/mcp-fixtures.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
let rpc: RpcClient | undefined;

beforeAll(() => {
	if (!existsSync(BUNDLE_PATH)) throw new Error(`${BUNDLE_PATH} is missing: build first (pnpm build)`);
});

afterEach(async () => {
	await rpc?.stop();
	rpc = undefined;
	sandbox?.cleanup();
});

function newSandbox(): CliSandbox {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	return sandbox;
}

function writeMcpJson(path: string, servers: Record<string, unknown>): void {
	mkdirSync(join(path, ".."), { recursive: true });
	writeFileSync(path, JSON.stringify({ mcpServers: servers }, null, 2));
}

/** The text of the tool result messages a request carried. */
function toolResults(request: RecordedModelRequest): string[] {
	return request.body.messages
		.filter((message) => message.role === "tool")
		.map((message) =>
			typeof message.content === "string"
				? message.content
				: (message.content as { text?: string }[]).map((part) => part.text ?? "").join(""),
		);
}

function toolNames(request: RecordedModelRequest): string[] {
	return (request.body.tools ?? []).map((tool) => tool.function.name);
}

describe("print mode", () => {
	it("calls an MCP tool through the mcp tool, then directly once the server is up", async () => {
		const sandbox = newSandbox();
		writeMcpJson(join(sandbox.agentDir, "mcp.json"), { fixture: stdioServerJson(FIXTURE_SERVER_PATH) });
		server.enqueue(
			toolCallReply([{ name: "mcp", arguments: { tool: "mcp__fixture__echo", arguments: { message: "via mcp" } } }]),
			textReply("first done"),
			toolCallReply([{ name: "mcp__fixture__echo", arguments: { message: "direct" } }]),
			textReply("second done"),
		);
		const result = await runCli(sandbox, ["-p", "one", "two"]);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("second done\n");
		expect(toolNames(server.requests[0] as RecordedModelRequest)).toContain("mcp");
		expect(toolResults(server.requests[1] as RecordedModelRequest)).toEqual(["echo: via mcp"]);
		// The second run started after the first one's mcp call had waited for the server.
		expect(toolNames(server.requests[2] as RecordedModelRequest)).toContain("mcp__fixture__echo");
		expect(toolResults(server.requests[3] as RecordedModelRequest).at(-1)).toBe("echo: direct");
		// MCP tools reach the model as tool definitions; the system prompt names only the mcp tool.
		const system = server.requests[2]?.body.messages[0]?.content as string;
		expect(system).toContain("- mcp: Find and call tools of the connected MCP servers");
		expect(system).not.toContain("mcp__fixture__echo");
	});

	it("never starts an untrusted project's servers, and says so once, naming them and --trust-project", async () => {
		const sandbox = newSandbox();
		const marker = join(sandbox.root, "started");
		writeMcpJson(join(sandbox.cwd, ".mcp.json"), {
			sneaky: stdioServerJson(FIXTURE_SERVER_PATH, [], { FIXTURE_MARKER: marker }),
		});
		writeMcpJson(join(sandbox.cwd, ".agent", "mcp.json"), {
			other: stdioServerJson(FIXTURE_SERVER_PATH, [], { FIXTURE_MARKER: marker }),
		});
		server.enqueue(toolCallReply([{ name: "mcp", arguments: { query: "" } }]), textReply("nothing"));
		const result = await runCli(sandbox, ["-p", "hi"]);
		expect(result.code).toBe(0);
		expect(result.stderr).toBe(
			`Ignored because ${sandbox.cwd} is not a trusted project:\n` +
				`  project MCP server sneaky (.mcp.json)\n` +
				`  project MCP server other (.agent/mcp.json)\n` +
				`To trust it, start agent there interactively and accept, or run with --trust-project ` +
				`(remembered in ${join(sandbox.agentDir, "trusted-projects.json")}).\n`,
		);
		// No server at all: the model was not even offered the mcp tool.
		expect(toolNames(server.requests[0] as RecordedModelRequest)).not.toContain("mcp");
		expect(existsSync(marker)).toBe(false);
	});

	it("starts a trusted project's servers with --trust-project", async () => {
		const sandbox = newSandbox();
		writeMcpJson(join(sandbox.cwd, ".mcp.json"), { team: stdioServerJson(FIXTURE_SERVER_PATH) });
		server.enqueue(
			toolCallReply([{ name: "mcp", arguments: { tool: "mcp__team__echo", arguments: { message: "trusted" } } }]),
			textReply("ok"),
		);
		const result = await runCli(sandbox, ["-p", "--trust-project", "hi"]);
		expect(result.stderr).toBe("");
		expect(toolResults(server.requests[1] as RecordedModelRequest)).toEqual(["echo: trusted"]);
	});

	it("reports a bad configuration naming file and server, and keeps the good servers", async () => {
		const sandbox = newSandbox();
		const path = join(sandbox.agentDir, "mcp.json");
		writeMcpJson(path, { good: stdioServerJson(FIXTURE_SERVER_PATH), bad: { args: ["x"] } });
		server.enqueue(
			toolCallReply([{ name: "mcp", arguments: { tool: "mcp__good__echo", arguments: { message: "still here" } } }]),
			textReply("ok"),
		);
		const result = await runCli(sandbox, ["-p", "hi"]);
		expect(result.code).toBe(0);
		expect(result.stderr).toBe(
			`${path}: MCP server "bad": needs "command" (a local server) or "url" (a remote server); the server was not loaded\n`,
		);
		expect(toolResults(server.requests[1] as RecordedModelRequest)).toEqual(["echo: still here"]);
	});

	it("reports a server that cannot start on stderr and answers the model with a tool error", async () => {
		const sandbox = newSandbox();
		writeMcpJson(join(sandbox.agentDir, "mcp.json"), { missing: { command: join(sandbox.root, "no-such-server") } });
		server.enqueue(
			toolCallReply([{ name: "mcp", arguments: { tool: "mcp__missing__anything" } }]),
			textReply("could not"),
		);
		const result = await runCli(sandbox, ["-p", "hi"]);
		expect(result.code).toBe(0);
		expect(result.stderr).toMatch(
			/^MCP server "missing" failed to start: could not start ".*no-such-server": spawn .* ENOENT\. Reconnecting in the background/,
		);
		expect(toolResults(server.requests[1] as RecordedModelRequest)[0]).toMatch(
			/^Unknown MCP tool "mcp__missing__anything"\. .*\n\nServers not available now:\n- missing: reconnecting \(could not start/,
		);
	});
});

describe("RPC mode", () => {
	it("get_mcp_servers reports each server's state, tools and prompts; restart_mcp_server starts it again", async () => {
		const sandbox = newSandbox();
		const path = join(sandbox.agentDir, "mcp.json");
		writeMcpJson(path, { fixture: stdioServerJson(FIXTURE_SERVER_PATH), off: { command: "x", enabled: false } });
		rpc = await startRpcAgent(sandbox);
		// The mcp tool waits for servers in their first attempt: once it answered, the server is up.
		server.enqueue(toolCallReply([{ name: "mcp", arguments: { query: "echo" } }]), textReply("found"));
		await rpc.promptAndWait("find echo");
		const servers = await rpc.getMcpServers();
		expect(servers).toEqual([
			{
				name: "fixture",
				source: "user",
				configPath: path,
				transport: "stdio",
				state: "connected",
				toolMode: "direct",
				tools: expect.arrayContaining([
					{ name: "mcp__fixture__echo", mcpName: "echo", description: "Echoes the message back" },
				]),
				prompts: [{ command: "mcp__fixture__greet", mcpName: "greet", description: "Greets someone" }],
				failedAttempts: 0,
				pid: expect.any(Number),
				stderr: "fixture: ready\n",
			},
			{
				name: "off",
				source: "user",
				configPath: path,
				transport: "stdio",
				state: "disabled",
				tools: [],
				prompts: [],
				failedAttempts: 0,
			},
		]);
		expect((await rpc.getCommands()).filter((command) => command.source === "mcp")).toEqual([
			{ name: "mcp__fixture__greet", description: "Greets someone", source: "mcp" },
		]);
		await rpc.restartMcpServer("fixture");
		await expect(rpc.restartMcpServer("nope")).rejects.toThrow('Unknown MCP server "nope"');
	});

	it("connects remote servers over streamable HTTP and SSE from the built binary", async () => {
		const sandbox = newSandbox();
		const http = await hostStreamableHttp(await everythingServerFactory());
		const sse = await hostSse(await everythingServerFactory());
		try {
			writeMcpJson(join(sandbox.agentDir, "mcp.json"), {
				web: { type: "http", url: http.url },
				legacy: { url: sse.url },
			});
			rpc = await startRpcAgent(sandbox);
			server.enqueue(
				toolCallReply([
					{ name: "mcp", arguments: { tool: "mcp__web__echo", arguments: { message: "over http" } } },
					{ name: "mcp", arguments: { tool: "mcp__legacy__echo", arguments: { message: "over sse" } } },
				]),
				textReply("both answered"),
			);
			await rpc.promptAndWait("echo twice");
			expect(toolResults(server.requests[1] as RecordedModelRequest)).toEqual(["Echo: over http", "Echo: over sse"]);
			const states = (await rpc.getMcpServers()).map((status) => [status.name, status.transport, status.state]);
			expect(states).toEqual([
				["web", "http", "connected"],
				// No `type`: streamable HTTP was refused, SSE is in use.
				["legacy", "sse", "connected"],
			]);
		} finally {
			await rpc?.stop();
			rpc = undefined;
			await http.close();
			await sse.close();
		}
	});

	it("expands an MCP prompt sent as a slash command", async () => {
		const sandbox = newSandbox();
		writeMcpJson(join(sandbox.agentDir, "mcp.json"), { fixture: stdioServerJson(FIXTURE_SERVER_PATH) });
		rpc = await startRpcAgent(sandbox);
		server.enqueue(textReply("hello Ada"));
		await rpc.promptAndWait("/mcp__fixture__greet Ada");
		const user = server.requests[0]?.body.messages.at(-1);
		expect(JSON.stringify(user?.content)).toContain("Say hello to Ada.");
	});

	it("leaves no server process behind when the agent is terminated", async () => {
		const sandbox = newSandbox();
		const sockets: Socket[] = [];
		const watcher = createServer((socket) => sockets.push(socket));
		await new Promise<void>((resolve) => watcher.listen(0, "127.0.0.1", () => resolve()));
		const connected = new Promise<Socket>((resolve) => watcher.once("connection", resolve));
		const port = (watcher.address() as AddressInfo).port;
		writeMcpJson(join(sandbox.agentDir, "mcp.json"), {
			fixture: stdioServerJson(FIXTURE_SERVER_PATH, [], { FIXTURE_WATCH_PORT: String(port) }),
		});
		rpc = await startRpcAgent(sandbox);
		const socket = await connected;
		const serverGone = new Promise<void>((resolve) => socket.once("close", () => resolve()));
		socket.resume();
		process.kill(rpc.pid as number, "SIGTERM");
		const exit = await rpc.waitForExit();
		expect(exit.code).toBe(143);
		await serverGone;
		watcher.close();
	});
});
