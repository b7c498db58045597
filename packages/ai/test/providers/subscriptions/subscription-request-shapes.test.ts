// What the subscription APIs receive: Codex's responses endpoint and headers, Copilot's editor headers, and
// Cloud Code Assist's envelope, each checked at a local fake API server.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { complete, getModel, type Model } from "../../../src/index.js";
import type { SseChunk } from "../../helpers/fake-server.js";
import { geminiReply, geminiTextChunks } from "../../helpers/google-sse.js";
import { codexAccessToken } from "../../helpers/oauth-fixtures.js";
import { textReply } from "../../helpers/openai-completions-sse.js";
import { completed, created, messageItem, responsesReply } from "../../helpers/openai-responses-sse.js";
import { expectNoUnhandledRejections, useFakeServer } from "../../helpers/provider-test-harness.js";

const server = useFakeServer();
expectNoUnhandledRejections();

function catalogModel(provider: string, id: string): Model {
	const model = getModel(provider, id);
	if (!model) throw new Error(`${provider}/${id} is not in the catalog`);
	return { ...model, baseUrl: server.url };
}

const tool = { name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) };
const context = {
	systemPrompt: "You are helpful.",
	messages: [{ role: "user" as const, content: "hi", timestamp: 1 }],
	tools: [tool],
};

describe("ChatGPT (Codex) requests", () => {
	it("go to <base>/codex/responses with the account header and the Codex body", async () => {
		server.enqueue(responsesReply([created(), ...messageItem(0, "msg_1", "hello"), completed()]));
		const token = codexAccessToken("acct_42");
		const reply = await complete(catalogModel("openai-codex", "gpt-5.4"), context, {
			apiKey: token,
			sessionId: "session-7",
			reasoningEffort: "minimal",
		} as never);
		expect(reply.stopReason, reply.errorMessage).toBe("stop");
		expect(reply.content).toEqual([expect.objectContaining({ type: "text", text: "hello" })]);
		const request = server.requests.at(-1);
		expect(request?.url).toBe("/codex/responses");
		expect(request?.headers.authorization).toBe(`Bearer ${token}`);
		expect(request?.headers["chatgpt-account-id"]).toBe("acct_42");
		expect(request?.headers.originator).toBe("agent");
		expect(request?.headers["openai-beta"]).toBe("responses=experimental");
		expect(request?.headers.session_id).toBe("session-7");
		const body = request?.body as Record<string, unknown>;
		expect(body).toMatchObject({
			model: "gpt-5.4",
			store: false,
			stream: true,
			instructions: "You are helpful.",
			text: { verbosity: "medium" },
			include: ["reasoning.encrypted_content"],
			prompt_cache_key: "session-7",
			tool_choice: "auto",
			parallel_tool_calls: true,
			reasoning: { effort: "low", summary: "auto" },
		});
		expect((body.tools as { strict: unknown }[])[0]?.strict).toBeNull();
		expect(JSON.stringify(body.input)).not.toContain("You are helpful.");
	});

	it("fail before sending when the token names no ChatGPT account", async () => {
		const before = server.requests.length;
		const reply = await complete(catalogModel("openai-codex", "gpt-5.4"), context, { apiKey: "not-a-jwt" });
		expect(reply.stopReason).toBe("error");
		expect(reply.errorMessage).toContain("names no ChatGPT account");
		expect(server.requests.length).toBe(before);
	});
});

describe("GitHub Copilot requests", () => {
	it("carry the editor headers and the per-request initiator headers", async () => {
		server.enqueue(textReply("hi there"));
		const reply = await complete(catalogModel("github-copilot", "gpt-4o"), context, { apiKey: "tid=copilot" });
		expect(reply.stopReason, reply.errorMessage).toBe("stop");
		const request = server.requests.at(-1);
		expect(request?.url).toBe("/chat/completions");
		expect(request?.headers).toMatchObject({
			authorization: "Bearer tid=copilot",
			"user-agent": "GitHubCopilotChat/0.35.0",
			"editor-version": "vscode/1.107.0",
			"editor-plugin-version": "copilot-chat/0.35.0",
			"copilot-integration-id": "vscode-chat",
			"x-initiator": "user",
			"openai-intent": "conversation-edits",
		});
	});
});

describe("Cloud Code Assist requests", () => {
	const key = JSON.stringify({ token: "ya29.token", projectId: "proj-9" });

	it("wrap the Gemini request in the project envelope, with the Bearer token", async () => {
		server.enqueue(geminiReply(geminiTextChunks(["Hel", "lo"]).map((chunk) => wrapInResponse(chunk))));
		const reply = await complete(catalogModel("google-gemini-cli", "gemini-2.5-pro"), context, {
			apiKey: key,
			sessionId: "s-1",
		});
		expect(reply.stopReason, reply.errorMessage).toBe("stop");
		expect(reply.content).toEqual([expect.objectContaining({ type: "text", text: "Hello" })]);
		const request = server.requests.at(-1);
		expect(request?.url).toBe("/v1internal:streamGenerateContent?alt=sse");
		expect(request?.headers.authorization).toBe("Bearer ya29.token");
		expect(request?.headers["client-metadata"]).toContain("GEMINI");
		const body = request?.body as Record<string, unknown>;
		expect(body).toMatchObject({
			project: "proj-9",
			model: "gemini-2.5-pro",
			userAgent: "agent",
			request: {
				sessionId: "s-1",
				systemInstruction: { parts: [{ text: "You are helpful." }] },
				contents: [{ role: "user", parts: [{ text: "hi" }] }],
			},
		});
	});

	it("introduce Antigravity requests as its agent and send Claude tools with `parameters`", async () => {
		server.enqueue(geminiReply(geminiTextChunks(["ok"]).map((chunk) => wrapInResponse(chunk))));
		const reply = await complete(catalogModel("google-antigravity", "claude-sonnet-4-5"), context, { apiKey: key });
		expect(reply.stopReason, reply.errorMessage).toBe("stop");
		const request = server.requests.at(-1);
		expect(request?.headers["user-agent"]).toMatch(/^antigravity\//);
		const body = request?.body as {
			requestType: string;
			request: {
				systemInstruction: { parts: { text: string }[] };
				tools: { functionDeclarations: Record<string, unknown>[] }[];
			};
		};
		expect(body.requestType).toBe("agent");
		expect(body.request.systemInstruction.parts.at(-1)?.text).toBe("You are helpful.");
		const declaration = body.request.tools[0]?.functionDeclarations[0];
		expect(declaration?.parameters).toBeDefined();
		expect(declaration?.parametersJsonSchema).toBeUndefined();
	});

	it("report the server's status and text, with its retry hint", async () => {
		server.enqueue({
			kind: "json",
			status: 429,
			body: { error: { code: 429, message: "Quota exceeded", details: [{ retryDelay: "12s" }] } },
		});
		const reply = await complete(catalogModel("google-gemini-cli", "gemini-2.5-pro"), context, { apiKey: key });
		expect(reply.stopReason).toBe("error");
		expect(reply.errorMessage).toMatch(/^429 .*Quota exceeded.* \(retry after 12s\)$/);
	});
});

/** Cloud Code Assist sends each Gemini chunk as `{"response": <chunk>}`. */
function wrapInResponse(chunk: SseChunk): SseChunk {
	const data = (chunk as { data: unknown }).data;
	return { data: { response: data } };
}
