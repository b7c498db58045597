// Loading a session's extensions in one call (cli.md §4 step 4; what the CLI and embedders use): the paths the
// resource loader discovered, filtered by project trust, loaded into one runtime, wrapped in a runner whose
// `/reload` repeats the same steps. Providers registered while loading reach the model registry before the
// caller resolves the model.
import type { ModelRegistry } from "../config/model-registry.js";
import type { ResourceLoader } from "../resources/resource-loader.js";
import { failedToLoadText, type LoadExtensionsOptions, loadExtensions } from "./loader.js";
import { ExtensionRunner } from "./runner.js";
import type { ExtensionRuntime } from "./runtime.js";
import { decideProjectTrust, type ProjectTrustDecision } from "./trust.js";

const FAILED_TO_LOAD_PREFIX = failedToLoadText("");

import type { ExtensionFactory, ExtensionLoadError } from "./types.js";

/**
 * The startup line for a failed extension (cli.md §4). The error itself usually reads "Failed to load
 * extension: <message>" (extensions.md §1); printed after the line's own prefix that would say it twice.
 */
export function extensionLoadFailureText(error: ExtensionLoadError): string {
	const message = error.error.startsWith(FAILED_TO_LOAD_PREFIX)
		? error.error.slice(FAILED_TO_LOAD_PREFIX.length)
		: error.error;
	return `Failed to load extension "${error.path}": ${message}`;
}

export interface SetupExtensionsOptions {
	cwd: string;
	agentDir: string;
	/** Already loaded: its `getExtensionPaths()` says what to load (`-e`, packages, settings, discovery). */
	resourceLoader: ResourceLoader;
	modelRegistry: ModelRegistry;
	/** SDK factories, loaded after the discovered modules. */
	factories?: readonly ExtensionFactory[];
	/** See `ExtensionRunnerOptions.builtInCommandNames` (the interactive mode's slash commands). */
	builtInCommandNames?: readonly string[];
	/** `--trust-project`. */
	trustProject?: boolean;
	/** Interactive start: ask whether to trust the project (see `promptProjectTrust`). */
	promptTrust?: (files: readonly string[]) => Promise<boolean>;
	/** Compile cache directory, or false. Default `<agentDir>/cache/extensions`. */
	cacheDir?: string | false;
}

export interface SetupExtensionsResult {
	runner: ExtensionRunner;
	/** Load failures and name conflicts, for the caller to print (`extensionLoadFailureText`). */
	errors: ExtensionLoadError[];
	trust: ProjectTrustDecision;
}

export async function setupExtensions(options: SetupExtensionsOptions): Promise<SetupExtensionsResult> {
	const loadOptions = (runtime?: ExtensionRuntime): LoadExtensionsOptions => ({
		cwd: options.cwd,
		agentDir: options.agentDir,
		...(options.factories ? { factories: options.factories } : {}),
		...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
		...(runtime ? { runtime } : {}),
	});
	const trust = await decideProjectTrust({
		cwd: options.cwd,
		agentDir: options.agentDir,
		extensions: options.resourceLoader.getExtensionPaths().extensions,
		...(options.trustProject ? { trustProjectFlag: true } : {}),
		...(options.promptTrust ? { prompt: options.promptTrust } : {}),
	});
	const loaded = await loadExtensions(trust.allowed, loadOptions());
	const runner: ExtensionRunner = new ExtensionRunner(loaded, {
		cwd: options.cwd,
		modelRegistry: options.modelRegistry,
		...(options.builtInCommandNames ? { builtInCommandNames: options.builtInCommandNames } : {}),
		reload: async (runtime) => {
			// The session reloaded the resource loader first, so newly added extensions are found; trust was
			// decided at startup (and remembered when given), so nobody is asked again.
			const again = await decideProjectTrust({
				cwd: options.cwd,
				agentDir: options.agentDir,
				extensions: options.resourceLoader.getExtensionPaths().extensions,
			});
			if (again.notice)
				runner.emitError({ extensionPath: again.skipped.join(", "), event: "load", error: again.notice });
			return loadExtensions(again.allowed, loadOptions(runtime));
		},
	});
	return { runner, errors: runner.getLoadErrors(), trust };
}
