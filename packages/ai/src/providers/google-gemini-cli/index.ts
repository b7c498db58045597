// google-gemini-cli: Google Cloud Code Assist, the API behind Gemini CLI and Antigravity
// subscriptions. The request wraps a Gemini generateContent request in `{project, model, request}`; the reply is
// server-sent events whose `response` is a Gemini chunk, parsed by the Gemini API's own parser. Loaded lazily.
import type { GenerateContentResponse } from "@google/genai";
import type { AssistantMessageEventStream } from "../../event-stream.js";
import type { Context, GoogleGeminiCliOptions, Model, SimpleStreamOptions } from "../../types.js";
import { describeError } from "../assistant-output.js";
import { messageWithCauses, retryAfterSuffix } from "../error-text.js";
import { GoogleStreamParser } from "../google/parse-stream.js";
import { toGoogleOptions } from "../google/simple-options.js";
import { runProviderStream } from "../run-stream.js";
import { WireProtocolError } from "../stream-errors.js";
import { buildRequest, type CloudCodeAssistRequest, isAntigravity } from "./build-request.js";
import { extractRetryDelay } from "./retry-delay.js";

export { buildRequest } from "./build-request.js";

export const INVALID_CREDENTIALS_MESSAGE =
	"Invalid Google Cloud Code Assist credentials. Use /login to re-authenticate.";
export const MISSING_CREDENTIALS_MESSAGE =
	"Missing token or projectId in Google Cloud credentials. Use /login to re-authenticate.";
const DEFAULT_ANTIGRAVITY_VERSION = "1.18.4";
const CLAUDE_THINKING_BETA = "interleaved-thinking-2025-05-14";
const ERROR_BODY_CHARS = 4000;

const GEMINI_CLI_HEADERS: Readonly<Record<string, string>> = {
	"User-Agent": "google-cloud-sdk vscode_cloudshelleditor/0.1",
	"X-Goog-Api-Client": "gl-node/22.17.0",
	"Client-Metadata": JSON.stringify({
		ideType: "IDE_UNSPECIFIED",
		platform: "PLATFORM_UNSPECIFIED",
		pluginType: "GEMINI",
	}),
};

function antigravityHeaders(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
	return {
		"User-Agent": `antigravity/${env.AGENT_AI_ANTIGRAVITY_VERSION || DEFAULT_ANTIGRAVITY_VERSION} darwin/arm64`,
	};
}

/** The key is `{"token","projectId"}` JSON (what the login stores, see oauth/google-cloud-code.ts). */
function parseKey(apiKey: string | undefined): { token: string; projectId: string | undefined } {
	if (!apiKey) throw new Error(MISSING_CREDENTIALS_MESSAGE);
	let parsed: { token?: unknown; projectId?: unknown };
	try {
		parsed = JSON.parse(apiKey) as typeof parsed;
	} catch {
		throw new Error(INVALID_CREDENTIALS_MESSAGE);
	}
	if (typeof parsed.token !== "string" || !parsed.token) throw new Error(MISSING_CREDENTIALS_MESSAGE);
	return { token: parsed.token, projectId: typeof parsed.projectId === "string" ? parsed.projectId : undefined };
}

/** An HTTP error of Cloud Code Assist: `<status> <body>` with the server's retry hint. */
class CloudCodeAssistError extends Error {
	override name = "CloudCodeAssistError";
}

/** The response an event's `data:` lines (joined) wrap, if any; none for an event without data. */
function eventResponse(data: string[]): GenerateContentResponse | undefined {
	if (data.length === 0) return undefined;
	const text = data.join("\n");
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		throw new WireProtocolError(`an event that is not JSON: ${text.slice(0, 200)}`);
	}
	return (parsed as { response?: GenerateContentResponse }).response;
}

/** Reads server-sent events; each `data:` line is one JSON chunk wrapping a Gemini response. */
async function* readChunks(body: ReadableStream<Uint8Array>): AsyncIterable<GenerateContentResponse> {
	const decoder = new TextDecoder();
	let buffer = "";
	let data: string[] = [];
	for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
		buffer += decoder.decode(chunk, { stream: true });
		for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
			const line = buffer.slice(0, end).replace(/\r$/, "");
			buffer = buffer.slice(end + 1);
			if (line === "") {
				const response = eventResponse(data);
				data = [];
				if (response) yield response;
			} else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
		}
	}
	buffer += decoder.decode();
	if (buffer.startsWith("data:")) data.push(buffer.slice(5).replace(/^ /, ""));
	const response = eventResponse(data);
	if (response) yield response;
}

export function streamGoogleGeminiCli(
	model: Model<"google-gemini-cli">,
	context: Context,
	options?: GoogleGeminiCliOptions,
): AssistantMessageEventStream {
	return runProviderStream<CloudCodeAssistRequest, GenerateContentResponse>({
		model,
		options,
		describeError: (error) => (error instanceof Error ? messageWithCauses(error) : describeError(error)),
		prepare: () => {
			const key = parseKey(options?.apiKey);
			const projectId = options?.projectId || key.projectId;
			if (!projectId) throw new Error(MISSING_CREDENTIALS_MESSAGE);
			const antigravity = isAntigravity(model);
			const needsThinkingBeta = model.id.startsWith("claude-") && model.reasoning;
			const headers: Record<string, string> = {
				Authorization: `Bearer ${key.token}`,
				"Content-Type": "application/json",
				Accept: "text/event-stream",
				...(antigravity ? antigravityHeaders() : GEMINI_CLI_HEADERS),
				...(needsThinkingBeta ? { "anthropic-beta": CLAUDE_THINKING_BETA } : {}),
				...model.headers,
				...options?.headers,
			};
			const url = `${model.baseUrl.replace(/\/+$/, "")}/v1internal:streamGenerateContent?alt=sse`;
			return {
				payload: buildRequest(model, context, projectId, options, antigravity),
				send: async (payload, { fetch, signal }) => {
					const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(payload), signal });
					if (!response.ok) {
						const text = await response.text().catch(() => "");
						const delayMs = extractRetryDelay(text, response);
						const delay = delayMs === undefined ? undefined : delayMs / 1000;
						throw new CloudCodeAssistError(
							`${response.status} ${text.slice(0, ERROR_BODY_CHARS)}${retryAfterSuffix(delay)}`,
						);
					}
					if (!response.body) throw new WireProtocolError("an empty body");
					return readChunks(response.body);
				},
				createProcessor: (output, stream) => new GoogleStreamParser(output, stream, model),
			};
		},
	});
}

/** Provider-neutral options: the reasoning level becomes a Gemini 3 level or a 2.5 budget, as for Gemini. */
export function streamSimpleGoogleGeminiCli(
	model: Model<"google-gemini-cli">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return streamGoogleGeminiCli(model, context, { ...toGoogleOptions(model, options), apiKey: options?.apiKey });
}
