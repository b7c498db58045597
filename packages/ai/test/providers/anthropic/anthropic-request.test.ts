import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import { buildRequestParams } from "../../../src/providers/anthropic/build-request.js";
import { resolveAuth } from "../../../src/providers/anthropic/headers.js";
import { streamAnthropic, streamSimpleAnthropic } from "../../../src/providers/anthropic/index.js";
import type { AnthropicOptions, Context, Model, SimpleStreamOptions, ThinkingLevel, Tool } from "../../../src/types.js";
import { anthropicReply, textBlock, toolUseBlock } from "../../helpers/anthropic-sse.js";
import type { RecordedRequest } from "../../helpers/fake-server.js";
import { assistant, toolResult, user } from "../../helpers/messages.js";
import { claudeSonnet4, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect } from "../../helpers/stream-events.js";

const server = useFakeServer();
afterEach(() => {
	delete process.env.AGENT_CACHE_RETENTION;
});

const model = (overrides: Partial<Model<"anthropic-messages">> = {}) => claudeSonnet4(server.url, overrides);

const readTool: Tool = {
	name: "read",
	description: "Read a file",
	parameters: Type.Object({ path: Type.String({ description: "File path" }), limit: Type.Optional(Type.Number()) }),
};

const baseContext: Context = {
	systemPrompt: "You are a coding agent.",
	messages: [{ role: "user", content: "hello", timestamp: 1 }],
};

interface WireBody {
	model: string;
	max_tokens: number;
	stream: boolean;
	system?: { type: string; text: string; cache_control?: unknown }[];
	messages: { role: string; content: unknown }[];
	temperature?: number;
	thinking?: unknown;
	output_config?: unknown;
	tools?: unknown[];
	tool_choice?: unknown;
	metadata?: unknown;
}

async function send(
	context: Context = baseContext,
	options: AnthropicOptions = {},
	m: Model<"anthropic-messages"> = model(),
): Promise<{ body: WireBody; request: RecordedRequest }> {
	server.enqueue(anthropicReply(textBlock(0, ["ok"])));
	const { result } = await collect(streamAnthropic(m, context, { apiKey: "sk-ant-api03-key", ...options }));
	expect(result.errorMessage).toBeUndefined();
	const request = server.lastRequest as RecordedRequest;
	return { body: request.body as WireBody, request };
}

async function sendSimple(options: SimpleStreamOptions, m: Model<"anthropic-messages"> = model()): Promise<WireBody> {
	server.enqueue(anthropicReply(textBlock(0, ["ok"])));
	const { result } = await collect(streamSimpleAnthropic(m, baseContext, { apiKey: "sk-ant-api03-key", ...options }));
	expect(result.errorMessage).toBeUndefined();
	return server.lastRequest?.body as WireBody;
}

describe("request basics", () => {
	it("posts a streaming request to /v1/messages under the model's base URL", async () => {
		const { body, request } = await send();
		expect(request.method).toBe("POST");
		expect(request.url).toBe("/v1/messages");
		expect(body.model).toBe("claude-sonnet-4-0");
		expect(body.stream).toBe(true);
	});

	it("defaults max_tokens to a third of the model's output limit for the raw stream", async () => {
		expect((await send()).body.max_tokens).toBe(21_333);
		expect((await send(baseContext, { maxTokens: 1234 })).body.max_tokens).toBe(1234);
	});

	it("puts the system prompt in top-level system blocks, never in messages", async () => {
		const { body } = await send();
		expect(body.system).toEqual([
			{ type: "text", text: "You are a coding agent.", cache_control: { type: "ephemeral" } },
		]);
		expect(body.messages.map((m) => m.role)).toEqual(["user"]);
		expect(JSON.stringify(body.messages)).not.toContain("You are a coding agent.");
	});

	it("sends no system field without a system prompt", async () => {
		const { body } = await send({ messages: baseContext.messages });
		expect(body.system).toBeUndefined();
	});

	it("passes metadata.user_id through and ignores other metadata", async () => {
		const { body } = await send(baseContext, { metadata: { user_id: "user-123", other: 1 } });
		expect(body.metadata).toEqual({ user_id: "user-123" });
		expect((await send(baseContext, { metadata: { user_id: 5 } })).body.metadata).toBeUndefined();
	});

	it("lets onPayload replace the body", async () => {
		const { body } = await send(baseContext, {
			onPayload: (payload) => ({ ...(payload as object), max_tokens: 7 }),
		});
		expect(body.max_tokens).toBe(7);
	});
});

describe("headers", () => {
	it("sends an API key in x-api-key with the default betas and no Authorization header", async () => {
		const { request } = await send();
		expect(request.headers["x-api-key"]).toBe("sk-ant-api03-key");
		expect(request.headers.authorization).toBeUndefined();
		expect(request.headers.accept).toBe("application/json");
		expect(request.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
		expect(request.headers["anthropic-beta"]).toBe(
			"fine-grained-tool-streaming-2025-05-14,interleaved-thinking-2025-05-14",
		);
	});

	it("omits the interleaved-thinking beta for adaptive-thinking models and when switched off", async () => {
		const adaptive = await send(baseContext, {}, model({ id: "claude-opus-4-6" }));
		expect(adaptive.request.headers["anthropic-beta"]).toBe("fine-grained-tool-streaming-2025-05-14");
		const off = await send(baseContext, { interleavedThinking: false });
		expect(off.request.headers["anthropic-beta"]).toBe("fine-grained-tool-streaming-2025-05-14");
	});

	it("merges model headers, then option headers last", async () => {
		const { request } = await send(
			baseContext,
			{ headers: { "X-Custom": "from-options", "x-shared": "options" } },
			model({ headers: { "x-shared": "model", "x-model-only": "m" } }),
		);
		expect(request.headers["x-custom"]).toBe("from-options");
		expect(request.headers["x-shared"]).toBe("options");
		expect(request.headers["x-model-only"]).toBe("m");
	});

	it("sends an OAuth token as Bearer with Claude Code's betas, user agent and identity line", async () => {
		const { request, body } = await send(baseContext, { apiKey: "sk-ant-oat01-token" });
		expect(request.headers.authorization).toBe("Bearer sk-ant-oat01-token");
		expect(request.headers["x-api-key"]).toBeUndefined();
		expect(request.headers["anthropic-beta"]).toBe(
			"claude-code-20250219,oauth-2025-04-20,fine-grained-tool-streaming-2025-05-14,interleaved-thinking-2025-05-14",
		);
		expect(request.headers["user-agent"]).toBe("claude-cli/2.1.75");
		expect(request.headers["x-app"]).toBe("cli");
		expect(body.system).toEqual([
			{
				type: "text",
				text: "You are Claude Code, Anthropic's official CLI for Claude.",
				cache_control: { type: "ephemeral" },
			},
			{ type: "text", text: "You are a coding agent.", cache_control: { type: "ephemeral" } },
		]);
	});

	it("sends GitHub Copilot tokens as Bearer with only the interleaved beta and the dynamic headers", async () => {
		const copilot = model({
			provider: "github-copilot",
			headers: { "User-Agent": "GitHubCopilotChat/0.35.0", "Editor-Version": "vscode/1.107.0" },
		});
		const withImage: Context = {
			messages: [
				{ role: "user", content: [{ type: "image", data: "aGk=", mimeType: "image/png" }], timestamp: 1 },
				{ role: "user", content: "describe it", timestamp: 2 },
			],
		};
		const { request } = await send(withImage, { apiKey: "ghu_token" }, copilot);
		expect(request.headers.authorization).toBe("Bearer ghu_token");
		expect(request.headers["x-api-key"]).toBeUndefined();
		expect(request.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
		expect(request.headers["user-agent"]).toBe("GitHubCopilotChat/0.35.0");
		expect(request.headers["editor-version"]).toBe("vscode/1.107.0");
		expect(request.headers["x-initiator"]).toBe("user");
		expect(request.headers["openai-intent"]).toBe("conversation-edits");
		expect(request.headers["copilot-vision-request"]).toBe("true");
	});
});

describe("OAuth tool-name mapping", () => {
	const tools: Tool[] = [
		{ ...readTool, name: "read" },
		{ ...readTool, name: "bash" },
		{ ...readTool, name: "my_custom" },
	];

	it("sends Claude Code's canonical casing for its tool names and leaves other names alone", async () => {
		const context: Context = {
			messages: [
				user("go"),
				assistant(model(), [{ type: "toolCall", id: "toolu_1", name: "bash", arguments: { command: "ls" } }]),
				toolResult("toolu_1", "a.txt", "bash"),
			],
			tools,
		};
		const { body } = await send(context, {
			apiKey: "sk-ant-oat01-token",
			toolChoice: { type: "tool", name: "read" },
		});
		expect((body.tools as { name: string }[]).map((t) => t.name)).toEqual(["Read", "Bash", "my_custom"]);
		expect(JSON.stringify(body.messages)).toContain('"name":"Bash"');
		expect(body.tool_choice).toEqual({ type: "tool", name: "Read" });
	});

	it("maps incoming tool names back to the caller's tool, case-insensitively", async () => {
		server.enqueue(
			anthropicReply(
				[...toolUseBlock(0, "toolu_1", "Read", { path: "a" }), ...toolUseBlock(1, "toolu_2", "Unknown", {})],
				{
					stopReason: "tool_use",
				},
			),
		);
		const { result } = await collect(
			streamAnthropic(model(), { ...baseContext, tools }, { apiKey: "sk-ant-oat01-token" }),
		);
		expect(result.content.map((b) => (b.type === "toolCall" ? b.name : b.type))).toEqual(["read", "Unknown"]);
	});

	it("does not rename tools in API-key mode", async () => {
		const { body } = await send({ ...baseContext, tools });
		expect((body.tools as { name: string }[]).map((t) => t.name)).toEqual(["read", "bash", "my_custom"]);
	});
});

describe("tools", () => {
	it("converts each tool to name, description and an object input_schema of its properties and required", async () => {
		const { body } = await send({ ...baseContext, tools: [readTool] });
		expect(body.tools).toEqual([
			{
				name: "read",
				description: "Read a file",
				input_schema: {
					type: "object",
					properties: { path: { type: "string", description: "File path" }, limit: { type: "number" } },
					required: ["path"],
				},
			},
		]);
	});

	it("fills in empty properties and required for a schema without them", async () => {
		const bare: Tool = { name: "now", description: "Time", parameters: Type.Object({}) };
		const { body } = await send({ ...baseContext, tools: [bare] });
		expect(body.tools).toEqual([
			{ name: "now", description: "Time", input_schema: { type: "object", properties: {}, required: [] } },
		]);
	});

	it.each([
		["auto", { type: "auto" }],
		["any", { type: "any" }],
		["none", { type: "none" }],
	] as const)("tool choice %s becomes {type}", async (choice, wire) => {
		const { body } = await send({ ...baseContext, tools: [readTool] }, { toolChoice: choice });
		expect(body.tool_choice).toEqual(wire);
	});

	it("sends no tools field without tools", async () => {
		expect((await send()).body.tools).toBeUndefined();
	});
});

describe("cache control", () => {
	it("marks the system blocks and the last block of a trailing user message, converting a string to a block", async () => {
		const { body } = await send();
		expect(body.messages.at(-1)).toEqual({
			role: "user",
			content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral" } }],
		});
	});

	it("marks the last tool_result block when the history ends with tool results", async () => {
		const context: Context = {
			systemPrompt: "sys",
			messages: [
				user("go"),
				assistant(model(), [
					{ type: "toolCall", id: "t1", name: "read", arguments: {} },
					{ type: "toolCall", id: "t2", name: "read", arguments: {} },
				]),
				toolResult("t1", "one"),
				{ ...toolResult("t2", "two"), isError: true, timestamp: 4 },
			],
		};
		const { body } = await send(context);
		expect(body.messages.at(-1)).toEqual({
			role: "user",
			content: [
				{ type: "tool_result", tool_use_id: "t1", content: "one", is_error: false },
				{
					type: "tool_result",
					tool_use_id: "t2",
					content: "two",
					is_error: true,
					cache_control: { type: "ephemeral" },
				},
			],
		});
		// The first user message is not the last one: no marker there.
		expect(body.messages[0]).toEqual({ role: "user", content: "go" });
	});

	it("sends no markers at all with retention none", async () => {
		const { body } = await send(baseContext, { cacheRetention: "none" });
		expect(JSON.stringify(body)).not.toContain("cache_control");
	});

	it("leaves out the 1h ttl for long retention on other hosts than api.anthropic.com", async () => {
		const { body } = await send(baseContext, { cacheRetention: "long" });
		expect(body.system?.[0].cache_control).toEqual({ type: "ephemeral" });
	});

	it("adds ttl 1h for long retention on api.anthropic.com, also when AGENT_CACHE_RETENTION=long sets the default", () => {
		const official = model({ baseUrl: "https://api.anthropic.com" });
		const auth = resolveAuth(official, "sk-ant-api03-key");
		const explicit = buildRequestParams(official, baseContext, { cacheRetention: "long" }, auth);
		expect(explicit.system).toEqual([
			{ type: "text", text: "You are a coding agent.", cache_control: { type: "ephemeral", ttl: "1h" } },
		]);
		process.env.AGENT_CACHE_RETENTION = "long";
		const fromEnv = buildRequestParams(official, baseContext, {}, auth);
		expect(JSON.stringify(fromEnv.messages)).toContain('"ttl":"1h"');
		const short = buildRequestParams(official, baseContext, { cacheRetention: "short" }, auth);
		expect(JSON.stringify(short)).not.toContain("ttl");
	});
});

describe("temperature and thinking", () => {
	it("sends temperature when thinking is off", async () => {
		expect((await send(baseContext, { temperature: 0.3 })).body.temperature).toBe(0.3);
	});

	it("withholds temperature while thinking is on", async () => {
		const { body } = await send(baseContext, { temperature: 0.3, thinkingEnabled: true, thinkingBudgetTokens: 4096 });
		expect(body.temperature).toBeUndefined();
		expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
	});

	it("pins anthropic-version 2023-06-01 on the wire, so the reference's fields (temperature included) are accepted", async () => {
		const { request, body } = await send(baseContext, { temperature: 0.3 });
		expect(request.headers["anthropic-version"]).toBe("2023-06-01");
		expect(body.temperature).toBe(0.3);
	});

	it("withholds temperature from api.anthropic.com only when a caller pins the newer API version", () => {
		const official = model({ baseUrl: "https://api.anthropic.com" });
		const auth = resolveAuth(official, "sk-ant-api03-key");
		const pinnedNew = buildRequestParams(official, baseContext, { temperature: 0.3 }, auth, "2026-10-21") as {
			temperature?: number;
		};
		expect(pinnedNew.temperature).toBeUndefined();
		const byDefault = buildRequestParams(official, baseContext, { temperature: 0.3 }, auth) as {
			temperature?: number;
		};
		expect(byDefault.temperature).toBe(0.3);
	});

	it("defaults the budget to 1024 and sends no thinking for a model that cannot reason", async () => {
		expect((await send(baseContext, { thinkingEnabled: true })).body.thinking).toEqual({
			type: "enabled",
			budget_tokens: 1024,
		});
		const plain = await send(baseContext, { thinkingEnabled: true }, model({ reasoning: false }));
		expect(plain.body.thinking).toBeUndefined();
	});

	it("sends adaptive thinking with the effort for adaptive models", async () => {
		const { body } = await send(
			baseContext,
			{ thinkingEnabled: true, effort: "max" },
			model({ id: "claude-opus-4-6" }),
		);
		expect(body.thinking).toEqual({ type: "adaptive" });
		expect(body.output_config).toEqual({ effort: "max" });
	});
});

describe("streamSimple reasoning levels", () => {
	it("sends no thinking without a level and the base max_tokens (min of model max and 32000)", async () => {
		const body = await sendSimple({});
		expect(body.thinking).toBeUndefined();
		expect(body.max_tokens).toBe(32_000);
	});

	it.each([
		["minimal", 1024, 33_024],
		["low", 2048, 34_048],
		["medium", 8192, 40_192],
		["high", 16_384, 48_384],
		["xhigh", 16_384, 48_384],
	] as const)("budget models: %s adds a %i-token budget to max_tokens", async (level, budget, maxTokens) => {
		const body = await sendSimple({ reasoning: level });
		expect(body.thinking).toEqual({ type: "enabled", budget_tokens: budget });
		expect(body.max_tokens).toBe(maxTokens);
		expect(body.output_config).toBeUndefined();
	});

	it("budget models: custom budgets win and the model's max caps max_tokens", async () => {
		const body = await sendSimple(
			{ reasoning: "high", thinkingBudgets: { high: 50_000 } },
			model({ maxTokens: 40_000 }),
		);
		expect(body.max_tokens).toBe(40_000);
		// The capped allowance leaves no room above the budget, so the budget shrinks to leave 1024 for the answer.
		expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 40_000 - 1024 });
	});

	it.each([
		["claude-opus-4-6", "minimal", "low"],
		["claude-opus-4-6", "low", "low"],
		["claude-opus-4-6", "medium", "medium"],
		["claude-opus-4-6", "high", "high"],
		["claude-opus-4-6", "xhigh", "max"],
		["claude-opus-4.6-thinking", "xhigh", "max"],
		["claude-sonnet-4-6", "xhigh", "high"],
		["anthropic/claude-sonnet-4.6", "medium", "medium"],
	] as const)("adaptive model %s: %s becomes effort %s", async (id, level, effort) => {
		const body = await sendSimple({ reasoning: level as ThinkingLevel }, model({ id }));
		expect(body.thinking).toEqual({ type: "adaptive" });
		expect(body.output_config).toEqual({ effort });
		expect(body.max_tokens).toBe(32_000);
	});
});
