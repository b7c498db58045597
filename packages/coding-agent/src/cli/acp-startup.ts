// `--mode acp`: no session is made at startup. The editor asks for sessions (`session/new` with its cwd),
// and each gets the command line's flags as defaults; stdin is the protocol, never a prompt.

import { VERSION } from "../config.js";
import type { AuthStorage } from "../core/config/auth-storage.js";
import type { ModelRegistry } from "../core/config/model-registry.js";
import { findInitialModel, resolveModelScope } from "../core/config/model-resolver.js";
import { getAuthPath, getModelsPath } from "../core/config/paths.js";
import type { SettingsManager } from "../core/config/settings-manager.js";
import type { DefaultResourceLoaderOptions } from "../core/resources/resource-loader.js";
import { type Args, permissionsOf } from "./args.js";
import { type CliIo, EXIT_FAILURE } from "./help.js";
import { watchTurns } from "./young-generation.js";

export const FILES_IN_ACP_MODE_TEXT = "@file arguments are not supported in ACP mode";
export const MESSAGES_IN_ACP_MODE_TEXT =
	"Messages on the command line are not supported in ACP mode: the editor sends the prompts";

/** The resource flags of the command line, as resource loader options (the same for every cwd). */
export function resourceFlagOptions(
	args: Args,
): Omit<DefaultResourceLoaderOptions, "cwd" | "agentDir" | "settingsManager"> {
	return {
		additionalExtensionPaths: args.extensions,
		additionalSkillPaths: args.skills,
		additionalPromptTemplatePaths: args.promptTemplates,
		additionalThemePaths: args.themes,
		noExtensions: args.noExtensions,
		noSkills: args.noSkills,
		noPromptTemplates: args.noPromptTemplates,
		noThemes: args.noThemes,
		...(args.systemPrompt !== undefined ? { systemPrompt: args.systemPrompt } : {}),
		...(args.appendSystemPrompt !== undefined ? { appendSystemPrompt: args.appendSystemPrompt } : {}),
	};
}

export interface AcpStartupOptions {
	args: Args;
	agentDir: string;
	settingsManager: SettingsManager;
	authStorage: AuthStorage;
	modelRegistry: ModelRegistry;
	io: CliIo;
}

function fail(io: CliIo, message: string): number {
	io.stderr.write(`Error: ${message}\n`);
	return EXIT_FAILURE;
}

export async function startAcpMode(options: AcpStartupOptions): Promise<number> {
	const { args, agentDir, modelRegistry, io } = options;
	if (args.fileArgs.length > 0) return fail(io, FILES_IN_ACP_MODE_TEXT);
	if (args.messages.length > 0) return fail(io, MESSAGES_IN_ACP_MODE_TEXT);
	if (args.resume || args.continue || args.session !== undefined) {
		return fail(io, "--continue, --resume and --session do not apply in ACP mode: the editor loads sessions");
	}

	if (args.apiKey !== undefined) {
		// As in the other modes: the key is for the provider of the model the command line names.
		const scopePatterns = args.models ?? options.settingsManager.getEnabledModels() ?? [];
		const scopedModels = resolveModelScope(scopePatterns, modelRegistry.getAvailable()).scopedModels;
		if (args.model === undefined && scopedModels.length === 0) {
			return fail(io, "--api-key requires a model to be specified via --model, --provider/--model, or --models");
		}
		const initial = findInitialModel(modelRegistry, {
			...(args.provider !== undefined ? { cliProvider: args.provider } : {}),
			...(args.model !== undefined ? { cliModel: args.model } : {}),
			scopedModels,
		});
		if (initial.error) return fail(io, initial.error);
		if (initial.model) options.authStorage.setRuntimeApiKey(initial.model.provider, args.apiKey);
	}

	const { runAcpMode } = await import("../modes/acp/acp-mode.js");
	return runAcpMode({
		version: VERSION,
		authPaths: { authPath: getAuthPath(agentDir), modelsPath: getModelsPath(agentDir) },
		defaults: {
			agentDir,
			modelRegistry,
			resourceOptions: resourceFlagOptions(args),
			...(args.provider !== undefined ? { provider: args.provider } : {}),
			...(args.model !== undefined ? { model: args.model } : {}),
			...(args.thinking !== undefined ? { thinkingLevel: args.thinking } : {}),
			...(args.models !== undefined ? { modelScope: args.models } : {}),
			...(args.tools !== undefined || args.noTools ? { tools: [...(args.tools ?? [])] } : {}),
			trustProject: args.trustProject,
			...(args.sessionDir !== undefined ? { sessionDir: args.sessionDir } : {}),
			persistSessions: !args.noSession,
			extensionFlagValues: args.extensionFlagValues,
			permissions: permissionsOf(args),
			onSession: watchTurns,
		},
	});
}
