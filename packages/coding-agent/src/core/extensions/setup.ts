// Loading a session's extensions in one call (what the CLI and embedders use): the paths the
// resource loader discovered, filtered by project trust, loaded into one runtime, wrapped in a runner whose
// `/reload` repeats the same steps. Providers registered while loading reach the model registry before the
// caller resolves the model.
import type { ModelRegistry } from "../config/model-registry.js";
import { isProjectTrusted } from "../config/project-trust.js";
import type { ResourceLoader } from "../resources/resource-loader.js";
import { failedToLoadText, type LoadExtensionsOptions, type LoadExtensionsResult, loadExtensions } from "./loader.js";
import { ExtensionRunner } from "./runner.js";
import type { ExtensionRuntime } from "./runtime.js";
import { extensionPathsToLoad, untrustedProjectNotice } from "./trust.js";

const FAILED_TO_LOAD_PREFIX = failedToLoadText("");

import type { EventBus, ExtensionFactory, ExtensionLoadError } from "./types.js";

/**
 * The startup line for a failed extension. The error itself usually reads "Failed to load
 * extension: <message>" (docs/extensions.md "Loading"); printed after the line's own prefix that would say it twice.
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
	/**
	 * Whether the project's own extensions may load, asked at start and at every `/reload` (see trust.ts,
	 * `resolveProjectTrust`). Default: the remembered decision for `cwd`.
	 */
	isProjectTrusted?: () => boolean;
	/** Compile cache directory, or false. Default `<agentDir>/cache/extensions`. */
	cacheDir?: string | false;
	/** The `pi.events` bus of the extensions (SDK `DefaultResourceLoader({eventBus})`). */
	eventBus?: EventBus;
	/** Rewrites each load's result, at start and at `/reload` (SDK `DefaultResourceLoader({extensionsOverride})`). */
	override?: (base: LoadExtensionsResult) => LoadExtensionsResult;
	/** Told each load's result (`DefaultResourceLoader.getExtensions()`). */
	onLoaded?: (result: LoadExtensionsResult) => void;
}

export interface SetupExtensionsResult {
	runner: ExtensionRunner;
	/** Load failures and name conflicts, for the caller to print (`extensionLoadFailureText`). */
	errors: ExtensionLoadError[];
	/** Project extensions left out because the project is not trusted. */
	skippedProjectExtensions: string[];
}

export async function setupExtensions(options: SetupExtensionsOptions): Promise<SetupExtensionsResult> {
	const loadOptions = (runtime?: ExtensionRuntime): LoadExtensionsOptions => ({
		cwd: options.cwd,
		agentDir: options.agentDir,
		...(options.factories ? { factories: options.factories } : {}),
		...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
		...(runtime ? { runtime } : {}),
		...(options.eventBus ? { eventBus: options.eventBus } : {}),
	});
	const finish = (base: LoadExtensionsResult): LoadExtensionsResult => {
		const result = options.override ? options.override(base) : base;
		options.onLoaded?.(result);
		return result;
	};
	const projectTrusted = options.isProjectTrusted ?? (() => isProjectTrusted(options.cwd, options.agentDir));
	const choose = () => {
		const found = options.resourceLoader.getExtensionPaths().extensions;
		const allowed = extensionPathsToLoad(found, projectTrusted());
		return { allowed, skipped: found.map((extension) => extension.path).filter((path) => !allowed.includes(path)) };
	};
	const first = choose();
	const loaded = finish(await loadExtensions(first.allowed, loadOptions()));
	const runner: ExtensionRunner = new ExtensionRunner(loaded, {
		cwd: options.cwd,
		modelRegistry: options.modelRegistry,
		...(options.builtInCommandNames ? { builtInCommandNames: options.builtInCommandNames } : {}),
		reload: async (runtime) => {
			// The session reloaded the resource loader first, so newly added extensions are found; the trust decision
			// of the start stands (nobody is asked again), and new project extensions of an untrusted project are named.
			const again = choose();
			if (again.skipped.length > 0) {
				runner.emitError({
					extensionPath: again.skipped.join(", "),
					event: "load",
					error: untrustedProjectNotice(
						options.cwd,
						{ settings: [], extensions: again.skipped, files: [], mcpServers: [] },
						options.agentDir,
					),
				});
			}
			return finish(await loadExtensions(again.allowed, loadOptions(runtime)));
		},
	});
	return { runner, errors: runner.getLoadErrors(), skippedProjectExtensions: first.skipped };
}
