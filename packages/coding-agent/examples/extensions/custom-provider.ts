// A model provider of your own: any OpenAI-compatible server (a local Ollama or vLLM, a company gateway).
// After `agent -e examples/extensions/custom-provider.ts`, pick it with `--model my-llm/<model id>` or /model.
//   MY_LLM_BASE_URL  the server's base URL (default http://localhost:11434/v1)
//   MY_LLM_API_KEY   its key; the name of the variable is what the config holds, resolved when needed
//   MY_LLM_MODELS    comma-separated model ids (default llama3.1)
import type { ExtensionAPI, ProviderModelConfig } from "@agent/coding-agent";

export const PROVIDER_NAME = "my-llm";

export function modelsFromEnv(env: NodeJS.ProcessEnv = process.env): ProviderModelConfig[] {
	const ids = (env.MY_LLM_MODELS ?? "llama3.1")
		.split(",")
		.map((id) => id.trim())
		.filter((id) => id.length > 0);
	return ids.map((id) => ({
		id,
		name: `${id} (${PROVIDER_NAME})`,
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 8192,
	}));
}

export default function customProvider(pi: ExtensionAPI): void {
	pi.registerProvider(PROVIDER_NAME, {
		baseUrl: process.env.MY_LLM_BASE_URL ?? "http://localhost:11434/v1",
		apiKey: "MY_LLM_API_KEY",
		api: "openai-completions",
		// Servers that only speak the classic Chat Completions dialect.
		compat: { supportsDeveloperRole: false, supportsStore: false },
		models: modelsFromEnv(),
	});
}
