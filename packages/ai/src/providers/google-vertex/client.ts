import { GoogleGenAI, type GoogleGenAIOptions, type HttpOptions } from "@google/genai";
import { AUTHENTICATED_PLACEHOLDER } from "../../env-api-keys.js";
import type { GoogleVertexOptions, Model } from "../../types.js";
import type { Fetch } from "../reply-guard.js";

export const VERTEX_PROJECT_REQUIRED =
	"Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass project in options.";
export const VERTEX_LOCATION_REQUIRED =
	"Vertex AI requires a location. Set GOOGLE_CLOUD_LOCATION or pass location in options.";
/** Vertex's versioned REST API (the SDK's default for Vertex is v1beta1). */
const VERTEX_API_VERSION = "v1";

/** How a Vertex request authenticates: an API key (express mode), or Google credentials for a project and region. */
export type VertexAuth =
	| { kind: "apiKey"; apiKey: string }
	| { kind: "credentials"; project: string; location: string; accessToken?: GoogleVertexOptions["accessToken"] };

/**
 * The key from options or GOOGLE_CLOUD_API_KEY selects express mode. Without one, application-default credentials
 * (or the `accessToken` option) are used with a project (option, GOOGLE_CLOUD_PROJECT, GCLOUD_PROJECT) and a
 * location (option, GOOGLE_CLOUD_LOCATION). The `<authenticated>` placeholder getEnvApiKey reports for ADC is no key.
 */
export function resolveVertexAuth(
	options: GoogleVertexOptions | undefined,
	env: NodeJS.ProcessEnv = process.env,
): VertexAuth {
	const key =
		options?.apiKey && options.apiKey !== AUTHENTICATED_PLACEHOLDER ? options.apiKey : env.GOOGLE_CLOUD_API_KEY;
	if (key?.trim()) return { kind: "apiKey", apiKey: key };
	const project = options?.project || env.GOOGLE_CLOUD_PROJECT || env.GCLOUD_PROJECT;
	if (!project) throw new Error(VERTEX_PROJECT_REQUIRED);
	const location = options?.location || env.GOOGLE_CLOUD_LOCATION;
	if (!location) throw new Error(VERTEX_LOCATION_REQUIRED);
	return { kind: "credentials", project, location, accessToken: options?.accessToken };
}

/** A google-auth-library client that signs requests with a given access token. */
function accessTokenClient(accessToken: NonNullable<GoogleVertexOptions["accessToken"]>) {
	return {
		async getRequestHeaders(): Promise<Headers> {
			const token = typeof accessToken === "string" ? accessToken : await accessToken();
			return new Headers({ authorization: `Bearer ${token}` });
		},
	};
}

/**
 * The catalog's base URL is a template (`https://{location}-aiplatform.googleapis.com`): the SDK derives the real
 * endpoint from the location (regional, `global` or multi-regional) or uses the express-mode endpoint for an API
 * key. Any other base URL (a proxy, a private endpoint, models.json) replaces the SDK's host; the path below it
 * (`/v1/projects/<p>/locations/<l>/publishers/google/models/<id>:streamGenerateContent`) stays the SDK's.
 */
function customBaseUrl(model: Model): string | undefined {
	return model.baseUrl && !model.baseUrl.includes("{location}") ? model.baseUrl : undefined;
}

/**
 * One client per request, carrying the reply's guarded fetch (reply-guard.ts) for the model call; the token
 * exchange of application-default credentials goes to Google's token endpoint through google-auth-library.
 * No `retryOptions`: the SDK makes exactly one attempt.
 */
export function createVertexClient(
	model: Model,
	auth: VertexAuth,
	headers: Record<string, string>,
	fetch: Fetch,
): GoogleGenAI {
	const httpOptions: HttpOptions = { fetch };
	const baseUrl = customBaseUrl(model);
	if (baseUrl) httpOptions.baseUrl = baseUrl;
	if (Object.keys(headers).length > 0) httpOptions.headers = headers;
	const options: GoogleGenAIOptions = { vertexai: true, apiVersion: VERTEX_API_VERSION, httpOptions };
	if (auth.kind === "apiKey") {
		options.apiKey = auth.apiKey;
	} else {
		options.project = auth.project;
		options.location = auth.location;
		if (auth.accessToken) {
			options.googleAuthOptions = {
				authClient: accessTokenClient(auth.accessToken) as unknown as NonNullable<
					GoogleGenAIOptions["googleAuthOptions"]
				>["authClient"],
			};
		}
	}
	return new GoogleGenAI(options);
}
