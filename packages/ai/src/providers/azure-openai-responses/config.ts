import type { AzureOpenAIResponsesOptions, Model } from "../../types.js";

export const DEFAULT_AZURE_API_VERSION = "v1";
export const AZURE_BASE_URL_REQUIRED =
	"Azure OpenAI base URL is required. Set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or pass azureBaseUrl, azureResourceName, or model.baseUrl.";
export const AZURE_API_KEY_REQUIRED =
	"Azure OpenAI API key is required. Set AZURE_OPENAI_API_KEY environment variable or pass it as an argument.";

/** `AZURE_OPENAI_DEPLOYMENT_NAME_MAP`: `model-id=deployment,…`; malformed entries are skipped. */
export function parseDeploymentNameMap(value: string | undefined): Map<string, string> {
	const map = new Map<string, string>();
	for (const entry of (value ?? "").split(",")) {
		const [modelId, deployment] = entry
			.trim()
			.split("=", 2)
			.map((part) => part?.trim());
		if (modelId && deployment) map.set(modelId, deployment);
	}
	return map;
}

/** The deployment sent as `model`: option, then the env map, then the model id (deployments often share it). */
export function resolveDeploymentName(
	model: Model,
	options: AzureOpenAIResponsesOptions | undefined,
	env: NodeJS.ProcessEnv = process.env,
): string {
	return (
		options?.azureDeploymentName ||
		parseDeploymentNameMap(env.AZURE_OPENAI_DEPLOYMENT_NAME_MAP).get(model.id) ||
		model.id
	);
}

export interface AzureEndpoint {
	baseUrl: string;
	apiVersion: string;
}

/**
 * Base URL: option, AZURE_OPENAI_BASE_URL, `https://<resource>.openai.azure.com/openai/v1` from the resource name
 * (option, AZURE_OPENAI_RESOURCE_NAME), then the model's own base URL. API version: option,
 * AZURE_OPENAI_API_VERSION, then `v1` (the version-less v1 API).
 */
export function resolveAzureEndpoint(
	model: Model,
	options: AzureOpenAIResponsesOptions | undefined,
	env: NodeJS.ProcessEnv = process.env,
): AzureEndpoint {
	const apiVersion = options?.azureApiVersion || env.AZURE_OPENAI_API_VERSION || DEFAULT_AZURE_API_VERSION;
	const resourceName = options?.azureResourceName || env.AZURE_OPENAI_RESOURCE_NAME;
	const baseUrl =
		options?.azureBaseUrl?.trim() ||
		env.AZURE_OPENAI_BASE_URL?.trim() ||
		(resourceName ? `https://${resourceName}.openai.azure.com/openai/v1` : "") ||
		model.baseUrl;
	if (!baseUrl) throw new Error(AZURE_BASE_URL_REQUIRED);
	return { baseUrl: baseUrl.replace(/\/+$/, ""), apiVersion };
}
