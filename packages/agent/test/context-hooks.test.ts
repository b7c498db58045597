import { type AgentMessage, defaultConvertToLlm } from "@agent/agent-core";
import { fauxText, fauxToolCall, type Message } from "@agent/ai";
import { describe, expect, it, vi } from "vitest";
import { createEchoTool, createHarness, textOf, userMessage } from "./helpers/harness.js";

// An app-defined message kind, as the coding agent adds `bashExecution`, `custom`, ... by declaration merging.
declare module "@agent/agent-core" {
	interface CustomAgentMessages {
		notification: { role: "notification"; text: string; timestamp: number };
	}
}

const notification = (text: string): AgentMessage => ({ role: "notification", text, timestamp: Date.now() });

describe("convertToLlm", () => {
	it("by default keeps user, assistant and tool-result messages and drops app-defined ones", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("ok"));
		agent.appendMessage(notification("build finished"));
		await agent.prompt("hi");
		expect(faux.requests[0].context.messages.map((m) => m.role)).toEqual(["user"]);
		expect(agent.state.messages.map((m) => m.role)).toEqual(["notification", "user", "assistant"]);
		expect(defaultConvertToLlm([notification("x"), userMessage("y")]).map((m) => m.role)).toEqual(["user"]);
	});

	it("is applied before every model call and decides what the provider sees", async () => {
		const convertToLlm = vi.fn((messages: AgentMessage[]): Message[] =>
			messages.map((m) =>
				m.role === "notification"
					? { role: "user", content: `[notification] ${m.text}`, timestamp: m.timestamp }
					: m,
			),
		);
		const { faux, agent } = createHarness({ tools: [createEchoTool()], convertToLlm });
		faux.enqueue(fauxToolCall("echo", {}, { id: "c1" }), fauxText("done"));
		agent.appendMessage(notification("tests are red"));
		await agent.prompt("fix it");
		expect(convertToLlm).toHaveBeenCalledTimes(2);
		for (const request of faux.requests)
			expect(request.context.messages[0].content).toBe("[notification] tests are red");
	});
});

describe("transformContext", () => {
	it("runs before convertToLlm on every call, with the run's signal, and shapes the request", async () => {
		const calls: string[] = [];
		const signals: (AbortSignal | undefined)[] = [];
		const { faux, agent } = createHarness({
			tools: [createEchoTool()],
			// Keeps only the last three messages and injects a reminder, as a pruning extension would.
			transformContext: async (messages, signal) => {
				calls.push(`transform:${messages.length}`);
				signals.push(signal);
				return [userMessage("reminder: be brief"), ...messages.slice(-3)];
			},
			convertToLlm: (messages) => {
				calls.push(`convert:${messages.length}`);
				return defaultConvertToLlm(messages);
			},
		});
		faux.enqueue(fauxToolCall("echo", {}, { id: "c1" }), fauxToolCall("echo", {}, { id: "c2" }), fauxText("done"));
		agent.replaceMessages([userMessage("old 1"), userMessage("old 2"), userMessage("old 3")]);
		await agent.prompt("new");

		expect(calls).toEqual(["transform:4", "convert:4", "transform:6", "convert:4", "transform:8", "convert:4"]);
		expect(signals.every((s) => s instanceof AbortSignal && !s.aborted)).toBe(true);
		expect(faux.requests.map((r) => r.context.messages.map((m) => textOf(m) || m.role))).toEqual([
			["reminder: be brief", "old 2", "old 3", "new"],
			["reminder: be brief", "new", "assistant", "echo: {}"],
			// Pruning cut the first call's result off from its call; the orphaned result is not sent.
			["reminder: be brief", "assistant", "echo: {}"],
		]);
		// The agent's own history is never pruned by the hook.
		expect(agent.state.messages).toHaveLength(9);
	});
});

describe("getApiKey", () => {
	it("is asked before every model call, so a refreshed token is used on the next call", async () => {
		let token = 0;
		const getApiKey = vi.fn(async (provider: string) => `${provider}-token-${++token}`);
		const { faux, agent } = createHarness({ tools: [createEchoTool()], getApiKey });
		faux.enqueue(fauxToolCall("echo", {}, { id: "c1" }), fauxText("done"));
		await agent.prompt("hi");
		expect(getApiKey).toHaveBeenCalledTimes(2);
		expect(getApiKey).toHaveBeenCalledWith("faux");
		expect(faux.requests.map((r) => r.options?.apiKey)).toEqual(["faux-token-1", "faux-token-2"]);
	});

	it("falls back to no key when it returns nothing", async () => {
		const { faux, agent } = createHarness({ getApiKey: () => undefined });
		faux.enqueue(fauxText("ok"));
		await agent.prompt("hi");
		expect(faux.requests[0].options?.apiKey).toBeUndefined();
	});
});

describe("call options", () => {
	it("sends thinking level off as no reasoning, and other levels as reasoning", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("a"), fauxText("b"));
		await agent.prompt("one");
		agent.setThinkingLevel("medium");
		await agent.prompt("two");
		expect(faux.requests[0].options).not.toHaveProperty("reasoning");
		expect(faux.requests[1].options?.reasoning).toBe("medium");
	});

	it("passes the session id, transport, budgets, retry cap and payload hook, but not the loop's own hooks", async () => {
		const onPayload = (payload: unknown) => payload;
		const { faux, agent } = createHarness({
			sessionId: "session-1",
			thinkingBudgets: { low: 1024 },
			maxRetryDelayMs: 5000,
			onPayload,
		});
		agent.setTransport("websocket");
		faux.enqueue(fauxText("ok"));
		await agent.prompt("hi");
		const options = faux.requests[0].options;
		expect(options).toMatchObject({
			sessionId: "session-1",
			transport: "websocket",
			thinkingBudgets: { low: 1024 },
			maxRetryDelayMs: 5000,
			onPayload,
		});
		expect(options?.signal).toBeInstanceOf(AbortSignal);
		for (const key of ["convertToLlm", "getSteeringMessages", "getFollowUpMessages", "model", "toolExecution"]) {
			expect(options).not.toHaveProperty(key);
		}
	});

	it("sends the tools' name, description and schema", async () => {
		const tool = createEchoTool();
		const { faux, agent } = createHarness({ tools: [tool] });
		faux.enqueue(fauxText("ok"));
		await agent.prompt("hi");
		expect(faux.requests[0].context.tools).toEqual([
			{ name: "echo", description: tool.description, parameters: JSON.parse(JSON.stringify(tool.parameters)) },
		]);
	});
});
