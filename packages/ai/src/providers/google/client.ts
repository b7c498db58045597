import { GoogleGenAI, type HttpOptions } from "@google/genai";
import type { Model } from "../../types.js";

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
 * environment variables for one.
 */
export function createGoogleClient(model: Model, apiKey: string, headers?: Record<string, string>): GoogleGenAI {
	return new GoogleGenAI({ apiKey, vertexai: false, httpOptions: httpOptionsFor(model, headers) });
}
