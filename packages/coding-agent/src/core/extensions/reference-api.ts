// Functions of the reference's extension API that embedders call directly (`createExtensionRuntime`,
// `discoverAndLoadExtensions`, `loadExtensionFromFactory`, `wrapRegisteredTool(s)`), with its signatures, over
// our loader and runner.
import { join } from "node:path";
import type { AgentTool } from "@agent/agent-core";
import { getAgentDir, getProjectConfigDir } from "../config/paths.js";
import { isProjectTrusted } from "../config/project-trust.js";
import type { ResourceDiagnostic } from "../resources/diagnostics.js";
import { collectExtensionEntries } from "../resources/extension-discovery.js";
import { createEmptyExtension, createExtensionAPI } from "./api.js";
import { failedToLoadText, type LoadExtensionsResult, loadExtensions, resolveExtensionPath } from "./loader.js";
import type { ExtensionRunner } from "./runner.js";
import { ExtensionRuntime } from "./runtime.js";
import { wrapToolDefinition } from "./tool-wrapper.js";
import type { EventBus, Extension, ExtensionFactory, RegisteredTool } from "./types.js";

/** A runtime for extensions that are loaded by hand; action methods throw until a session binds it. */
export function createExtensionRuntime(): ExtensionRuntime {
	return new ExtensionRuntime();
}

/** Runs one factory as an extension (at `extensionPath`, default `<inline>`) on `runtime`. */
export async function loadExtensionFromFactory(
	factory: ExtensionFactory,
	cwd: string,
	eventBus: EventBus,
	runtime: ExtensionRuntime,
	extensionPath = "<inline>",
): Promise<Extension> {
	void cwd;
	void eventBus; // the runtime carries its bus (`pi.events`)
	const extension = createEmptyExtension(extensionPath, extensionPath);
	try {
		await factory(createExtensionAPI(extension, runtime));
	} catch (error) {
		throw new Error(failedToLoadText(error instanceof Error ? error.message : String(error)));
	}
	return extension;
}

/**
 * Loads `configuredPaths`, then the extensions in `<cwd>/.agent/extensions/` and `<agentDir>/extensions/`
 * (docs/extensions.md "Where extensions come from"). Ours differs: the project's own directory is included only when the user trusted the
 * project, as everywhere else the agent loads code of a project.
 */
export async function discoverAndLoadExtensions(
	configuredPaths: string[],
	cwd: string,
	agentDir: string = getAgentDir(),
	eventBus?: EventBus,
): Promise<LoadExtensionsResult> {
	const diagnostics: ResourceDiagnostic[] = [];
	const paths = configuredPaths.map((path) => resolveExtensionPath(path, cwd));
	if (isProjectTrusted(cwd, agentDir)) {
		paths.push(...collectExtensionEntries(join(getProjectConfigDir(cwd), "extensions"), diagnostics));
	}
	paths.push(...collectExtensionEntries(join(agentDir, "extensions"), diagnostics));
	return loadExtensions(paths, { cwd, agentDir, ...(eventBus ? { eventBus } : {}) });
}

/** An extension's registered tool as the agent runs it (its `execute` gets the runner's context). */
export function wrapRegisteredTool(registeredTool: RegisteredTool, runner: ExtensionRunner): AgentTool {
	return wrapToolDefinition(registeredTool.definition, () => runner.createContext());
}

export function wrapRegisteredTools(registeredTools: RegisteredTool[], runner: ExtensionRunner): AgentTool[] {
	return registeredTools.map((tool) => wrapRegisteredTool(tool, runner));
}
