import { BedrockRuntimeClient, type BedrockRuntimeClientConfig } from "@aws-sdk/client-bedrock-runtime";
import { AUTHENTICATED_PLACEHOLDER } from "../../env-api-keys.js";
import type { BedrockOptions, Model } from "../../types.js";
import type { Fetch } from "../reply-guard.js";
import { GuardedFetchHandler } from "./fetch-handler.js";

export const DEFAULT_BEDROCK_REGION = "us-east-1";
/**
 * The catalog's base URLs are public regional endpoints (`eu.*` inference profiles name an EU one); the SDK derives
 * the endpoint from the region instead, so a configured region always wins.
 */
const PUBLIC_ENDPOINT = /^https:\/\/bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\/?$/;

/**
 * Region: option, AWS_REGION, AWS_DEFAULT_REGION; with a profile (option or AWS_PROFILE) the profile's own region
 * is left to the SDK; otherwise the region of the model's public endpoint, else `us-east-1`.
 */
export function resolveRegion(
	options: BedrockOptions | undefined,
	env: NodeJS.ProcessEnv = process.env,
	model?: Pick<Model, "baseUrl">,
): string | undefined {
	const region = options?.region || env.AWS_REGION || env.AWS_DEFAULT_REGION;
	if (region) return region;
	if (options?.profile || env.AWS_PROFILE) return undefined;
	return PUBLIC_ENDPOINT.exec(model?.baseUrl ?? "")?.[1] ?? DEFAULT_BEDROCK_REGION;
}

/**
 * The SDK client for one request. Credentials are the AWS chain's (environment keys, AWS_PROFILE and the shared
 * files, SSO, web identity, container and instance roles) unless a Bedrock API key is given: `options.apiKey` (from
 * `--api-key`, auth.json or models.json) or AWS_BEARER_TOKEN_BEDROCK, which the SDK reads itself. A base URL other
 * than the public endpoint (a VPC endpoint, a proxy, models.json) replaces the endpoint. SDK retries are off.
 */
export function createBedrockClient(
	model: Model,
	options: BedrockOptions | undefined,
	fetch: Fetch,
): BedrockRuntimeClient {
	const config: BedrockRuntimeClientConfig = {
		region: resolveRegion(options, process.env, model),
		requestHandler: new GuardedFetchHandler(fetch) as unknown as BedrockRuntimeClientConfig["requestHandler"],
		maxAttempts: 1,
	};
	if (options?.profile) config.profile = options.profile;
	if (model.baseUrl && !PUBLIC_ENDPOINT.test(model.baseUrl)) config.endpoint = model.baseUrl;
	const apiKey = options?.apiKey;
	if (apiKey && apiKey !== AUTHENTICATED_PLACEHOLDER) {
		config.token = { token: apiKey };
		config.authSchemePreference = ["httpBearerAuth"];
	} else if (process.env.AWS_BEDROCK_SKIP_AUTH === "1") {
		// A proxy in front of Bedrock that holds the credentials itself.
		config.credentials = { accessKeyId: "dummy-access-key", secretAccessKey: "dummy-secret-key" };
	}
	return withoutNodeVersionWarning(() => new BedrockRuntimeClient(config));
}

const NODE_VERSION_WARNING_SWITCH = "AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED";

/**
 * The SDK warns on Node 20 (through process.emitWarning, on stderr) that its releases after January 2027 will need
 * Node 22: nothing the user can act on here, and it would write over a terminal UI. The switch is set only while
 * the client is built (the check runs in its constructor), so commands the agent runs never see it.
 */
function withoutNodeVersionWarning<T>(build: () => T): T {
	const previous = process.env[NODE_VERSION_WARNING_SWITCH];
	process.env[NODE_VERSION_WARNING_SWITCH] = "true";
	try {
		return build();
	} finally {
		if (previous === undefined) delete process.env[NODE_VERSION_WARNING_SWITCH];
		else process.env[NODE_VERSION_WARNING_SWITCH] = previous;
	}
}
