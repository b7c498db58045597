// What a first run without credentials tells the user (docs/providers.md), with concrete examples.
import { join } from "node:path";
import { APP_NAME } from "../config.js";

const LOCAL_SERVER_EXAMPLE = `{
  "providers": {
    "ollama": {
      "baseUrl": "http://localhost:11434/v1",
      "api": "openai-completions",
      "apiKey": "ollama",
      "models": [{ "id": "llama3.1:8b" }]
    }
  }
}`;

/**
 * The reference's lines (`No models available.` … `Or create <agentDir>/models.json`), followed by how to pass
 * a key for one run and a models.json for a local OpenAI-compatible server.
 */
export function formatNoModelsHelp(agentDir: string): string {
	const modelsPath = join(agentDir, "models.json");
	return [
		"No models available.",
		"",
		"Set an API key environment variable:",
		"  ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, etc.",
		"",
		`Or create ${modelsPath}`,
		"",
		"For example:",
		`  export ANTHROPIC_API_KEY=sk-ant-...     then run: ${APP_NAME} -p "hello"`,
		`  ${APP_NAME} --model anthropic/claude-sonnet-4-5 --api-key sk-ant-... -p "hello"`,
		"      (--api-key is used for this run only and never saved)",
		"",
		`A local OpenAI-compatible server (Ollama, vLLM, LM Studio) is configured in ${modelsPath}:`,
		...LOCAL_SERVER_EXAMPLE.split("\n").map((line) => `  ${line}`),
		"  (vLLM listens on http://localhost:8000/v1, LM Studio on http://localhost:1234/v1)",
		"",
	].join("\n");
}

/**
 * Added under a "No API key found for <provider>" failure when auth.json has an entry for the provider: that entry
 * decides (it wins over the environment) and resolved to nothing, so the hint points there.
 */
export function formatAuthEntryHint(
	provider: string,
	envVars: readonly string[] | undefined,
	authPath: string,
): string {
	return `The "${provider}" entry in ${authPath} gave no key (a !command that failed or printed nothing, or an empty value); it takes precedence over ${envVars?.at(-1) ?? "environment variables"}. Fix or remove it, or pass --api-key <key> for this run.`;
}
