import { homedir } from "node:os";
import { join } from "node:path";
import type { Provider } from "./types.js";

// Taken with getBuiltinModule, not imported: an ES-module import of node:fs reads every export of it, which loads
// fs/promises and the fs streams (~6 ms on Node 20) for a program that imports this package and reads no file.
const { existsSync } = process.getBuiltinModule("node:fs");

/** Placeholder key for credential-less schemes (Vertex ADC, Bedrock). */
export const AUTHENTICATED_PLACEHOLDER = "<authenticated>";

/** Environment variables checked per provider, in order; the first non-empty one wins. */
export const PROVIDER_ENV_VARS: Readonly<Record<string, readonly string[]>> = {
	anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
	openai: ["OPENAI_API_KEY"],
	"azure-openai-responses": ["AZURE_OPENAI_API_KEY"],
	google: ["GEMINI_API_KEY"],
	"github-copilot": ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
	groq: ["GROQ_API_KEY"],
	cerebras: ["CEREBRAS_API_KEY"],
	xai: ["XAI_API_KEY"],
	openrouter: ["OPENROUTER_API_KEY"],
	"vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
	zai: ["ZAI_API_KEY"],
	mistral: ["MISTRAL_API_KEY"],
	minimax: ["MINIMAX_API_KEY"],
	"minimax-cn": ["MINIMAX_CN_API_KEY"],
	huggingface: ["HF_TOKEN"],
	opencode: ["OPENCODE_API_KEY"],
	"opencode-go": ["OPENCODE_API_KEY"],
	"kimi-coding": ["KIMI_API_KEY"],
	"google-vertex": ["GOOGLE_CLOUD_API_KEY"],
};

/**
 * Every environment variable that holds a provider API key or token: the names in PROVIDER_ENV_VARS plus
 * Bedrock's bearer token. For keeping them from commands an agent runs. General cloud credentials (AWS access
 * keys and profiles, Google application-default credentials) are not provider keys and are not listed.
 */
export const PROVIDER_KEY_ENV_VARS: readonly string[] = [
	...new Set([...Object.values(PROVIDER_ENV_VARS).flat(), "AWS_BEARER_TOKEN_BEDROCK"]),
];

/** Credentials of the cloud providers, which are more than one key, as a person sets them. */
const CLOUD_CREDENTIALS: Readonly<Record<string, string>> = {
	"amazon-bedrock": "AWS_PROFILE, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_BEARER_TOKEN_BEDROCK",
	"google-vertex":
		"GOOGLE_CLOUD_API_KEY, or GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION with application-default credentials (gcloud auth application-default login)",
	"azure-openai-responses": "AZURE_OPENAI_API_KEY, with AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME",
};

/**
 * The environment variables that give a provider credentials, in words (`ANTHROPIC_OAUTH_TOKEN or
 * ANTHROPIC_API_KEY`; the cloud providers' combinations), or undefined for a provider with none (custom ones).
 */
export function describeProviderCredentials(provider: Provider): string | undefined {
	const cloud = CLOUD_CREDENTIALS[provider];
	if (cloud) return cloud;
	const names = PROVIDER_ENV_VARS[provider];
	if (!names?.length) return undefined;
	return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

const AWS_CREDENTIAL_VARS = [
	"AWS_PROFILE",
	"AWS_BEARER_TOKEN_BEDROCK",
	"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
	"AWS_CONTAINER_CREDENTIALS_FULL_URI",
	"AWS_WEB_IDENTITY_TOKEN_FILE",
];

function envValue(name: string, env: NodeJS.ProcessEnv): string | undefined {
	const value = env[name];
	// A blank variable (e.g. `export OPENAI_API_KEY=` in a profile) counts as unset, so the next one is tried.
	return value && value.trim().length > 0 ? value : undefined;
}

function hasVertexAdc(env: NodeJS.ProcessEnv): boolean {
	const credentialsFile =
		envValue("GOOGLE_APPLICATION_CREDENTIALS", env) ??
		join(envValue("HOME", env) ?? homedir(), ".config", "gcloud", "application_default_credentials.json");
	const project = envValue("GOOGLE_CLOUD_PROJECT", env) ?? envValue("GCLOUD_PROJECT", env);
	return existsSync(credentialsFile) && !!project && !!envValue("GOOGLE_CLOUD_LOCATION", env);
}

function hasAwsCredentials(env: NodeJS.ProcessEnv): boolean {
	if (AWS_CREDENTIAL_VARS.some((name) => envValue(name, env))) return true;
	return !!envValue("AWS_ACCESS_KEY_ID", env) && !!envValue("AWS_SECRET_ACCESS_KEY", env);
}

/** The API key for a provider from the environment, or undefined. */
export function getEnvApiKey(provider: Provider, env: NodeJS.ProcessEnv = process.env): string | undefined {
	for (const name of PROVIDER_ENV_VARS[provider] ?? []) {
		const value = envValue(name, env);
		if (value) return value;
	}
	if (provider === "google-vertex" && hasVertexAdc(env)) return AUTHENTICATED_PLACEHOLDER;
	if (provider === "amazon-bedrock" && hasAwsCredentials(env)) return AUTHENTICATED_PLACEHOLDER;
	return undefined;
}
