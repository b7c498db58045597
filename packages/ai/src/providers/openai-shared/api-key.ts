import { getEnvApiKey } from "../../env-api-keys.js";
import type { Model } from "../../types.js";

export const OPENAI_API_KEY_REQUIRED =
	"OpenAI API key is required. Set OPENAI_API_KEY environment variable or pass it as an argument.";

const OPENAI_HOST = "api.openai.com";

/** True when the base URL points at OpenAI itself (an empty base URL means the SDK default, which is OpenAI). */
export function isOpenAIHost(baseUrl: string): boolean {
	if (!baseUrl) return true;
	try {
		return new URL(baseUrl).hostname === OPENAI_HOST;
	} catch {
		return false;
	}
}

/**
 * The key for a raw `stream` call: the option, then the provider's environment variable, then
 * OPENAI_API_KEY. Returns undefined when there is none and the server is not OpenAI:
 * local OpenAI-compatible servers (Ollama, vLLM, LM Studio, llama.cpp) usually need no key, so the
 * request goes out without an Authorization header and a server that does want one answers with its
 * own 401 text, which the error message keeps. Only OpenAI itself fails early with the reference's message.
 */
export function resolveOpenAIApiKey(
	model: Model,
	apiKey: string | undefined,
	env: NodeJS.ProcessEnv = process.env,
): string | undefined {
	const key = apiKey || getEnvApiKey(model.provider, env) || env.OPENAI_API_KEY;
	if (key) return key;
	if (isOpenAIHost(model.baseUrl)) throw new Error(OPENAI_API_KEY_REQUIRED);
	return undefined;
}
