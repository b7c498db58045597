// The startup sequence after `main` answered what needs no files: configuration, resources and
// extensions, the second argument pass, one-shot commands, input, the session, the model, then the mode.
import { migrateLegacyCredentials } from "../core/config/auth-migration.js";
import { AuthStorage } from "../core/config/auth-storage.js";
import { ModelRegistry } from "../core/config/model-registry.js";
import { findInitialModel, resolveModelScope, type ScopedModel } from "../core/config/model-resolver.js";
import { getAgentDir, getAuthPath, getModelsPath } from "../core/config/paths.js";
import { SettingsManager } from "../core/config/settings-manager.js";
import { formatSettingsWarning } from "../core/config/settings-store.js";
import { promptProjectTrust, resolveProjectTrust } from "../core/extensions/trust.js";
import { DefaultResourceLoader } from "../core/resources/resource-loader.js";
import { createAgentSession } from "../core/sdk.js";
import { formatSessionFileDiagnostic } from "../core/session/session-loader.js";
import { closeShellLaunchers } from "../core/tools/shell-launcher.js";
import { routeConsoleToStderr } from "../modes/rpc/jsonl.js";
import { resourceFlagOptions, startAcpMode } from "./acp-startup.js";
import { type Args, parseArgs, permissionsOf, TOOL_NAMES } from "./args.js";
import { runExportCommand } from "./export-command.js";
import { loadCliExtensions } from "./extension-startup.js";
import { FileArgumentError } from "./file-arguments.js";
import { type CliIo, EXIT_FAILURE, EXIT_SUCCESS, formatUsageErrors } from "./help.js";
import { buildInitialInput, type InitialInput } from "./initial-input.js";
import { formatModelList } from "./list-models.js";
import { installStartupPackages } from "./package-startup.js";
import { askYesNo } from "./prompt-question.js";
import { type RunMode, runMode } from "./run-mode.js";
import { selectSession } from "./session-selection.js";
import { formatNoModelsHelp } from "./setup-hints.js";
import { readPipedStdin } from "./stdin.js";
import { watchTurns } from "./young-generation.js";

const API_KEY_WITHOUT_MODEL_TEXT =
	"--api-key requires a model to be specified via --model, --provider/--model, or --models";
const FILES_IN_RPC_MODE_TEXT = "@file arguments are not supported in RPC mode";
const RESUME_NEEDS_UI_TEXT =
	"--resume needs the interactive session picker. Use --continue, or --session <file or id>.";
const NO_PROMPT_TEXT = 'No prompt given. Pass a message (agent -p "…"), an @file, or pipe text on stdin.';

/** docs/cli.md "Modes": an explicit mode wins; -p or piped input means print; a terminal on both ends means the UI. */
export function chooseRunMode(
	args: Pick<Args, "mode" | "print">,
	hasStdinPrompt: boolean,
	terminals: { stdin: boolean; stdout: boolean },
): RunMode | "acp" {
	if (args.mode === "acp") return "acp";
	if (args.mode === "rpc") return "rpc";
	if (args.mode === "json") return "json";
	if (args.mode === "text" || args.print || hasStdinPrompt) return "text";
	// Output to a pipe or a file, or input that is not a keyboard: no UI can run, so print.
	if (!terminals.stdout || !terminals.stdin) return "text";
	return "interactive";
}

function fail(io: CliIo, message: string, warnings: readonly string[] = []): number {
	for (const warning of warnings) io.stderr.write(`${warning}\n`);
	io.stderr.write(`Error: ${message}\n`);
	return EXIT_FAILURE;
}

export async function runStartup(argv: readonly string[], io: CliIo): Promise<number> {
	const cwd = process.cwd();
	const agentDir = getAgentDir();
	const terminals = { stdin: process.stdin.isTTY === true, stdout: process.stdout.isTTY === true };
	let args = parseArgs(argv);
	const mayBeInteractive = chooseRunMode(args, args.readStdin, terminals) === "interactive";
	// stdout carries only the answer or records: logs of extensions (also while they load) go to stderr.
	if (!mayBeInteractive) routeConsoleToStderr();
	// Warnings go to stderr at once, except for the terminal UI, which shows them above its editor.
	const startupWarnings: string[] = [];
	const warn = (_io: CliIo, lines: readonly string[]) => {
		if (mayBeInteractive) startupWarnings.push(...lines);
		else for (const line of lines) io.stderr.write(`${line}\n`);
	};

	const settingsManager = SettingsManager.create(cwd, agentDir);
	warn(
		io,
		settingsManager.drainErrors().map((error) => formatSettingsWarning(error)),
	);
	const resourceLoader = new DefaultResourceLoader({
		cwd,
		agentDir,
		settingsManager,
		...resourceFlagOptions(args),
	});
	await resourceLoader.reload();
	// Before anything of the project runs: its extensions and its settings that run code wait for trust. (ACP
	// decides per session, for the directory the editor names, not for the one it was started in.)
	if (args.mode !== "acp") {
		const trust = await resolveProjectTrust({
			cwd,
			agentDir,
			settingsManager,
			resourceLoader,
			trustProjectFlag: args.trustProject,
			...(mayBeInteractive
				? { prompt: (parts) => promptProjectTrust({ input: process.stdin, output: io.stderr, cwd, parts }) }
				: {}),
		});
		if (trust.notice) warn(io, [trust.notice]);
	}
	// Packages the settings (or -e) name but the disk lacks are installed now, the project's only once trusted.
	const installing = { cwd, agentDir, settingsManager, extensionSources: args.extensions };
	const progress = (line: string) => io.stderr.write(`${line}\n`);
	if (await installStartupPackages({ ...installing, progress, warn: (lines) => warn(io, lines) })) {
		await resourceLoader.reload();
	}
	warn(
		io,
		resourceLoader
			.getDiagnostics()
			.filter((diagnostic) => diagnostic.type !== "duplicate")
			.map((diagnostic) => `Warning: ${diagnostic.message} (${diagnostic.path})`),
	);

	// Nothing can claim an unknown flag when there are no extensions: report it before any file is created.
	if (args.unknownFlags.length > 0 && resourceLoader.getExtensionPaths().extensions.length === 0) {
		io.stderr.write(formatUsageErrors(args));
		return EXIT_FAILURE;
	}

	try {
		const migrated = migrateLegacyCredentials(agentDir);
		if (migrated.providers.length > 0)
			warn(io, [`Moved credentials of ${migrated.providers.join(", ")} into ${getAuthPath(agentDir)}`]);
	} catch (error) {
		warn(io, [`Warning: could not migrate legacy credentials: ${(error as Error).message}`]);
	}
	const authStorage = AuthStorage.create(getAuthPath(agentDir));
	// An unreadable auth.json is treated as empty (and never written over): say so, or the user only sees
	// "No API key found" for keys that are right there in the file.
	const authError = authStorage.getLoadError();
	if (authError) warn(io, [`Warning: ${authError}; its credentials are ignored and the file is left as it is`]);
	const modelRegistry = new ModelRegistry(authStorage, getModelsPath(agentDir));
	// The terminal UI shows the registry's error itself (`models.json error: …`, again when /model or /reload finds
	// another), so it is left out of the UI's warnings; it stays on stderr for the other modes, and for a start-up
	// that fails or ends before the UI.
	const modelsError = modelRegistry.getError();
	const modelsWarning = modelsError === undefined ? undefined : `Warning: ${modelsError}`;
	if (modelsWarning) warn(io, [modelsWarning]);

	const extensions = await loadCliExtensions({
		cwd,
		agentDir,
		resourceLoader,
		modelRegistry,
		isProjectTrusted: () => settingsManager.isProjectTrusted(),
		hasBuiltInCommands: mayBeInteractive,
		io,
	});
	// Second pass: flags of loaded extensions are known now; anything still unknown is a mistake.
	args = parseArgs(argv, { extensionFlags: extensions.flags });
	if (args.errors.length > 0 || args.unknownFlags.length > 0) {
		io.stderr.write(formatUsageErrors(args));
		return EXIT_FAILURE;
	}
	extensions.runner?.setFlagValues(args.extensionFlagValues);

	// One-shot commands end before the UI that would have shown the collected warnings.
	if (mayBeInteractive && (args.listModels !== undefined || args.export !== undefined)) {
		for (const warning of startupWarnings) io.stderr.write(`${warning}\n`);
	}
	if (args.listModels !== undefined) {
		const search = args.listModels === true ? undefined : args.listModels;
		io.stdout.write(formatModelList(modelRegistry.getAvailable(), search));
		return EXIT_SUCCESS;
	}
	if (args.export !== undefined) return runExportCommand(args.export, args.messages[0], { cwd, io });
	if (args.mode === "rpc" && args.fileArgs.length > 0) return fail(io, FILES_IN_RPC_MODE_TEXT, startupWarnings);

	const protocolOnStdin = args.mode === "rpc" || args.mode === "acp";
	const stdinPrompt = protocolOnStdin ? undefined : await readPipedStdin(process.stdin, args.readStdin);
	const mode = chooseRunMode(args, stdinPrompt !== undefined, terminals);
	// ACP makes its sessions when the editor asks for them, each for the cwd the editor names.
	if (mode === "acp") {
		return collectingLaunchers(() =>
			startAcpMode({ args, agentDir, settingsManager, authStorage, modelRegistry, io }),
		);
	}
	if (args.resume && mode !== "interactive") return fail(io, RESUME_NEEDS_UI_TEXT, startupWarnings);

	let input: InitialInput;
	try {
		input = await buildInitialInput({
			messages: mode === "rpc" ? [] : args.messages,
			fileArgs: args.fileArgs,
			stdinPrompt,
			cwd,
			autoResizeImages: settingsManager.getImageAutoResize(),
		});
	} catch (error) {
		if (error instanceof FileArgumentError) return fail(io, error.message, startupWarnings);
		throw error;
	}

	let scopedModels: ScopedModel[] = [];
	const scopePatterns = args.models ?? settingsManager.getEnabledModels();
	if (scopePatterns && scopePatterns.length > 0) {
		const scope = resolveModelScope(scopePatterns, modelRegistry.getAvailable());
		warn(io, scope.warnings);
		scopedModels = scope.scopedModels;
	}

	// --session-dir wins over an extension's session_directory handler (docs/cli.md "Sessions").
	const sessionDir = args.sessionDir ?? (await extensions.runner?.emitSessionDirectory(cwd));
	const selected = await selectSession(
		{ ...args, ...(sessionDir !== undefined ? { sessionDir } : {}) },
		{
			cwd,
			agentDir,
			...(terminals.stdin && mode !== "rpc" ? { askToFork: (question: string) => askYesNo(question) } : {}),
		},
	);
	if (selected.kind === "exit") {
		(selected.toStdout ? io.stdout : io.stderr).write(`${selected.message}\n`);
		return selected.exitCode;
	}
	const sessionManager = selected.sessionManager;
	// Skipped lines of a resumed file (damaged by hand or by a crash) are named, so a gap in the context is explained.
	warn(
		io,
		sessionManager.getLoadDiagnostics().map((diagnostic) => `Warning: ${formatSessionFileDiagnostic(diagnostic)}`),
	);
	const closeAndFail = (message: string) => {
		sessionManager.close();
		return fail(io, message, startupWarnings);
	};

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
	if (initial.error) return closeAndFail(initial.error);
	warn(io, initial.warnings);

	if (args.apiKey !== undefined) {
		if (args.model === undefined && scopedModels.length === 0) return closeAndFail(API_KEY_WITHOUT_MODEL_TEXT);
		if (initial.model) authStorage.setRuntimeApiKey(initial.model.provider, args.apiKey);
	}
	if (!initial.model && mode !== "interactive") {
		sessionManager.close();
		io.stderr.write(formatNoModelsHelp(agentDir));
		return EXIT_FAILURE;
	}
	if (mode === "text" && input.initialMessage === undefined && input.messages.length === 0 && !hasEntries) {
		return closeAndFail(NO_PROMPT_TEXT);
	}

	// A print or JSON run cannot restore files, so without a session file to resume nothing could use a checkpoint.
	if ((mode === "text" || mode === "json") && !sessionManager.isPersisted()) {
		settingsManager.applyOverrides({ checkpoints: { enabled: false } });
	}
	const thinkingLevel = args.thinking ?? initial.thinkingLevel;
	const { session, modelFallbackMessage, mcpWarnings } = await createAgentSession({
		cwd,
		agentDir,
		sessionManager,
		settingsManager,
		modelRegistry,
		resourceLoader,
		...(extensions.runner ? { hooks: extensions.runner } : {}),
		...(initial.model ? { model: initial.model } : {}),
		...(thinkingLevel ? { thinkingLevel } : {}),
		...(scopedModels.length > 0 ? { scopedModels } : {}),
		...(args.trustProject ? { trustProject: true } : {}),
		permissions: permissionsOf(args),
	});
	warn(io, mcpWarnings);
	warn(io, session.permissions.notices());
	// No one can answer a permission question in print and JSON mode: such a call is refused and named here.
	if (mode === "text" || mode === "json") session.permissions.onUnanswered((line) => io.stderr.write(`${line}\n`));
	// MCP servers start in the background; their failures and authorization requests are reported as they
	// happen: on stderr here, as notices in the terminal UI (which subscribes itself).
	if (mode !== "interactive") session.onMcpNotice((notice) => io.stderr.write(`${notice.text}\n`));
	// Modes report `extension_error` events (path, event, message); the stack goes to stderr after them.
	if (mode !== "interactive") {
		extensions.runner?.onError((error) => {
			if (error.stack) io.stderr.write(`${error.stack}\n`);
		});
	}

	if (args.tools !== undefined || args.noTools) {
		// --tools / --no-tools choose the built-ins; extension tools stay active.
		const builtIns: readonly string[] = TOOL_NAMES;
		const others = session.getActiveToolNames().filter((name) => !builtIns.includes(name));
		session.setActiveToolsByName([...(args.tools ?? []), ...others]);
	}

	watchTurns(session);
	return collectingLaunchers(() =>
		runMode({
			mode,
			session,
			input,
			...(extensions.runner ? { extensions: extensions.runner } : {}),
			resume: args.resume,
			verbose: args.verbose,
			...(args.tuiMode ? { tuiMode: args.tuiMode } : {}),
			startupWarnings: startupWarnings.filter((warning) => warning !== modelsWarning),
			...(modelFallbackMessage ? { modelFallbackMessage } : {}),
		}),
	);
}

/** Runs a mode, then collects the bash launchers (and the CPU time of the commands they ran) before the process exits. */
async function collectingLaunchers(run: () => Promise<number>): Promise<number> {
	try {
		return await run();
	} finally {
		await closeShellLaunchers();
	}
}
