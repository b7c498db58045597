// The environment of commands the agent runs (the bash tool, the user's `!cmd`). Ours: the reference passed
// the agent's whole environment, so a model (or a prompt injection in a file it read) could print the
// provider keys with `env`. Provider keys are removed unless the user lists them in `shellEnvPassthrough`.
import { PROVIDER_KEY_ENV_VARS } from "@agent/ai";
import { getShellEnv } from "./shell.js";

/** Model- and user-facing: said once per session and channel when a command's environment lost keys. */
export function providerKeysRemovedNotice(names: readonly string[]): string {
	return `Note: provider keys were removed from this command's environment (${names.join(", ")}); list variables in shellEnvPassthrough in settings.json to pass them.`;
}

export interface ShellEnvironmentOptions {
	/**
	 * Names to remove besides @agent/ai's provider-key variables, e.g. the variables models.json `apiKey`s and
	 * headers name. Asked for every command, so a reloaded models.json applies at once.
	 */
	extraKeyNames?: () => Iterable<string>;
	/** Settings `shellEnvPassthrough`: variables kept although they hold keys. Asked for every command. */
	passthrough?: () => readonly string[];
	/** The environment to start from. Default `process.env`. */
	baseEnv?: () => NodeJS.ProcessEnv;
}

/** Who reads a command's result: the model (bash tool) or the user (`!cmd`); each is told once. */
export type ShellEnvironmentAudience = "model" | "user";

// Environment variable names are case-insensitive on Windows.
const normalizeName = process.platform === "win32" ? (name: string) => name.toUpperCase() : (name: string) => name;

/**
 * Builds each command's environment (`getShellEnv` of the base, provider keys removed) and remembers whether
 * the notice about removed keys was given. One per session, shared by its bash tool and `!cmd`.
 */
export class ShellEnvironment {
	private readonly told = new Set<ShellEnvironmentAudience>();

	constructor(private readonly options: ShellEnvironmentOptions = {}) {}

	/** The environment for one command and the names removed from it (sorted), which had non-empty values. */
	build(): { env: NodeJS.ProcessEnv; removed: string[] } {
		const keyNames = new Set(
			[...PROVIDER_KEY_ENV_VARS, ...(this.options.extraKeyNames?.() ?? [])].map(normalizeName),
		);
		const kept = new Set((this.options.passthrough?.() ?? []).map(normalizeName));
		const env: NodeJS.ProcessEnv = {};
		const removed: string[] = [];
		for (const [name, value] of Object.entries(this.options.baseEnv?.() ?? process.env)) {
			const normalized = normalizeName(name);
			if (keyNames.has(normalized) && !kept.has(normalized)) {
				if (value) removed.push(name);
				continue;
			}
			env[name] = value;
		}
		return { env: getShellEnv(env), removed: removed.sort() };
	}

	/** The notice for `removed`, the first time keys were removed for this audience; afterwards undefined. */
	takeNotice(audience: ShellEnvironmentAudience, removed: readonly string[]): string | undefined {
		if (removed.length === 0 || this.told.has(audience)) return undefined;
		this.told.add(audience);
		return providerKeysRemovedNotice(removed);
	}
}
