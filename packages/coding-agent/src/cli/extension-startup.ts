// Loading extensions at startup : their flags make the second argument pass, their load
// failures go to stderr. The loader (and jiti) is imported only when there is something to load.
import type { ModelRegistry } from "../core/config/model-registry.js";
import type { ExtensionRunner } from "../core/extensions/runner.js";
import type { ResourceLoader } from "../core/resources/resource-loader.js";
import type { ExtensionFlagDefinition } from "./args.js";
import type { CliIo } from "./help.js";

export interface CliExtensions {
	/** Undefined when no extension was found: the session runs without hooks. */
	runner?: ExtensionRunner;
	/** Flags the loaded extensions registered, for the second argument pass. */
	flags: Map<string, ExtensionFlagDefinition>;
}

export interface LoadCliExtensionsOptions {
	cwd: string;
	agentDir: string;
	resourceLoader: ResourceLoader;
	modelRegistry: ModelRegistry;
	/** The project trust decision (`resolveProjectTrust`): the project's own extensions load only when trusted. */
	isProjectTrusted: () => boolean;
	/**
	 * Interactive start: extension commands named like the interactive mode's own slash commands are skipped
	 * and reported (docs/extensions.md "Commands, shortcuts, flags, message renderers"); other modes have no built-in commands to collide with.
	 */
	hasBuiltInCommands: boolean;
	io: CliIo;
}

export async function loadCliExtensions(options: LoadCliExtensionsOptions): Promise<CliExtensions> {
	if (options.resourceLoader.getExtensionPaths().extensions.length === 0) return { flags: new Map() };
	const [{ extensionLoadFailureText, setupExtensions }, { BUILTIN_SLASH_COMMAND_NAMES }] = await Promise.all([
		import("../core/extensions/setup.js"),
		import("../core/extensions/registrations.js"),
	]);
	const result = await setupExtensions({
		cwd: options.cwd,
		agentDir: options.agentDir,
		resourceLoader: options.resourceLoader,
		modelRegistry: options.modelRegistry,
		isProjectTrusted: options.isProjectTrusted,
		...(options.hasBuiltInCommands ? { builtInCommandNames: BUILTIN_SLASH_COMMAND_NAMES } : {}),
	});
	for (const error of result.errors) options.io.stderr.write(`${extensionLoadFailureText(error)}\n`);
	const flags = new Map<string, ExtensionFlagDefinition>();
	for (const [name, flag] of result.runner.getFlags()) flags.set(name, { type: flag.type });
	return { runner: result.runner, flags };
}
