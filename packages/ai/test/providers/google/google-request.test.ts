import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { httpOptionsFor } from "../../../src/providers/google/client.js";
import { streamGoogle, streamSimpleGoogle } from "../../../src/providers/google/index.js";
import type { Context, GoogleOptions, Model, SimpleStreamOptions, ThinkingLevel, Tool } from "../../../src/types.js";
import type { RecordedRequest } from "../../helpers/fake-server.js";
import { geminiReply, geminiTextChunks } from "../../helpers/google-sse.js";
import { gemini25Pro, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect } from "../../helpers/stream-events.js";

const server = useFakeServer();
const model = (overrides: Partial<Model<"google-generative-ai">> = {}) =>
	gemini25Pro(`${server.url}/v1beta`, overrides);

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
	contents: { role: string; parts: unknown[] }[];
	systemInstruction?: { parts: { text: string }[] };
	generationConfig?: { temperature?: number; maxOutputTokens?: number; thinkingConfig?: unknown };
	tools?: unknown[];
	toolConfig?: unknown;
}

async function send(
	context: Context = baseContext,
	options: GoogleOptions = {},
	m: Model<"google-generative-ai"> = model(),
): Promise<{ body: WireBody; request: RecordedRequest }> {
	server.enqueue(geminiReply(geminiTextChunks(["ok"])));
	const { result } = await collect(streamGoogle(m, context, { apiKey: "gemini-key", ...options }));
	expect(result.errorMessage).toBeUndefined();
	const request = server.lastRequest as RecordedRequest;
	return { body: request.body as WireBody, request };
}

async function sendSimple(options: SimpleStreamOptions, m: Model<"google-generative-ai"> = model()): Promise<WireBody> {
	server.enqueue(geminiReply(geminiTextChunks(["ok"])));
	const { result } = await collect(streamSimpleGoogle(m, baseContext, { apiKey: "gemini-key", ...options }));
	expect(result.errorMessage).toBeUndefined();
	return server.lastRequest?.body as WireBody;
}

describe("endpoint and headers", () => {
	it("posts to <baseUrl>/models/<id>:streamGenerateContent?alt=sse with the key in x-goog-api-key", async () => {
		const { request } = await send();
		expect(request.method).toBe("POST");
		expect(request.url).toBe("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
		expect(request.headers["x-goog-api-key"]).toBe("gemini-key");
		expect(request.url).not.toContain("key=");
	});

	it("uses the catalog's base URL as the whole prefix, so the SDK adds no second version segment", () => {
		const official = model({ baseUrl: "https://generativelanguage.googleapis.com/v1beta" });
		expect(httpOptionsFor(official, undefined)).toEqual({
			baseUrl: "https://generativelanguage.googleapis.com/v1beta",
			apiVersion: "",
		});
		expect(httpOptionsFor(model({ baseUrl: "" }), undefined)).toEqual({});
	});

	it("merges model headers and then option headers", async () => {
		const { request } = await send(
			baseContext,
			{ headers: { "x-shared": "options", "x-option": "o" } },
			model({ headers: { "x-shared": "model", "x-model": "m" } }),
		);
		expect(request.headers["x-shared"]).toBe("options");
		expect(request.headers["x-model"]).toBe("m");
		expect(request.headers["x-option"]).toBe("o");
	});
});

describe("request config", () => {
	it("puts the system prompt in systemInstruction, never in contents", async () => {
		const { body } = await send();
		expect(body.systemInstruction?.parts).toEqual([{ text: "You are a coding agent." }]);
		expect(body.contents).toEqual([{ role: "user", parts: [{ text: "hello" }] }]);
	});

	it("sends temperature and maxOutputTokens only when given", async () => {
		const plain = await send();
		expect(plain.body.generationConfig?.temperature).toBeUndefined();
		expect(plain.body.generationConfig?.maxOutputTokens).toBeUndefined();
		const tuned = await send(baseContext, { temperature: 0.2, maxTokens: 999 });
		expect(tuned.body.generationConfig).toMatchObject({ temperature: 0.2, maxOutputTokens: 999 });
	});

	it("sends tools as functionDeclarations with the JSON schema as parametersJsonSchema", async () => {
		const { body } = await send({ ...baseContext, tools: [readTool] });
		expect(body.tools).toEqual([
			{
				functionDeclarations: [
					{
						name: "read",
						description: "Read a file",
						parametersJsonSchema: {
							type: "object",
							properties: { path: { type: "string", description: "File path" }, limit: { type: "number" } },
							required: ["path"],
						},
					},
				],
			},
		]);
		expect(body.toolConfig).toBeUndefined();
	});

	it.each([
		["auto", "AUTO"],
		["none", "NONE"],
		["any", "ANY"],
	] as const)("tool choice %s becomes functionCallingConfig mode %s", async (choice, mode) => {
		const { body } = await send({ ...baseContext, tools: [readTool] }, { toolChoice: choice });
		expect(body.toolConfig).toEqual({ functionCallingConfig: { mode } });
	});

	it("lets onPayload replace the parameters", async () => {
		const { body } = await send(baseContext, {
			onPayload: (payload) => {
				const params = payload as { config: Record<string, unknown> };
				return { ...params, config: { ...params.config, temperature: 0.9 } };
			},
		});
		expect(body.generationConfig?.temperature).toBe(0.9);
	});
});

describe("thinking config", () => {
	it("sends includeThoughts with a level or a budget when thinking is on", async () => {
		const level = await send(
			baseContext,
			{ thinking: { enabled: true, level: "LOW" } },
			model({ id: "gemini-3-pro-preview" }),
		);
		expect(level.body.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: "LOW" });
		const budget = await send(baseContext, { thinking: { enabled: true, budgetTokens: 4096 } });
		expect(budget.body.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 4096 });
	});

	it("sends no thinkingConfig when thinking is off or the model cannot reason", async () => {
		expect(
			(await send(baseContext, { thinking: { enabled: false, budgetTokens: 10 } })).body.generationConfig
				?.thinkingConfig,
		).toBeUndefined();
		const plain = await send(
			baseContext,
			{ thinking: { enabled: true, budgetTokens: 10 } },
			model({ reasoning: false }),
		);
		expect(plain.body.generationConfig?.thinkingConfig).toBeUndefined();
	});

	it("streamSimple without a level sends no thinkingConfig at all, and the base maxOutputTokens", async () => {
		const body = await sendSimple({});
		expect(body.generationConfig?.thinkingConfig).toBeUndefined();
		expect(body.generationConfig?.maxOutputTokens).toBe(32_000);
	});

	it.each([
		["gemini-3-pro-preview", "minimal", "LOW"],
		["gemini-3-pro-preview", "low", "LOW"],
		["gemini-3-pro-preview", "medium", "HIGH"],
		["gemini-3-pro-preview", "high", "HIGH"],
		["gemini-3.1-pro-preview", "xhigh", "HIGH"],
		["gemini-3-flash-preview", "minimal", "MINIMAL"],
		["gemini-3-flash-preview", "low", "LOW"],
		["gemini-3-flash-preview", "medium", "MEDIUM"],
		["gemini-3-flash-preview", "high", "HIGH"],
		["gemini-3.1-flash-lite-preview", "xhigh", "HIGH"],
	] as const)("Gemini 3 %s: %s becomes thinkingLevel %s", async (id, level, wire) => {
		const body = await sendSimple({ reasoning: level as ThinkingLevel }, model({ id }));
		expect(body.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: wire });
	});

	it.each([
		["gemini-2.5-pro", "minimal", 128],
		["gemini-2.5-pro", "low", 2048],
		["gemini-2.5-pro", "medium", 8192],
		["gemini-2.5-pro", "high", 32768],
		["gemini-2.5-pro", "xhigh", 32768],
		["gemini-2.5-flash", "minimal", 128],
		["gemini-2.5-flash-lite", "high", 24576],
		["gemini-flash-latest", "medium", -1],
	] as const)("%s: %s becomes a %i-token budget", async (id, level, budget) => {
		const body = await sendSimple({ reasoning: level as ThinkingLevel }, model({ id }));
		expect(body.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: budget });
	});

	it("a custom budget wins over the model's table", async () => {
		const body = await sendSimple({ reasoning: "low", thinkingBudgets: { low: 777 } });
		expect(body.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 777 });
	});
});
