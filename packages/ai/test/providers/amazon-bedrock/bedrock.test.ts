// Bedrock ConverseStream through the real AWS SDK against a local server speaking its binary event stream:
// what is sent (path, auth, cache points, thinking, tools) and how replies read (reasoning, usage, stream errors).
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveRegion } from "../../../src/providers/amazon-bedrock/client.js";
import { streamBedrock, streamSimpleBedrock } from "../../../src/providers/amazon-bedrock/index.js";
import type { BedrockOptions, Context, Model, SimpleStreamOptions } from "../../../src/types.js";
import {
	bedrockEvent,
	bedrockException,
	bedrockReply,
	bedrockText,
	blockStop,
	messageStart,
	messageStop,
	metadata,
	reasoningDelta,
	textDelta,
} from "../../helpers/bedrock-eventstream.js";
import type { RecordedRequest } from "../../helpers/fake-server.js";
import { bedrockClaude, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect } from "../../helpers/stream-events.js";

const server = useFakeServer();
const AWS_VARS = [
	"AWS_ACCESS_KEY_ID",
	"AWS_SECRET_ACCESS_KEY",
	"AWS_SESSION_TOKEN",
	"AWS_REGION",
	"AWS_DEFAULT_REGION",
	"AWS_PROFILE",
	"AWS_BEARER_TOKEN_BEDROCK",
	"AGENT_CACHE_RETENTION",
];
let saved: Record<string, string | undefined> = {};
beforeEach(() => {
	saved = Object.fromEntries(AWS_VARS.map((name) => [name, process.env[name]]));
	for (const name of AWS_VARS) delete process.env[name];
});
afterEach(() => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

const context: Context = {
	systemPrompt: "You are a coding agent.",
	messages: [{ role: "user", content: "list the files", timestamp: 1 }],
	tools: [{ name: "bash", description: "Run a command", parameters: Type.Object({ command: Type.String() }) }],
};

interface ConverseBody {
	system?: Record<string, unknown>[];
	messages: { role: string; content: Record<string, unknown>[] }[];
	inferenceConfig?: { maxTokens?: number; temperature?: number };
	toolConfig?: { tools: { toolSpec: { name: string; inputSchema: { json: unknown } } }[] };
	additionalModelRequestFields?: Record<string, unknown>;
}

async function send(
	options: BedrockOptions = { apiKey: "bedrock-api-key" },
	model: Model<"bedrock-converse-stream"> = bedrockClaude(server.url),
	ctx: Context = context,
): Promise<{ request: RecordedRequest; body: ConverseBody }> {
	const before = server.requests.length;
	server.enqueue(bedrockReply(bedrockText("ok")));
	const { result } = await collect(streamBedrock(model, ctx, options));
	expect(result.errorMessage).toBeUndefined();
	const request = server.requests[before];
	return { request, body: request.body as ConverseBody };
}

describe("requests", () => {
	it("posts to the model's converse-stream path with the Bedrock API key as a bearer token", async () => {
		const { request } = await send();
		expect(request.method).toBe("POST");
		expect(request.url).toBe(
			`/model/${encodeURIComponent("us.anthropic.claude-sonnet-4-5-20250929-v1:0")}/converse-stream`,
		);
		expect(request.headers.authorization).toBe("Bearer bedrock-api-key");
	});

	it("signs with SigV4 from the environment's access keys, scoped to the region", async () => {
		process.env.AWS_ACCESS_KEY_ID = "AKIDTESTEXAMPLE";
		process.env.AWS_SECRET_ACCESS_KEY = "secret";
		process.env.AWS_REGION = "eu-west-1";
		const { request } = await send({});
		expect(String(request.headers.authorization)).toMatch(
			/^AWS4-HMAC-SHA256 Credential=AKIDTESTEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=.*host.*, Signature=[0-9a-f]{64}$/,
		);
		expect(request.headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
	});

	it("takes AWS_BEARER_TOKEN_BEDROCK itself when no key is passed", async () => {
		process.env.AWS_BEARER_TOKEN_BEDROCK = "token-from-env";
		const { request } = await send({});
		expect(request.headers.authorization).toBe("Bearer token-from-env");
	});

	it("resolves the region from the option, AWS_REGION, AWS_DEFAULT_REGION, a profile's own, the model's endpoint, then us-east-1", () => {
		expect(resolveRegion({ region: "ap-south-1" }, { AWS_REGION: "eu-west-1" })).toBe("ap-south-1");
		expect(resolveRegion({}, { AWS_REGION: "eu-west-1", AWS_DEFAULT_REGION: "us-west-2" })).toBe("eu-west-1");
		expect(resolveRegion({}, { AWS_DEFAULT_REGION: "us-west-2" })).toBe("us-west-2");
		expect(resolveRegion({}, { AWS_PROFILE: "work" })).toBeUndefined();
		expect(resolveRegion({}, {})).toBe("us-east-1");
		const euModel = { baseUrl: "https://bedrock-runtime.eu-central-1.amazonaws.com" };
		expect(resolveRegion({}, {}, euModel)).toBe("eu-central-1");
		expect(resolveRegion({}, { AWS_REGION: "eu-west-1" }, euModel)).toBe("eu-west-1");
	});

	it("puts a cache point after the system prompt and on the last user message of a Claude model", async () => {
		const { body } = await send();
		expect(body.system).toEqual([{ text: "You are a coding agent." }, { cachePoint: { type: "default" } }]);
		expect(body.messages.at(-1)?.content).toEqual([{ text: "list the files" }, { cachePoint: { type: "default" } }]);
	});

	it("asks for a one-hour cache on long retention, and for none on none", async () => {
		const long = await send({ apiKey: "k", cacheRetention: "long" });
		expect(long.body.system?.[1]).toEqual({ cachePoint: { type: "default", ttl: "1h" } });
		const none = await send({ apiKey: "k", cacheRetention: "none" });
		expect(JSON.stringify(none.body)).not.toContain("cachePoint");
	});

	it("sends no cache points to a model Bedrock does not cache for", async () => {
		const model = bedrockClaude(server.url, { id: "meta.llama3-1-70b-instruct-v1:0", reasoning: false });
		const { body } = await send({ apiKey: "k" }, model);
		expect(JSON.stringify(body)).not.toContain("cachePoint");
	});

	it("sends tools as tool specs with their JSON schema", async () => {
		const { body } = await send();
		expect(body.toolConfig?.tools[0].toolSpec.name).toBe("bash");
		expect(body.toolConfig?.tools[0].toolSpec.inputSchema.json).toMatchObject({
			type: "object",
			properties: { command: { type: "string" } },
		});
	});

	it("merges consecutive tool results into one user message and normalises call ids", async () => {
		const ctx: Context = {
			messages: [
				{ role: "user", content: "go", timestamp: 1 },
				{
					role: "assistant",
					content: [
						{ type: "toolCall", id: "call|one", name: "bash", arguments: { command: "ls" } },
						{ type: "toolCall", id: "call|two", name: "bash", arguments: { command: "pwd" } },
					],
					api: "openai-responses",
					provider: "openai",
					model: "gpt-5",
					usage: {
						input: 0,
						output: 0,
						cacheRead: 0,
						cacheWrite: 0,
						totalTokens: 0,
						cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
					},
					stopReason: "toolUse",
					timestamp: 2,
				},
				{
					role: "toolResult",
					toolCallId: "call|one",
					toolName: "bash",
					content: [{ type: "text", text: "a b" }],
					isError: false,
					timestamp: 3,
				},
				{ role: "toolResult", toolCallId: "call|two", toolName: "bash", content: [], isError: true, timestamp: 4 },
			],
		};
		const { body } = await send({ apiKey: "k", cacheRetention: "none" }, bedrockClaude(server.url), ctx);
		expect(body.messages[1].content.map((block) => (block.toolUse as { toolUseId: string }).toolUseId)).toEqual([
			"call_one",
			"call_two",
		]);
		expect(body.messages[2]).toEqual({
			role: "user",
			content: [
				{ toolResult: { toolUseId: "call_one", content: [{ text: "a b" }], status: "success" } },
				{ toolResult: { toolUseId: "call_two", content: [{ text: "(no output)" }], status: "error" } },
			],
		});
	});
});

describe("thinking", () => {
	const simple = async (model: Model<"bedrock-converse-stream">, options: SimpleStreamOptions) => {
		const before = server.requests.length;
		server.enqueue(bedrockReply(bedrockText("ok")));
		await collect(streamSimpleBedrock(model, context, { apiKey: "k", ...options }));
		return server.requests[before].body as ConverseBody;
	};

	it("gives Claude 4.5 a thinking budget on top of the output allowance, with the interleaved beta and no temperature", async () => {
		const body = await simple(bedrockClaude(server.url), { reasoning: "medium", maxTokens: 4000, temperature: 0.5 });
		expect(body.additionalModelRequestFields).toEqual({
			thinking: { type: "enabled", budget_tokens: 8192 },
			anthropic_beta: ["interleaved-thinking-2025-05-14"],
		});
		expect(body.inferenceConfig).toEqual({ maxTokens: 12192 });
	});

	it("lets Claude 4.6 think adaptively with an effort; xhigh is max on Opus", async () => {
		const opus = bedrockClaude(server.url, { id: "us.anthropic.claude-opus-4-6-v1", maxTokens: 128_000 });
		const body = await simple(opus, { reasoning: "xhigh" });
		expect(body.additionalModelRequestFields).toEqual({
			thinking: { type: "adaptive" },
			output_config: { effort: "max" },
		});
	});

	it("sends no thinking switches to other models or without a level", async () => {
		const nova = bedrockClaude(server.url, { id: "amazon.nova-pro-v1:0", reasoning: false });
		expect((await simple(nova, { reasoning: "high" })).additionalModelRequestFields).toBeUndefined();
		expect((await simple(bedrockClaude(server.url), {})).additionalModelRequestFields).toBeUndefined();
	});
});

describe("replies", () => {
	const reply = async (chunks: Parameters<typeof bedrockReply>[0]) => {
		server.enqueue(bedrockReply(chunks));
		return collect(streamBedrock(bedrockClaude(server.url), context, { apiKey: "k" }));
	};

	it("reads signed reasoning, text and usage with cache reads and writes", async () => {
		const { result } = await reply([
			messageStart(),
			reasoningDelta(0, { text: "Let me look." }),
			reasoningDelta(0, { signature: "sig-abc" }),
			blockStop(0),
			textDelta(1, "Done."),
			blockStop(1),
			messageStop("end_turn"),
			metadata({
				inputTokens: 100,
				outputTokens: 20,
				cacheReadInputTokens: 1000,
				cacheWriteInputTokens: 50,
				totalTokens: 1170,
			}),
		]);
		expect(result.content).toEqual([
			{ type: "thinking", thinking: "Let me look.", thinkingSignature: "sig-abc" },
			{ type: "text", text: "Done." },
		]);
		expect(result.usage).toMatchObject({
			input: 100,
			output: 20,
			cacheRead: 1000,
			cacheWrite: 50,
			totalTokens: 1170,
		});
		expect(result.usage.cost.total).toBeCloseTo((100 * 3 + 20 * 15 + 1000 * 0.3 + 50 * 3.75) / 1e6, 12);
	});

	it("keeps redacted reasoning as its encrypted bytes, in base64", async () => {
		const { result } = await reply([
			messageStart(),
			bedrockEvent("contentBlockDelta", {
				contentBlockIndex: 0,
				delta: { reasoningContent: { redactedContent: Buffer.from("secret").toString("base64") } },
			}),
			blockStop(0),
			messageStop("end_turn"),
		]);
		expect(result.content).toEqual([
			{
				type: "thinking",
				thinking: "[Reasoning redacted]",
				thinkingSignature: Buffer.from("secret").toString("base64"),
				redacted: true,
			},
		]);
	});

	it("an exception inside the stream fails the reply with its name and text", async () => {
		const { result } = await reply([
			messageStart(),
			textDelta(0, "Hel"),
			bedrockException("throttlingException", "Too many tokens, please wait."),
		]);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/throttlingException|ThrottlingException/);
		expect(result.errorMessage).toContain("Too many tokens, please wait.");
	});

	it("a guardrail stop is an error that names the stop reason", async () => {
		const { result } = await reply([
			messageStart(),
			textDelta(0, "no"),
			blockStop(0),
			messageStop("guardrail_intervened"),
		]);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("An unknown error occurred (stop reason: guardrail_intervened)");
	});

	it("a frame whose checksum does not match fails the reply as malformed before the SDK decodes it", async () => {
		const corrupt = Buffer.from(textDelta(0, "Hello"));
		corrupt[corrupt.length - 6] ^= 0xff;
		const { result } = await reply([messageStart(), corrupt, messageStop("end_turn")]);
		expect(result.errorMessage).toMatch(
			/^Malformed event stream from .*: a frame whose message checksum does not match/,
		);
	});

	it("a frame declaring more than 8 MiB is refused before anything allocates it", async () => {
		const prelude = Buffer.alloc(12);
		prelude.writeUInt32BE(64 * 1024 * 1024, 0);
		const { crc32 } = await import("node:zlib");
		prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
		const { result } = await reply([messageStart(), prelude]);
		expect(result.errorMessage).toMatch(/a frame longer than 8 MiB \(67108864 bytes\)/);
	});
});
