// What a run without credentials for its provider tells the user, in every mode (print, terminal UI, RPC, ACP):
// the reference's first line (clients match on "No API key found"), then each way to give the provider a key.
import { join } from "node:path";
import { describeProviderCredentials } from "@agent/ai";

export interface MissingKeyContext {
	/** The installed docs directory; the text points at its providers.md. */
	docsPath: string;
	/** The models.json this run reads, when it reads one. */
	modelsJsonPath?: string;
}

/**
 * `No API key found for <provider>.`, then the environment variables (the cloud providers' combinations), the
 * `--api-key` flag, `/login` (the interactive mode's credential setup) and a models.json `apiKey`.
 */
export function missingApiKeyText(provider: string, context: MissingKeyContext): string {
	const variables = describeProviderCredentials(provider);
	const ways = [
		...(variables ? [`set ${variables}`] : []),
		"pass --api-key <key> on the command line (this run only)",
		"run /login in the interactive mode",
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
