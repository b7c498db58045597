import { AzureOpenAI } from "openai";
import type { Fetch } from "../reply-guard.js";
import type { AzureEndpoint } from "./config.js";

/**
 * The official SDK's Azure client: the key goes in the `api-key` header and every request carries
 * `?api-version=`. One client per request (it carries the reply's guarded fetch); SDK retries off, as for OpenAI.
 */
export function createAzureClient(
	endpoint: AzureEndpoint,
	apiKey: string,
	headers: Record<string, string>,
	fetch: Fetch,
): AzureOpenAI {
	return new AzureOpenAI({
		apiKey,
		apiVersion: endpoint.apiVersion,
		baseURL: endpoint.baseUrl,
		// OPENAI_ORG_ID / OPENAI_PROJECT_ID belong to OpenAI's own API.
		organization: null,
		project: null,
		defaultHeaders: headers,
		maxRetries: 0,
		dangerouslyAllowBrowser: true,
		...(process.env.OPENAI_LOG ? {} : { logLevel: "off" as const }),
		fetch,
	});
}
