// Every command of docs/rpc.md "Commands" against the built binary and a local fake model server.
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RpcClient } from "../../src/modes/rpc/rpc-client.js";
import {
	type CliSandbox,
	createCliSandbox,
	FAKE_MODEL,
	FAKE_PROVIDER,
	FAKE_REASONING_MODEL,
	startRpcAgent,
} from "../helpers/cli-sandbox.js";
import {
	errorReply,
	lastUserText,
	startFakeModelServerForFile,
	textReply,
	toolCallReply,
} from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
let client: RpcClient | undefined;

afterEach(async () => {
	if (client) await client.stop();
	client = undefined;
	sandbox?.cleanup();
});

async function start(args: string[] = [], settings?: Record<string, unknown>): Promise<RpcClient> {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl, ...(settings ? { settings } : {}) });
	client = await startRpcAgent(sandbox, args);
	return client;
}

function readGlobalSettings(): Record<string, unknown> {
	return JSON.parse(readFileSync(join(sandbox.agentDir, "settings.json"), "utf8")) as Record<string, unknown>;
}

describe("prompting", () => {
	it("prompt: answers at once, streams the run, and the answer is in the context", async () => {
		const agent = await start();
		server.enqueue(textReply("Hi!"));
		const response = await agent.send({ id: "p1", type: "prompt", message: "Say hi" });
		expect(response).toEqual({ id: "p1", type: "response", command: "prompt", success: true });
		await agent.waitForIdle(10_000);
		expect(await agent.getLastAssistantText()).toBe("Hi!");
		const messages = await agent.getMessages();
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(messages[0]).toMatchObject({ content: [{ type: "text", text: "Say hi" }] });
	});

	it("steer and follow_up queue messages that the next prompt delivers", async () => {
		const agent = await start();
		expect(await agent.send({ type: "steer", message: "also this" })).toMatchObject({ success: true });
		expect(await agent.send({ type: "follow_up", message: "and later that" })).toMatchObject({ success: true });
		expect((await agent.getState()).pendingMessageCount).toBe(2);
		server.enqueue(textReply("first"), textReply("second"));
		await agent.promptAndWait("start", { timeoutMs: 10_000 });
		// Steering joins the first request; the follow-up starts a second turn.
		expect(server.requests.map(lastUserText)).toEqual(["also this", "and later that"]);
		expect(JSON.stringify(server.requests[0]!.body.messages)).toContain("start");
		expect((await agent.getState()).pendingMessageCount).toBe(0);
	});

	it("abort answers after the run stopped, when idle too", async () => {
		const agent = await start();
		expect(await agent.send({ id: "a", type: "abort" })).toEqual({
			id: "a",
			type: "response",
			command: "abort",
			success: true,
		});
	});
});

describe("state and models", () => {
	it("get_state: the documented fields in the documented order", async () => {
		const agent = await start();
		const response = await agent.send({ id: "s", type: "get_state" });
		expect(response.success).toBe(true);
		const data = (response as unknown as { data: Record<string, unknown> }).data;
		expect(Object.keys(data)).toEqual([
			"model",
			"thinkingLevel",
			"isStreaming",
			"isCompacting",
			"steeringMode",
			"followUpMode",
			"sessionFile",
			"sessionId",
			"autoCompactionEnabled",
			"messageCount",
			"pendingMessageCount",
		]);
		expect(data).toMatchObject({
			model: { provider: FAKE_PROVIDER, id: FAKE_MODEL },
			thinkingLevel: "off",
			isStreaming: false,
			isCompacting: false,
			steeringMode: "one-at-a-time",
			followUpMode: "one-at-a-time",
			autoCompactionEnabled: true,
			messageCount: 0,
			pendingMessageCount: 0,
		});
	});

	it("get_state omits sessionFile with --no-session", async () => {
		const agent = await start(["--no-session"]);
		const state = await agent.getState();
		expect(state).not.toHaveProperty("sessionFile");
		expect(typeof state.sessionId).toBe("string");
	});

	it("get_available_models, set_model (saved as the default), and Model not found", async () => {
		const agent = await start();
		const models = await agent.getAvailableModels();
		expect(models.map((m) => `${m.provider}/${m.id}`)).toEqual([
			`${FAKE_PROVIDER}/${FAKE_MODEL}`,
			`${FAKE_PROVIDER}/${FAKE_REASONING_MODEL}`,
		]);
		const model = await agent.setModel(FAKE_PROVIDER, FAKE_REASONING_MODEL);
		expect(model).toMatchObject({ id: FAKE_REASONING_MODEL, reasoning: true, api: "openai-completions" });
		expect(await agent.send({ id: "m", type: "set_model", provider: "fake", modelId: "nope" })).toEqual({
			id: "m",
			type: "response",
			command: "set_model",
			success: false,
			error: "Model not found: fake/nope",
		});
		await agent.stop();
		client = undefined;
		expect(readGlobalSettings()).toMatchObject({
			defaultProvider: FAKE_PROVIDER,
			defaultModel: FAKE_REASONING_MODEL,
		});
	});

	it("cycle_model moves forward through the available models", async () => {
		const agent = await start();
		const cycled = await agent.cycleModel();
		expect(cycled).toMatchObject({ model: { id: FAKE_REASONING_MODEL }, isScoped: false });
		expect((await agent.cycleModel())?.model.id).toBe(FAKE_MODEL);
	});

	it("thinking levels: set (clamped by the model), cycle (null without reasoning), invalid level", async () => {
		const agent = await start();
		expect(await agent.cycleThinkingLevel()).toBeNull();
		await agent.setModel(FAKE_PROVIDER, FAKE_REASONING_MODEL);
		await agent.setThinkingLevel("high");
		expect((await agent.getState()).thinkingLevel).toBe("high");
		expect(await agent.cycleThinkingLevel()).toEqual({ level: "off" });
		const bad = await agent.send({ type: "set_thinking_level", level: "extreme" as "high" });
		expect(bad).toMatchObject({ success: false, command: "set_thinking_level" });
	});

	it("queue modes and automatic compaction/retry switches are applied and saved", async () => {
		const agent = await start();
		await agent.setSteeringMode("all");
		await agent.setFollowUpMode("all");
		await agent.setAutoCompaction(false);
		await agent.setAutoRetry(false);
		await agent.abortRetry();
		const state = await agent.getState();
		expect(state).toMatchObject({ steeringMode: "all", followUpMode: "all", autoCompactionEnabled: false });
		const invalid = await agent.send({ id: "q", type: "set_steering_mode", mode: "sometimes" as "all" });
		expect(invalid).toMatchObject({ id: "q", success: false, command: "set_steering_mode" });
		await agent.stop();
		client = undefined;
		expect(readGlobalSettings()).toMatchObject({
			steeringMode: "all",
			followUpMode: "all",
			compaction: { enabled: false },
			retry: { enabled: false },
		});
	});
});

describe("bash", () => {
	it("bash runs a command and returns its output; the result reaches the model with the next prompt", async () => {
		const agent = await start();
		const result = await agent.bash("echo rpc-bash-output");
		expect(result).toEqual({ output: "rpc-bash-output\n", exitCode: 0, cancelled: false, truncated: false });
		server.enqueue(textReply("seen"));
		await agent.promptAndWait("what did it print?", { timeoutMs: 10_000 });
		expect(JSON.stringify(server.requests[0]!.body.messages)).toContain("rpc-bash-output");
	});

	it("abort_bash kills the running command, whose response then says cancelled", async () => {
		const agent = await start();
		const running = agent.bash("echo started; sleep 30");
		await agent.abortBash();
		const result = await running;
		expect(result.cancelled).toBe(true);
		expect(result).not.toHaveProperty("exitCode");
	});
});

describe("sessions", () => {
	async function conversation(agent: RpcClient): Promise<void> {
		server.enqueue(textReply("answer one"), textReply("answer two"));
		await agent.promptAndWait("question one", { timeoutMs: 10_000 });
		await agent.promptAndWait("question two", { timeoutMs: 10_000 });
	}

	it("get_session_stats counts the messages in context", async () => {
		const agent = await start();
		await conversation(agent);
		const stats = await agent.getSessionStats();
		expect(stats).toMatchObject({ userMessages: 2, assistantMessages: 2, toolCalls: 0, totalMessages: 4 });
		expect(stats.tokens.total).toBeGreaterThan(0);
		expect(typeof stats.sessionFile).toBe("string");
	});

	it("get_fork_messages, fork, and the forked session's context", async () => {
		const agent = await start();
		await conversation(agent);
		const forkable = await agent.getForkMessages();
		expect(forkable.map((m) => m.text)).toEqual(["question one", "question two"]);
		const fork = await agent.fork(forkable[1]!.entryId);
		expect(fork).toEqual({ text: "question two", cancelled: false });
		expect((await agent.getMessages()).map((m) => m.role)).toEqual(["user", "assistant"]);
		const invalid = await agent.send({ id: "f", type: "fork", entryId: "nonexistent" });
		expect(invalid).toEqual({
			id: "f",
			type: "response",
			command: "fork",
			success: false,
			error: "Invalid entry ID for forking",
		});
	});

	it("new_session starts empty; switch_session returns to the first file", async () => {
		const agent = await start();
		await conversation(agent);
		const first = (await agent.getState()).sessionFile!;
		expect(await agent.newSession()).toEqual({ cancelled: false });
		const fresh = await agent.getState();
		expect(fresh.messageCount).toBe(0);
		expect(fresh.sessionFile).not.toBe(first);
		expect(await agent.switchSession(first)).toEqual({ cancelled: false });
		expect((await agent.getState()).messageCount).toBe(4);
	});

	it("set_session_name names the session; an empty name is refused", async () => {
		const agent = await start();
		await agent.setSessionName("  my work  ");
		expect((await agent.getState()).sessionName).toBe("my work");
		expect(await agent.send({ id: "n", type: "set_session_name", name: "   " })).toEqual({
			id: "n",
			type: "response",
			command: "set_session_name",
			success: false,
			error: "Session name cannot be empty",
		});
	});

	it("get_last_assistant_text is {text: null} before any answer (the newest reference's shape)", async () => {
		const agent = await start();
		expect(await agent.send({ id: "t", type: "get_last_assistant_text" })).toEqual({
			id: "t",
			type: "response",
			command: "get_last_assistant_text",
			success: true,
			data: { text: null },
		});
	});

	it("compact summarizes the conversation with the model and replaces the context", async () => {
		// Keep almost nothing verbatim, so even this short conversation has something to summarize.
		const agent = await start([], { compaction: { keepRecentTokens: 1 } });
		await conversation(agent);
		// The history and a split turn's prefix may each be summarized.
		server.setFallback(textReply("## Goal\nSummary of the conversation."));
		const result = await agent.compact("focus on questions");
		expect(result.summary).toContain("Summary of the conversation.");
		expect(typeof result.firstKeptEntryId).toBe("string");
		expect(result.tokensBefore).toBeGreaterThan(0);
		const summaryRequests = server.requests.slice(2).map((request) => JSON.stringify(request.body.messages));
		expect(summaryRequests.some((body) => body.includes("focus on questions"))).toBe(true);
		expect((await agent.getMessages())[0]!.role).toBe("compactionSummary");
	});

	it("compact on a short session with the default budget summarizes what precedes the last turn", async () => {
		const agent = await start();
		await conversation(agent);
		server.setFallback(textReply("## Goal\nThe first exchange."));
		const result = await agent.compact();
		expect(result.summary).toBe("## Goal\nThe first exchange.");
		const summarized = JSON.stringify(server.requests.at(-1)?.body.messages);
		expect(summarized).toContain("question one");
		expect(summarized).not.toContain("question two");
		expect((await agent.getMessages()).map((message) => message.role)).toEqual([
			"compactionSummary",
			"user",
			"assistant",
		]);
		expect(await agent.send({ id: "again", type: "compact" })).toMatchObject({
			success: false,
			error: "Already compacted",
		});
	});

	it("compact says there is nothing to compact only for a lone prompt", async () => {
		const agent = await start();
		server.enqueue(errorReply(400, "bad request"));
		await agent.promptAndWait("only question", { timeoutMs: 10_000 });
		expect(await agent.send({ id: "c", type: "compact" })).toMatchObject({
			success: false,
			error: "Nothing to compact (session too small)",
		});
	});

	it("export_html writes the session as HTML next to the process, and refuses before anything is written", async () => {
		const agent = await start();
		expect(await agent.send({ id: "e0", type: "export_html" })).toEqual({
			id: "e0",
			type: "response",
			command: "export_html",
			success: false,
			error: "Nothing to export yet - start a conversation first",
		});
		await conversation(agent);
		const file = (await agent.getState()).sessionFile!;
		const path = await agent.exportHtml();
		expect(path).toBe(`agent-session-${basename(file, ".jsonl")}.html`);
		expect(readFileSync(join(sandbox.cwd, path), "utf8")).toContain("question two");
		expect(await agent.exportHtml("out/../custom.html")).toBe("out/../custom.html");
		expect(existsSync(join(sandbox.cwd, "custom.html"))).toBe(true);
	});

	it("export_html refuses an in-memory session", async () => {
		const agent = await start(["--no-session"]);
		expect(await agent.send({ id: "e", type: "export_html" })).toMatchObject({
			id: "e",
			success: false,
			error: "Cannot export in-memory session to HTML",
		});
	});
});

describe("commands and messages", () => {
	it("get_commands lists prompt templates and skills", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const { mkdirSync, writeFileSync } = await import("node:fs");
		mkdirSync(join(sandbox.agentDir, "prompts"), { recursive: true });
		writeFileSync(join(sandbox.agentDir, "prompts", "review.md"), "---\ndescription: Review code\n---\nReview $1");
		client = await startRpcAgent(sandbox);
		const commands = await client.getCommands();
		expect(commands).toContainEqual(expect.objectContaining({ name: "review", source: "prompt", location: "user" }));
	});

	it("get_messages returns tool calls and results of a run", async () => {
		const agent = await start();
		server.enqueue(toolCallReply([{ name: "ls", arguments: {} }]), textReply("listed"));
		await agent.promptAndWait("list files", { timeoutMs: 10_000 });
		const roles = (await agent.getMessages()).map((m) => m.role);
		expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(existsSync(sandbox.cwd)).toBe(true);
	});
});
