// MCP servers an editor passes over ACP: connected for that session, their tools called in a turn, their
// prompts offered as commands, and a server that cannot start reported as a notice.
import { join } from "node:path";
import type { McpServer } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";
import { FIXTURE_SERVER_PATH } from "../helpers/mcp-fixtures.js";
import { AcpTestClient } from "./acp-test-client.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
let client: AcpTestClient | undefined;

afterEach(async () => {
	client?.kill();
	client = undefined;
	sandbox?.cleanup();
});

const fixture = (name: string): McpServer => ({
	name,
	command: process.execPath,
	args: [FIXTURE_SERVER_PATH],
	env: [],
});

describe("session/new with mcpServers", () => {
	it("connects the editor's servers for the session and calls their tools in a turn", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		client = await AcpTestClient.start(sandbox);
		await client.initialize();
		const { sessionId } = await client.agent.request("session/new", {
			cwd: sandbox.cwd,
			mcpServers: [fixture("editor-tools")],
		});
		server.enqueue(
			toolCallReply([
				{ name: "mcp", arguments: { tool: "mcp__editor-tools__echo", arguments: { message: "from the editor" } } },
			]),
			textReply("done"),
		);
		const response = await client.agent.request("session/prompt", {
			sessionId,
			prompt: [{ type: "text", text: "use the editor's server" }],
		});
		expect(response.stopReason).toBe("end_turn");
		const toolMessage = server.requests[1]?.body.messages.find((message) => message.role === "tool");
		expect(JSON.stringify(toolMessage?.content)).toContain("echo: from the editor");
		// Its prompt became a command once it connected.
		const commands = await client.waitForUpdate(
			(n) =>
				n.update.sessionUpdate === "available_commands_update" &&
				n.update.availableCommands.some((command) => command.name === "mcp__editor-tools__greet"),
		);
		expect(commands.sessionId).toBe(sessionId);
	});

	it("reports a server that cannot start to the editor", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		client = await AcpTestClient.start(sandbox);
		await client.initialize();
		const { sessionId } = await client.agent.request("session/new", {
			cwd: sandbox.cwd,
			mcpServers: [{ name: "ghost", command: join(sandbox.root, "missing"), args: [], env: [] }],
		});
		// The session is still made; the failure reaches the editor's log.
		expect(sessionId).toEqual(expect.any(String));
		await client.waitForStderr(/MCP server "ghost" failed to start: could not start/);
	});
});

describe("session/load and session/resume with mcpServers", () => {
	for (const method of ["session/load", "session/resume"] as const) {
		it(`${method} connects the servers the editor passes for the reopened session`, async () => {
			sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
			const first = await AcpTestClient.start(sandbox);
			await first.initialize();
			const { sessionId } = await first.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
			server.enqueue(textReply("hello"));
			await first.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
			expect(await first.stop()).toBe(0);

			client = await AcpTestClient.start(sandbox);
			await client.initialize();
			await client.agent.request(method, { sessionId, cwd: sandbox.cwd, mcpServers: [fixture("later")] });
			server.enqueue(
				toolCallReply([
					{ name: "mcp", arguments: { tool: "mcp__later__echo", arguments: { message: "reopened" } } },
				]),
				textReply("done"),
			);
			await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "use it" }] });
			const toolMessage = server.requests.at(-1)?.body.messages.find((message) => message.role === "tool");
			expect(JSON.stringify(toolMessage?.content)).toContain("echo: reopened");
		});
	}
});

describe("read-only mode", () => {
	it("keeps MCP tools off, also those of a server that connects meanwhile, and back in code mode", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		client = await AcpTestClient.start(sandbox);
		await client.initialize();
		const { sessionId } = await client.agent.request("session/new", {
			cwd: sandbox.cwd,
			mcpServers: [fixture("late")],
		});
		await client.agent.request("session/set_mode", { sessionId, modeId: "read-only" });
		// The server's prompt is offered once it connected.
		await client.waitForUpdate(
			(n) =>
				n.update.sessionUpdate === "available_commands_update" &&
				n.update.availableCommands.some((command) => command.name === "mcp__late__greet"),
		);
		const toolsOf = (index: number) => (server.requests[index]?.body.tools ?? []).map((tool) => tool.function.name);
		server.enqueue(textReply("looked"), textReply("worked"));
		await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "look" }] });
		expect(toolsOf(0)).toEqual(["read", "grep", "find", "ls"]);
		await client.agent.request("session/set_mode", { sessionId, modeId: "code" });
		await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "work" }] });
		expect(toolsOf(1)).toEqual(expect.arrayContaining(["bash", "edit", "mcp", "mcp__late__echo"]));
	});
});
