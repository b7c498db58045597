import { GoogleGenAI, type HttpOptions } from "@google/genai";
import type { Model } from "../../types.js";
import type { Fetch } from "../reply-guard.js";

/**
 * The SDK builds URLs as `<baseUrl>/<apiVersion>/models/<id>:streamGenerateContent`, with apiVersion
 * `v1beta` by default. Our catalog's base URL already ends with the version
 * (`https://generativelanguage.googleapis.com/v1beta`), so `model.baseUrl` is taken as the complete
 * prefix and the SDK's version segment is switched off: the URL is exactly `<model.baseUrl>/models/…`,
 * for Google and for any compatible server alike. With an empty base URL the SDK's defaults apply.
 */
export function httpOptionsFor(model: Model, headers: Record<string, string> | undefined): HttpOptions {
	const httpOptions: HttpOptions = {};
	if (model.baseUrl) {
		httpOptions.baseUrl = model.baseUrl;
		httpOptions.apiVersion = "";
	}
	if (headers && Object.keys(headers).length > 0) httpOptions.headers = headers;
	// No `retryOptions`: the SDK then makes exactly one attempt. Retrying is the coding agent's job.
	return httpOptions;
}

/**
 * One client per request. `vertexai: false` is explicit so `GOOGLE_GENAI_USE_VERTEXAI` in the environment
 * cannot redirect a Gemini API call to Vertex; the key is always passed, so the SDK never reads its own
 * environment variables for one. `httpOptions.fetch` is the reply's guarded fetch (reply-guard.ts): the SDK
 * sends every request through it, so redirects, reply limits and the wire-format check apply as for the other
 * APIs. (With a fetch of its own the SDK no longer lifts undici's 300 s header/body timeouts, as the Anthropic
 * and OpenAI SDKs never do.)
 */
export function createGoogleClient(
	model: Model,
	apiKey: string,
	headers: Record<string, string> | undefined,
	fetch: Fetch,
): GoogleGenAI {
	return new GoogleGenAI({ apiKey, vertexai: false, httpOptions: { ...httpOptionsFor(model, headers), fetch } });
}
