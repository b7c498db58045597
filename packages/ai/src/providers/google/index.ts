// google-generative-ai (spec ai §7.4) through the official @google/genai SDK. Loaded lazily by
// register-builtins.ts; nothing else may import this module statically, so the SDK loads on first use.
import type { GenerateContentParameters } from "@google/genai";
import { getEnvApiKey } from "../../env-api-keys.js";
import type { AssistantMessage, Context, GoogleOptions, Model, SimpleStreamOptions } from "../../types.js";
import { AssistantMessageEventStream, createAssistantOutput, failStream, finishStream } from "../assistant-output.js";
import { buildRequestParams } from "./build-request.js";
import { createGoogleClient } from "./client.js";
import { describeGoogleError } from "./errors.js";
import { GoogleStreamParser } from "./parse-stream.js";
import { toGoogleOptions } from "./simple-options.js";

const ABORTED_MESSAGE = "Request was aborted";
const UNKNOWN_ERROR_MESSAGE = "An unknown error occurred";

function finishReasonError(parser: GoogleStreamParser): Error {
	if (parser.blockReason) return new Error(`Prompt blocked: ${parser.blockReason}`);
	const detail = [parser.rawFinishReason, parser.finishMessage].filter(Boolean).join(": ");
	// The reference's text alone says nothing; the raw finish reason (SAFETY, RECITATION, …) is kept.
	return new Error(`${UNKNOWN_ERROR_MESSAGE} (finish reason: ${detail})`);
}

async function run(
	stream: AssistantMessageEventStream,
	output: AssistantMessage,
	model: Model,
	context: Context,
	options: GoogleOptions | undefined,
): Promise<void> {
	const signal = options?.signal;
	try {
		const apiKey = options?.apiKey || getEnvApiKey(model.provider);
		if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);

		let params = buildRequestParams(model, context, options);
		if (options?.onPayload) {
			const replaced = await options.onPayload(params, model);
			if (replaced !== undefined) params = replaced as GenerateContentParameters;
		}

		const headers = { ...model.headers, ...options?.headers };
		const client = createGoogleClient(model, apiKey, headers);
		const chunks = await client.models.generateContentStream({
			...params,
			config: {
				...params.config,
				abortSignal: signal,
				// The SDK would otherwise reopen a dropped stream by itself: a hidden retry that delays the
				// failure and that the caller's retry policy cannot see.
				automaticContinuation: false,
			},
		});
		stream.push({ type: "start", partial: output });

		const parser = new GoogleStreamParser(output, stream, model);
		for await (const chunk of chunks) parser.handle(chunk);

		if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
		parser.finish();
		if (parser.blockReason || output.stopReason === "error" || output.stopReason === "aborted") {
			throw finishReasonError(parser);
		}
		finishStream(stream, output);
	} catch (error) {
		const message = signal?.aborted ? ABORTED_MESSAGE : describeGoogleError(error);
		failStream(stream, output, new Error(message), signal);
	}
}

/** Streams one reply from the Gemini API. Never throws; failures end the stream with `error`. */
export function streamGoogle(
	model: Model<"google-generative-ai">,
	context: Context,
	options?: GoogleOptions,
): AssistantMessageEventStream {
	const stream = new AssistantMessageEventStream();
	void run(stream, createAssistantOutput(model), model, context, options);
	return stream;
}

/** `streamGoogle` with provider-neutral options (reasoning level → Gemini 3 level or 2.5 budget). */
export function streamSimpleGoogle(
	model: Model<"google-generative-ai">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return streamGoogle(model, context, toGoogleOptions(model, options));
}
