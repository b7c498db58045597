// What a run without credentials for its provider tells the user, in every mode (print, terminal UI, RPC, ACP):
// the reference's first line (clients match on "No API key found"), then each way to give the provider a key.
import { join } from "node:path";
import { describeProviderCredentials, getOAuthProvider } from "@agent/ai";
import { APP_NAME } from "../../config.js";

export interface MissingKeyContext {
	/** The installed docs directory; the text points at its providers.md. */
	docsPath: string;
	/** The models.json this run reads, when it reads one. */
	modelsJsonPath?: string;
}

/**
 * `No API key found for <provider>.`, then the environment variables (the cloud providers' combinations), the
 * `--api-key` flag, signing in (for the subscription providers: `/login <provider>` or `agent login <provider>`)
 * and a models.json `apiKey`.
 */
export function missingApiKeyText(provider: string, context: MissingKeyContext): string {
	const variables = describeProviderCredentials(provider);
	const login = getOAuthProvider(provider);
	const ways = [
		...(login
			? [`sign in to ${login.name}: /login ${provider} in the interactive mode, or ${APP_NAME} login ${provider}`]
			: []),
		...(variables ? [`set ${variables}`] : []),
		"pass --api-key <key> on the command line (this run only)",
		`add an "apiKey" for "${provider}" to ${context.modelsJsonPath ?? "models.json"}`,
	];
	return [
		`No API key found for ${provider}.`,
		"",
		`To use ${provider}, do one of these:`,
		...ways.map((way) => `  - ${way}`),
		`See ${join(context.docsPath, "providers.md")}`,
	].join("\n");
}
