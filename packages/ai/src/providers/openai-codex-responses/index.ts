// openai-codex-responses: ChatGPT Plus/Pro subscriptions through the Codex backend, a
// Responses API at `<base>/codex/responses` authorised by the login's access token and the ChatGPT account
// it belongs to. Payload conversion and stream parsing are the shared Responses logic. Loaded lazily by
// register-builtins.ts on the first call of this API.
import { arch, platform, release } from "node:os";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import type { AssistantMessageEventStream } from "../../event-stream.js";
import { APP_NAME_FOR_PROVIDERS } from "../../oauth/app-name.js";
import { chatgptAccountId } from "../../oauth/jwt.js";
import type { Context, Model, OpenAICodexResponsesOptions, SimpleStreamOptions } from "../../types.js";
import type { ResponsesPayload } from "../openai-responses/build-payload.js";
import { ResponsesStreamParser } from "../openai-responses/parse-stream.js";
import { createOpenAIClient } from "../openai-shared/client.js";
import { describeOpenAIError } from "../openai-shared/error-message.js";
import type { StreamEventProcessor } from "../run-stream.js";
import { runProviderStream } from "../run-stream.js";
import { serializedBody } from "../serialized-payload.js";
import { buildBaseOptions } from "../simple-options.js";
import { buildCodexPayload } from "./build-payload.js";

export const DEFAULT_CODEX_BASE_URL = "https://chatgpt.com/backend-api";
export const CODEX_LOGIN_REQUIRED =
	"No ChatGPT credentials for openai-codex. Log in with /login (or `agent login openai-codex`).";
export const CODEX_ACCOUNT_MISSING =
	"The openai-codex token names no ChatGPT account. Log in again with /login (or `agent login openai-codex`).";

/** `<base>/codex` (the SDK appends `/responses`), whatever form of the base URL is configured. */
export function codexClientBaseUrl(baseUrl: string): string {
	const normalized = (baseUrl.trim() || DEFAULT_CODEX_BASE_URL).replace(/\/+$/, "");
	if (normalized.endsWith("/codex/responses")) return normalized.slice(0, -"/responses".length);
	if (normalized.endsWith("/codex")) return normalized;
	return `${normalized}/codex`;
}

/** Codex ends a reply with `response.done` where the Responses API says `response.completed`. */
class CodexStreamParser implements StreamEventProcessor<ResponseStreamEvent> {
	constructor(private readonly inner: ResponsesStreamParser) {}
	readonly terminalEvent = "response.completed";
	get isComplete(): boolean {
		return this.inner.isComplete;
	}
	get failureReason(): string | undefined {
		return this.inner.failureReason;
	}
	handle(event: ResponseStreamEvent): void {
		const type = (event as { type: string }).type;
		this.inner.handle(
			type === "response.done" ? ({ ...event, type: "response.completed" } as ResponseStreamEvent) : event,
		);
	}
	finish(): void {
		this.inner.finish();
	}
	abandon(): void {
		this.inner.abandon();
	}
}

export function streamOpenAICodexResponses(
	model: Model<"openai-codex-responses">,
	context: Context,
	options?: OpenAICodexResponsesOptions,
): AssistantMessageEventStream {
	return runProviderStream<ResponsesPayload, ResponseStreamEvent>({
		model,
		options,
		describeError: describeOpenAIError,
		prepare: () => {
			const token = options?.apiKey;
			if (!token) throw new Error(CODEX_LOGIN_REQUIRED);
			const accountId = chatgptAccountId(token);
			if (!accountId) throw new Error(CODEX_ACCOUNT_MISSING);
			const headers: Record<string, string> = {
				"chatgpt-account-id": accountId,
				originator: APP_NAME_FOR_PROVIDERS,
				"User-Agent": `${APP_NAME_FOR_PROVIDERS} (${platform()} ${release()}; ${arch()})`,
				"OpenAI-Beta": "responses=experimental",
				...(options?.sessionId ? { session_id: options.sessionId } : {}),
				...options?.headers,
			};
			const clientModel = { ...model, baseUrl: codexClientBaseUrl(model.baseUrl) };
			// Without an `onPayload` hook each message's items are shared between requests (see openai-responses).
			const reuseConversions = !options?.onPayload;
			return {
				payload: buildCodexPayload(model, context, options, { reuseConversions }),
				send: (payload, { fetch, signal, whenOver }) =>
					createOpenAIClient({ model: clientModel, apiKey: token, context, headers, fetch }).responses.create(
						payload,
						reuseConversions ? { signal, ...serializedBody(payload, "input", { whenOver }) } : { signal },
					),
				createProcessor: (output, stream) =>
					new CodexStreamParser(new ResponsesStreamParser(model, output, stream)),
			};
		},
	});
}

/** Provider-neutral options: `reasoning` becomes the Codex effort (clamped per model). */
export function streamSimpleOpenAICodexResponses(
	model: Model<"openai-codex-responses">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return streamOpenAICodexResponses(model, context, {
		...buildBaseOptions(model, options, options?.apiKey ?? ""),
		apiKey: options?.apiKey,
		...(options?.reasoning ? { reasoningEffort: options.reasoning } : {}),
	});
}
