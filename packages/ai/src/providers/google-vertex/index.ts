// google-vertex: Gemini on Vertex AI through @google/genai with `vertexai: true`. Request
// building, conversion and stream parsing are the Gemini API's (../google/). Loaded lazily by register-builtins.ts.
import type { GenerateContentParameters, GenerateContentResponse } from "@google/genai";
import type {
	AssistantMessageEventStream,
	Context,
	GoogleVertexOptions,
	Model,
	SimpleStreamOptions,
} from "../../types.js";
import { buildRequestParams } from "../google/build-request.js";
import { describeGoogleError } from "../google/errors.js";
import { GoogleStreamParser } from "../google/parse-stream.js";
import { toGoogleOptions } from "../google/simple-options.js";
import { runProviderStream } from "../run-stream.js";
import { createVertexClient, resolveVertexAuth } from "./client.js";

/** Streams one reply from Vertex AI. Never throws; failures end the stream with `error`. */
export function streamGoogleVertex(
	model: Model<"google-vertex">,
	context: Context,
	options?: GoogleVertexOptions,
): AssistantMessageEventStream {
	return runProviderStream<GenerateContentParameters, GenerateContentResponse>({
		model,
		options,
		describeError: describeGoogleError,
		prepare: () => {
			const auth = resolveVertexAuth(options);
			return {
				payload: buildRequestParams(model, context, options),
				send: (params, { fetch, signal }) => {
					const headers = { ...model.headers, ...options?.headers };
					return createVertexClient(model, auth, headers, fetch).models.generateContentStream({
						...params,
						config: { ...params.config, abortSignal: signal, automaticContinuation: false },
					});
				},
				createProcessor: (output, stream) => new GoogleStreamParser(output, stream, model),
			};
		},
	});
}

/** `streamGoogleVertex` with provider-neutral options; project, location and token pass through. */
export function streamSimpleGoogleVertex(
	model: Model<"google-vertex">,
	context: Context,
	options?: SimpleStreamOptions & Pick<GoogleVertexOptions, "project" | "location" | "accessToken">,
): AssistantMessageEventStream {
	return streamGoogleVertex(model, context, {
		...toGoogleOptions(model, options),
		project: options?.project,
		location: options?.location,
		accessToken: options?.accessToken,
	});
}
