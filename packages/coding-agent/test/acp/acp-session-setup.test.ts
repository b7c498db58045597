// `agent --mode acp` end to end: initialization, authentication, new sessions with their modes, config
// options and commands, listing, and what the process does when stdin ends.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROTOCOL_VERSION, RequestError } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { VERSION } from "../../src/config.js";
import { type CliSandbox, createCliSandbox, FAKE_MODEL, FAKE_PROVIDER } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply } from "../helpers/fake-model-server.js";
import { AcpTestClient } from "./acp-test-client.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
let client: AcpTestClient | undefined;

afterEach(async () => {
	client?.kill();
	client = undefined;
	sandbox?.cleanup();
});

async function start(args: string[] = [], options: { models?: boolean } = {}): Promise<AcpTestClient> {
	sandbox = createCliSandbox(options.models === false ? {} : { modelServerUrl: server.baseUrl });
	client = await AcpTestClient.start(sandbox, { args });
	return client;
}

describe("initialize", () => {
	it("answers with protocol version 1, the agent's name and version, and what it supports", async () => {
		const agent = await start();
		const response = await agent.initialize();
		expect(response.protocolVersion).toBe(PROTOCOL_VERSION);
		expect(response.agentInfo).toMatchObject({ name: "agent", version: VERSION });
		expect(response.agentCapabilities).toMatchObject({
			loadSession: true,
			promptCapabilities: { image: true, embeddedContext: true },
			sessionCapabilities: { list: {} },
			mcpCapabilities: { http: true, sse: true },
		});
	});

	it("lists auth methods naming the environment variables and the config files", async () => {
		const agent = await start();
		const { authMethods = [] } = await agent.initialize();
		const descriptions = authMethods.map((method) => method.description ?? "").join("\n");
		for (const variable of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"]) {
			expect(descriptions).toContain(variable);
		}
		expect(descriptions).toContain(join(sandbox.agentDir, "auth.json"));
		expect(descriptions).toContain(join(sandbox.agentDir, "models.json"));
	});

	it("does not advertise loading sessions with --no-session", async () => {
		const agent = await start(["--no-session"]);
		expect((await agent.initialize()).agentCapabilities?.loadSession).toBe(false);
	});
});

describe("authenticate", () => {
	it("succeeds once a model has credentials", async () => {
		const agent = await start();
		await agent.initialize();
		await expect(agent.agent.request("authenticate", { methodId: "agent-config" })).resolves.toEqual({});
	});

	it("answers auth_required without credentials, and session/new does too", async () => {
		const agent = await start([], { models: false });
		await agent.initialize();
		const authError = await agent.agent.request("authenticate", { methodId: "anthropic-api-key" }).catch((e) => e);
		expect(authError).toBeInstanceOf(RequestError);
		expect((authError as RequestError).code).toBe(-32000);
		expect((authError as RequestError).message).toContain("ANTHROPIC_API_KEY");
		const sessionError = await agent.agent
			.request("session/new", { cwd: sandbox.cwd, mcpServers: [] })
			.catch((e) => e);
		expect((sessionError as RequestError).code).toBe(-32000);
	});
});

describe("session/new", () => {
	it("returns the session's modes and its mode, model and thinking options", async () => {
		const agent = await start();
		await agent.initialize();
		const response = await agent.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
		expect(response.sessionId).toMatch(/^[0-9a-f-]{36}$/);
		expect(response.modes).toEqual({
			currentModeId: "default",
			availableModes: ["default", "acceptEdits", "plan", "ask", "yolo", "read-only"].map((id) =>
				expect.objectContaining({ id }),
			),
		});
		const options = response.configOptions ?? [];
		expect(options.map((option) => [option.id, option.category])).toEqual([
			["mode", "mode"],
			["model", "model"],
			["thinking", "thought_level"],
		]);
		expect(options[1]).toMatchObject({ currentValue: `${FAKE_PROVIDER}/${FAKE_MODEL}` });
	});

	it("sends the prompt templates and skills as available commands after answering", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		mkdirSync(join(sandbox.agentDir, "prompts"), { recursive: true });
		writeFileSync(
			join(sandbox.agentDir, "prompts", "review.md"),
			"---\ndescription: Review the diff\n---\nReview $@",
		);
		client = await AcpTestClient.start(sandbox);
		await client.initialize();
		const { sessionId } = await client.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
		const update = await client.waitForUpdate(
			(n) => n.sessionId === sessionId && n.update.sessionUpdate === "available_commands_update",
		);
		const commands =
			update.update.sessionUpdate === "available_commands_update" ? update.update.availableCommands : [];
		expect(commands).toContainEqual(
			expect.objectContaining({ name: "review", description: "Review the diff (user)" }),
		);
		expect(commands.map((command) => command.name)).toContain("compact");
	});

	it("rejects a relative cwd with invalid params", async () => {
		const agent = await start();
		await agent.initialize();
		const error = await agent.agent.request("session/new", { cwd: "project", mcpServers: [] }).catch((e) => e);
		expect((error as RequestError).code).toBe(-32602);
	});
});

describe("modes and config options", () => {
	it("read-only mode is announced and leaves only tools that cannot change anything; code (default) mode restores them", async () => {
		const agent = await start();
		await agent.initialize();
		const { sessionId } = await agent.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
		await agent.agent.request("session/set_mode", { sessionId, modeId: "read-only" });
		await agent.waitForUpdate((n) => n.update.sessionUpdate === "current_mode_update");
		server.enqueue(textReply("ok"));
		await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
		const tools = (server.requests[0]?.body.tools ?? []).map((tool) => tool.function.name);
		expect(tools.sort()).toEqual(["find", "grep", "ls", "read"]);

		await agent.agent.request("session/set_mode", { sessionId, modeId: "code" });
		server.enqueue(textReply("ok"));
		await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] });
		const restored = (server.requests[1]?.body.tools ?? []).map((tool) => tool.function.name);
		expect(restored.sort()).toEqual(["bash", "edit", "read", "write"]);
	});

	it("switching the model offers that model's thinking levels", async () => {
		const agent = await start();
		await agent.initialize();
		const { sessionId, configOptions } = await agent.agent.request("session/new", {
			cwd: sandbox.cwd,
			mcpServers: [],
		});
		const thinking = configOptions?.find((option) => option.id === "thinking");
		expect(thinking).toMatchObject({ currentValue: "off", options: [{ value: "off", name: "Off" }] });
		const response = await agent.agent.request("session/set_config_option", {
			sessionId,
			configId: "model",
			value: `${FAKE_PROVIDER}/fake-reasoner`,
		});
		const after = response.configOptions.find((option) => option.id === "thinking");
		expect(
			after?.type === "select" ? after.options.map((option) => ("value" in option ? option.value : "")) : [],
		).toEqual(["off", "minimal", "low", "medium", "high"]);
		const set = await agent.agent.request("session/set_config_option", {
			sessionId,
			configId: "thinking",
			value: "high",
		});
		expect(set.configOptions.find((option) => option.id === "thinking")).toMatchObject({ currentValue: "high" });
	});

	it("an unknown mode or option value is invalid params", async () => {
		const agent = await start();
		await agent.initialize();
		const { sessionId } = await agent.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
		const modeError = await agent.agent.request("session/set_mode", { sessionId, modeId: "turbo" }).catch((e) => e);
		expect((modeError as RequestError).code).toBe(-32602);
		const valueError = await agent.agent
			.request("session/set_config_option", { sessionId, configId: "thinking", value: "xhigh" })
			.catch((e) => e);
		expect((valueError as RequestError).code).toBe(-32602);
	});
});

describe("session/list", () => {
	it("lists the sessions of a cwd with their first message as the title, newest first", async () => {
		const agent = await start();
		await agent.initialize();
		const first = await agent.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
		server.enqueue(textReply("one"), textReply("two"));
		await agent.agent.request("session/prompt", {
			sessionId: first.sessionId,
			prompt: [{ type: "text", text: "first" }],
		});
		const second = await agent.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
		await agent.agent.request("session/prompt", {
			sessionId: second.sessionId,
			prompt: [{ type: "text", text: "second" }],
		});
		const listed = await agent.agent.request("session/list", { cwd: sandbox.cwd });
		expect(listed.sessions.map((session) => [session.sessionId, session.title, session.cwd])).toEqual([
			[second.sessionId, "second", sandbox.cwd],
			[first.sessionId, "first", sandbox.cwd],
		]);
		expect(listed.nextCursor).toBeUndefined();
		expect(Date.parse(listed.sessions[0]?.updatedAt ?? "")).not.toBeNaN();
		const elsewhere = await agent.agent.request("session/list", { cwd: join(sandbox.root, "other") });
		expect(elsewhere.sessions).toEqual([]);
	});
});

describe("end of input", () => {
	it("exits 0 when the client closes stdin", async () => {
		const agent = await start();
		await agent.initialize();
		await agent.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
		expect(await agent.stop()).toBe(0);
	});

	it("exits 143 on SIGTERM, ending its sessions", async () => {
		const agent = await start();
		await agent.initialize();
		await agent.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
		const exited = new Promise<number | null>((resolve) => agent.child.once("close", (code) => resolve(code)));
		agent.child.kill("SIGTERM");
		expect(await exited).toBe(143);
	});
});
