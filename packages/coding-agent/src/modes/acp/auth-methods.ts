// `initialize` auth methods and `authenticate`. The agent has no login of its own in ACP mode: credentials
// come from the environment the editor starts it with, `<agentDir>/auth.json`, or providers in
// `<agentDir>/models.json`. The methods tell the user which; `authenticate` re-reads them and says whether
// a model can now be used.
import { PROVIDER_ENV_VARS } from "@agent/ai";
import type { AuthMethod } from "@agentclientprotocol/sdk";

export interface AuthMethodPaths {
	authPath: string;
	modelsPath: string;
}

interface ProviderMethod {
	id: string;
	provider: string;
	name: string;
}

const PROVIDER_METHODS: readonly ProviderMethod[] = [
	{ id: "anthropic-api-key", provider: "anthropic", name: "Anthropic API key" },
	{ id: "openai-api-key", provider: "openai", name: "OpenAI API key" },
	{ id: "gemini-api-key", provider: "google", name: "Gemini API key" },
];

export const CONFIG_AUTH_METHOD_ID = "agent-config";

export function authMethods(paths: AuthMethodPaths): AuthMethod[] {
	const methods: AuthMethod[] = PROVIDER_METHODS.map((method) => {
		const variables = (PROVIDER_ENV_VARS[method.provider] ?? []).join(" or ");
		return {
			id: method.id,
			name: method.name,
			description: `Set ${variables} in the environment the editor starts agent with (or store the key for "${method.provider}" in ${paths.authPath}).`,
		};
	});
	methods.push({
		id: CONFIG_AUTH_METHOD_ID,
		name: "agent configuration",
		description: `Other providers: set their API key variable (e.g. GROQ_API_KEY, OPENROUTER_API_KEY), store keys in ${paths.authPath}, or define providers with an apiKey in ${paths.modelsPath}.`,
	});
	return methods;
}

/** The provider a method is about; undefined for the general method; null for an unknown id. */
export function providerOfAuthMethod(methodId: string): string | undefined | null {
	if (methodId === CONFIG_AUTH_METHOD_ID) return undefined;
	return PROVIDER_METHODS.find((method) => method.id === methodId)?.provider ?? null;
}
