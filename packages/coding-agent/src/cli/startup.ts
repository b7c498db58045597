// The startup sequence (cli.md §4) after the arguments were checked: configuration, resources, the second
// argument pass, one-shot commands, input, the session, the model, then the chosen mode (loaded on demand, so
// print and RPC runs never load the terminal UI).
import type { ImageContent } from "@agent/ai";
import { PROVIDER_ENV_VARS } from "@agent/ai";
import { migrateLegacyCredentials } from "../core/config/auth-migration.js";
import { AuthStorage } from "../core/config/auth-storage.js";
import { ModelRegistry } from "../core/config/model-registry.js";
import { findInitialModel, resolveModelScope, type ScopedModel } from "../core/config/model-resolver.js";
import { getAgentDir, getAuthPath, getModelsPath } from "../core/config/paths.js";
import { SettingsManager } from "../core/config/settings-manager.js";
import { formatSettingsWarning } from "../core/config/settings-store.js";
import { createRpcUIContext } from "../core/extensions/rpc-ui-context.js";
import { extensionLoadFailureText, setupExtensions } from "../core/extensions/setup.js";
import { promptProjectTrust } from "../core/extensions/trust.js";
import { DefaultResourceLoader } from "../core/resources/resource-loader.js";
import { createAgentSession } from "../core/sdk.js";
import type { Args, ExtensionFlagDefinition } from "./args.js";
import { parseArgs, TOOL_NAMES } from "./args.js";
import { runExportCommand } from "./export-command.js";
import { FileArgumentError, processFileArguments } from "./file-arguments.js";
import { type CliIo, EXIT_FAILURE, EXIT_SUCCESS, formatUsageErrors } from "./help.js";
import { formatModelList } from "./list-models.js";
import { askYesNo } from "./prompt-question.js";
import { selectSession } from "./session-selection.js";
import { formatMissingKeyHint, formatNoModelsHelp } from "./setup-hints.js";
import { readPipedStdin } from "./stdin.js";

export type RunMode = "interactive" | "text" | "json" | "rpc";

const API_KEY_WITHOUT_MODEL_TEXT =
	"--api-key requires a model to be specified via --model, --provider/--model, or --models";
const FILES_IN_RPC_MODE_TEXT = "@file arguments are not supported in RPC mode";
const NO_PROMPT_TEXT = 'No prompt given. Pass a message (agent -p "…"), an @file, or pipe text on stdin.';

/** cli.md §3/§5: an explicit mode wins; -p or piped input means print; a terminal on both ends means the UI. */
export function chooseRunMode(
	args: Pick<Args, "mode" | "print">,
	hasStdinPrompt: boolean,
	terminals: { stdin: boolean; stdout: boolean },
): RunMode {
	if (args.mode === "rpc") return "rpc";
	if (args.mode === "json") return "json";
	if (args.mode === "text" || args.print || hasStdinPrompt) return "text";
	// Output to a pipe or a file, or input that is not a keyboard: no UI can run, so print.
	if (!terminals.stdout || !terminals.stdin) return "text";
	return "interactive";
}

/** The flags extensions registered, for the second argument pass. */
function extensionFlagsOf(
	flags: ReadonlyMap<string, { type: "boolean" | "string" }>,
): Map<string, ExtensionFlagDefinition> {
	return new Map([...flags].map(([name, flag]) => [name, { type: flag.type }]));
}

function warn(io: CliIo, lines: readonly string[]): void {
	for (const line of lines) io.stderr.write(`${line}\n`);
}

export async function runStartup(argv: readonly string[], io: CliIo): Promise<number> {
	const cwd = process.cwd();
	const agentDir = getAgentDir();

	// First pass (cli.md §2): what loading resources and extensions needs. Flags nobody knows yet may be
	// extensions'; they are judged in the second pass.
	const firstPass = parseArgs(argv);

	try {
		const migrated = migrateLegacyCredentials(agentDir);
		if (migrated.providers.length > 0)
			warn(io, [`Moved credentials of ${migrated.providers.join(", ")} into ${getAuthPath(agentDir)}`]);
	} catch (error) {
		warn(io, [`Warning: could not migrate legacy credentials: ${(error as Error).message}`]);
	}

	const settingsManager = SettingsManager.create(cwd, agentDir);
	warn(
		io,
		settingsManager.drainErrors().map((error) => formatSettingsWarning(error)),
	);
	const authStorage = AuthStorage.create(getAuthPath(agentDir));
	const modelRegistry = new ModelRegistry(authStorage, getModelsPath(agentDir));
	const modelsError = modelRegistry.getError();
	if (modelsError) warn(io, [`Warning: ${modelsError}`]);

	const resourceLoader = new DefaultResourceLoader({
		cwd,
		agentDir,
		settingsManager,
		additionalExtensionPaths: firstPass.extensions,
		additionalSkillPaths: firstPass.skills,
		additionalPromptTemplatePaths: firstPass.promptTemplates,
		additionalThemePaths: firstPass.themes,
		noExtensions: firstPass.noExtensions,
		noSkills: firstPass.noSkills,
		noPromptTemplates: firstPass.noPromptTemplates,
		noThemes: firstPass.noThemes,
		...(firstPass.systemPrompt !== undefined ? { systemPrompt: firstPass.systemPrompt } : {}),
		...(firstPass.appendSystemPrompt !== undefined ? { appendSystemPrompt: firstPass.appendSystemPrompt } : {}),
	});
	await resourceLoader.reload();

	// Extensions (extensions.md §1): a project's own extensions wait for trust; an interactive start asks.
	const asksTrust =
		chooseRunMode(firstPass, firstPass.readStdin, {
			stdin: process.stdin.isTTY === true,
			stdout: process.stdout.isTTY === true,
		}) === "interactive";
	const extensions = await setupExtensions({
		cwd,
		agentDir,
		resourceLoader,
		modelRegistry,
		trustProject: firstPass.trustProject,
		...(asksTrust
			? { promptTrust: (files) => promptProjectTrust({ input: process.stdin, output: io.stderr, cwd, files }) }
			: {}),
	});
	warn(
		io,
		extensions.errors.map((error) => extensionLoadFailureText(error)),
	);
	if (extensions.trust.notice) warn(io, [extensions.trust.notice]);
	const runner = extensions.runner;

	// Second pass: flags of loaded extensions are known now; anything still unknown is a mistake, reported
	// before any model call.
	const args = parseArgs(argv, { extensionFlags: extensionFlagsOf(runner.getFlags()) });
	if (args.errors.length > 0 || args.unknownFlags.length > 0) {
		io.stderr.write(formatUsageErrors(args));
		return EXIT_FAILURE;
	}
	runner.setFlagValues(args.extensionFlagValues);

	if (args.listModels !== undefined) {
		const search = args.listModels === true ? undefined : args.listModels;
		io.stdout.write(formatModelList(modelRegistry.getAvailable(), search));
		return EXIT_SUCCESS;
	}

	if (args.export !== undefined) return runExportCommand(args.export, args.messages[0], { cwd, io });

	if (args.mode === "rpc" && args.fileArgs.length > 0) {
		io.stderr.write(`Error: ${FILES_IN_RPC_MODE_TEXT}\n`);
		return EXIT_FAILURE;
	}

	const stdinPrompt = args.mode === "rpc" ? undefined : await readPipedStdin(process.stdin, args.readStdin);
	const mode = chooseRunMode(args, stdinPrompt !== undefined, {
		stdin: process.stdin.isTTY === true,
		stdout: process.stdout.isTTY === true,
	});
	if (args.resume && mode !== "interactive") {
		io.stderr.write(
			"Error: --resume needs the interactive session picker. Use --continue, or --session <file or id>.\n",
		);
		return EXIT_FAILURE;
	}

	let initialMessage: string | undefined;
	let initialImages: ImageContent[] = [];
	let messages = [...args.messages];
	if (args.fileArgs.length > 0) {
		try {
			const files = await processFileArguments(args.fileArgs, {
				cwd,
				autoResizeImages: settingsManager.getImageAutoResize(),
			});
			initialImages = files.images;
			// File text is prefixed to the first message: the stdin content if any, else the first positional one.
			const first = stdinPrompt ?? messages.shift() ?? "";
			initialMessage = files.text + first;
		} catch (error) {
			if (error instanceof FileArgumentError) {
				io.stderr.write(`Error: ${error.message}\n`);
				return EXIT_FAILURE;
			}
			throw error;
		}
	} else if (stdinPrompt !== undefined) {
		initialMessage = stdinPrompt;
	}
	if (mode === "rpc") messages = [];

	if (mode !== "interactive" || args.verbose) {
		warn(
			io,
			resourceLoader
				.getDiagnostics()
				.filter((diagnostic) => diagnostic.type === "error" || diagnostic.type === "warning")
				.map((diagnostic) => `Warning: ${diagnostic.message} (${diagnostic.path})`),
		);
	}

	let scopedModels: ScopedModel[] = [];
	const scopePatterns = args.models ?? settingsManager.getEnabledModels();
	if (scopePatterns && scopePatterns.length > 0) {
		const scope = resolveModelScope(scopePatterns, modelRegistry.getAvailable());
		warn(io, scope.warnings);
		scopedModels = scope.scopedModels;
	}

	const selected = await selectSession(args, {
		cwd,
		agentDir,
		...(process.stdin.isTTY && mode !== "rpc" ? { askToFork: (question: string) => askYesNo(question) } : {}),
	});
	if (selected.kind === "exit") {
		(selected.toStdout ? io.stdout : io.stderr).write(`${selected.message}\n`);
		return selected.exitCode;
	}
	const sessionManager = selected.sessionManager;

	const hasEntries = sessionManager.getEntries().length > 0;
	const initial = findInitialModel(modelRegistry, {
		...(args.provider !== undefined ? { cliProvider: args.provider } : {}),
		...(args.model !== undefined ? { cliModel: args.model } : {}),
		scopedModels,
		isContinuing: args.continue || args.resume,
		sessionModel: hasEntries ? sessionManager.buildSessionContext().model : null,
		defaultProvider: settingsManager.getDefaultProvider(),
		defaultModelId: settingsManager.getDefaultModel(),
	});
	if (initial.error) {
		sessionManager.close();
		io.stderr.write(`Error: ${initial.error}\n`);
		return EXIT_FAILURE;
	}
	warn(io, initial.warnings);

	if (args.apiKey !== undefined) {
		if (args.model === undefined && scopedModels.length === 0) {
			sessionManager.close();
			io.stderr.write(`Error: ${API_KEY_WITHOUT_MODEL_TEXT}\n`);
			return EXIT_FAILURE;
		}
		if (initial.model) authStorage.setRuntimeApiKey(initial.model.provider, args.apiKey);
	}

	if (!initial.model && mode !== "interactive") {
		sessionManager.close();
		io.stderr.write(formatNoModelsHelp(agentDir));
		return EXIT_FAILURE;
	}
	if (mode === "text" && initialMessage === undefined && messages.length === 0 && !hasEntries) {
		sessionManager.close();
		io.stderr.write(`Error: ${NO_PROMPT_TEXT}\n`);
		return EXIT_FAILURE;
	}

	const thinkingLevel = args.thinking ?? initial.thinkingLevel;
	const { session, modelFallbackMessage } = await createAgentSession({
		cwd,
		agentDir,
		sessionManager,
		settingsManager,
		modelRegistry,
		resourceLoader,
		hooks: runner,
		...(initial.model ? { model: initial.model } : {}),
		...(thinkingLevel ? { thinkingLevel } : {}),
		...(scopedModels.length > 0 ? { scopedModels } : {}),
	});

	// Modes report `extension_error` events (path, event, message); the stack goes to stderr after them.
	if (mode !== "interactive") runner.onError((error) => error.stack && io.stderr.write(`${error.stack}\n`));

	if (args.tools !== undefined || args.noTools) {
		const builtIns: readonly string[] = TOOL_NAMES;
		const others = session.getActiveToolNames().filter((name) => !builtIns.includes(name));
		session.setActiveToolsByName([...(args.tools ?? []), ...others]);
	}

	const describeFailure = (message: string) => {
		const match = /^No API key found for (\S+?)\./.exec(message);
		if (!match) return undefined;
		const provider = match[1] as string;
		return formatMissingKeyHint(provider, PROVIDER_ENV_VARS[provider]);
	};

	switch (mode) {
		case "rpc": {
			const { runRpcMode } = await import("../modes/rpc/rpc-mode.js");
			return runRpcMode(session, {
				onUiBridge: (bridge) => runner.setUIContext(createRpcUIContext(bridge), true),
			});
		}
		case "text":
		case "json": {
			const { runPrintMode } = await import("../modes/print/print-mode.js");
			return runPrintMode(session, {
				output: mode,
				...(initialMessage !== undefined ? { initialMessage } : {}),
				...(initialImages.length > 0 ? { initialImages } : {}),
				messages,
				describeFailure,
			});
		}
		case "interactive": {
			const { runInteractiveMode } = await import("../modes/interactive/interactive-mode.js");
			return runInteractiveMode(session, {
				...(initialMessage !== undefined ? { initialMessage } : {}),
				...(initialImages.length > 0 ? { initialImages } : {}),
				messages,
				resume: args.resume,
				verbose: args.verbose,
				warnings: [],
				...(modelFallbackMessage ? { modelFallbackMessage } : {}),
			});
		}
	}
}
