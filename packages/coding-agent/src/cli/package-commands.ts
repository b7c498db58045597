// `agent install | remove (uninstall) | update | list` (docs/cli.md "Package commands", docs/packages.md): recognised only as the first argument, they
// manage packages and exit without starting the agent. Progress goes to stdout, errors to stderr as `Error: …`.
import { APP_NAME } from "../config.js";
import { CONFIG_DIR_NAME, getAgentDir } from "../core/config/paths.js";
import { TRUST_PROJECT_FLAG } from "../core/config/project-trust.js";
import type { SettingsManager } from "../core/config/settings-manager.js";
import type { PackageSource } from "../core/config/settings-schema.js";
import type { SettingsScope } from "../core/config/settings-storage.js";
import { formatSettingsWarning } from "../core/config/settings-store.js";
import type { DefaultPackageManager } from "../core/packages/package-manager.js";
import { type InstallScope, readScopePackages } from "../core/packages/package-settings.js";
import { packageSourceString } from "../core/resources/package-sources.js";
import { type CliIo, EXIT_FAILURE, EXIT_SUCCESS } from "./help.js";

export const PACKAGE_COMMAND_NAMES = ["install", "remove", "uninstall", "update", "list"] as const;
export type PackageCommandName = (typeof PACKAGE_COMMAND_NAMES)[number];
type PackageCommand = Exclude<PackageCommandName, "uninstall">;

export function isPackageCommand(word: string | undefined): word is PackageCommandName {
	return (PACKAGE_COMMAND_NAMES as readonly string[]).includes(word ?? "");
}

const ALLOW_SCRIPTS_FLAG = "--allow-scripts";

const USAGE: Record<PackageCommand, string> = {
	install: `${APP_NAME} install <source> [-l]`,
	remove: `${APP_NAME} remove <source> [-l]`,
	update: `${APP_NAME} update [source]`,
	list: `${APP_NAME} list`,
};

const SCRIPTS_OPTION = `  ${ALLOW_SCRIPTS_FLAG}  Run the npm lifecycle scripts of the package and its dependencies (off by default)`;

/** `agent <command> --help`. */
export function formatPackageCommandHelp(command: PackageCommand): string {
	switch (command) {
		case "install":
			return `Usage:
  ${USAGE.install}

Install a package and add it to settings.

Options:
  -l, --local    Install project-locally (${CONFIG_DIR_NAME}/settings.json)
${SCRIPTS_OPTION}

Examples:
  ${APP_NAME} install npm:@foo/bar
  ${APP_NAME} install git:github.com/user/repo
  ${APP_NAME} install git:git@github.com:user/repo
  ${APP_NAME} install https://github.com/user/repo
  ${APP_NAME} install ssh://git@github.com/user/repo
  ${APP_NAME} install ./local/path
`;
		case "remove":
			return `Usage:
  ${USAGE.remove}

Remove a package and its source from settings.
Alias: ${APP_NAME} uninstall <source> [-l]

Options:
  -l, --local    Remove from project settings (${CONFIG_DIR_NAME}/settings.json)

Examples:
  ${APP_NAME} remove npm:@foo/bar
  ${APP_NAME} uninstall npm:@foo/bar
`;
		case "update":
			return `Usage:
  ${USAGE.update}

Update installed packages.
If <source> is provided, only that package is updated.

Options:
${SCRIPTS_OPTION}
`;
		case "list":
			return `Usage:
  ${USAGE.list}

List installed packages from user and project settings.
`;
	}
}

export interface PackageCommandArgs {
	command: PackageCommand;
	source?: string;
	local: boolean;
	allowScripts: boolean;
	help: boolean;
	invalidOption?: string;
}

/** The reference's rules: `-l` only for install/remove, the first other word is the source, more are ignored. */
export function parsePackageCommandArgs(argv: readonly string[]): PackageCommandArgs | undefined {
	const [word, ...rest] = argv;
	if (!isPackageCommand(word)) return undefined;
	const command: PackageCommand = word === "uninstall" ? "remove" : word;
	const parsed: PackageCommandArgs = { command, local: false, allowScripts: false, help: false };
	for (const arg of rest) {
		if (arg === "-h" || arg === "--help") parsed.help = true;
		else if ((arg === "-l" || arg === "--local") && (command === "install" || command === "remove")) {
			parsed.local = true;
		} else if (arg === ALLOW_SCRIPTS_FLAG && (command === "install" || command === "update")) {
			parsed.allowScripts = true;
		} else if (arg.startsWith("-")) parsed.invalidOption ??= arg;
		else parsed.source ??= arg;
	}
	return parsed;
}

export interface PackageCommandContext {
	cwd: string;
	/** Default: `getAgentDir()` (AGENT_DIR or ~/.agent). */
	agentDir?: string;
	io: CliIo;
	/** Environment of npm and git (default: this process's). */
	env?: NodeJS.ProcessEnv;
}

function untrustedProjectNote(cwd: string): string {
	return (
		`Note: ${cwd} is not a trusted project, so its packages are not loaded yet. To trust it, start ${APP_NAME} ` +
		`there interactively and accept, or run with ${TRUST_PROJECT_FLAG}.`
	);
}

/** Runs a package command; resolves with the exit code. */
export async function runPackageCommand(argv: readonly string[], context: PackageCommandContext): Promise<number> {
	const args = parsePackageCommandArgs(argv);
	if (!args) return EXIT_FAILURE;
	const { io } = context;
	if (args.help) {
		io.stdout.write(formatPackageCommandHelp(args.command));
		return EXIT_SUCCESS;
	}
	if (args.invalidOption) {
		io.stderr.write(`Unknown option ${args.invalidOption} for "${args.command}".\n`);
		io.stderr.write(`Use "${APP_NAME} --help" or "${USAGE[args.command]}".\n`);
		return EXIT_FAILURE;
	}
	if ((args.command === "install" || args.command === "remove") && !args.source) {
		io.stderr.write(`Missing ${args.command} source.\n`);
		io.stderr.write(`Usage: ${USAGE[args.command]}\n`);
		return EXIT_FAILURE;
	}

	const [{ SettingsManager }, { DefaultPackageManager }] = await Promise.all([
		import("../core/config/settings-manager.js"),
		import("../core/packages/package-manager.js"),
	]);
	const agentDir = context.agentDir ?? getAgentDir();
	const settingsManager = SettingsManager.create(context.cwd, agentDir);
	for (const error of settingsManager.drainErrors()) {
		io.stderr.write(`${formatSettingsWarning(error, "package command")}\n`);
	}
	const manager = new DefaultPackageManager({
		cwd: context.cwd,
		agentDir,
		settingsManager,
		...(context.env ? { env: context.env } : {}),
	});
	manager.setProgressCallback((event) => {
		if (event.type === "start" && event.message) io.stdout.write(`${event.message}\n`);
		if (event.type === "complete" && event.message && event.action === "update") {
			io.stdout.write(`  ${event.message}\n`);
		}
	});

	try {
		switch (args.command) {
			case "list":
				listPackages(settingsManager, manager, context);
				return EXIT_SUCCESS;
			case "install":
				return await install(args.source as string, args, settingsManager, manager, context);
			case "remove":
				return await remove(args.source as string, args.local, settingsManager, manager, context);
			case "update":
				await manager.update(args.source, { allowScripts: args.allowScripts });
				io.stdout.write(args.source ? `Updated ${args.source}\n` : "Updated packages\n");
				return EXIT_SUCCESS;
		}
	} catch (error) {
		io.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
		return EXIT_FAILURE;
	}
}

/** Fails before anything is installed when the settings file to change cannot be written. */
function unwritableSettingsError(settingsManager: SettingsManager, scope: SettingsScope): string | undefined {
	if (settingsManager.isScopeWritable(scope)) return undefined;
	return `the ${scope === "project" ? "project" : "user"} settings file cannot be read or parsed (see the warning above); fix it and run the command again`;
}

/** Writes the queued settings changes; a write that failed is an error. */
async function saveSettings(settingsManager: SettingsManager): Promise<string | undefined> {
	await settingsManager.flush();
	const errors = settingsManager.drainErrors();
	return errors.length > 0 ? errors.map((error) => error.message).join("\n") : undefined;
}

async function install(
	source: string,
	args: PackageCommandArgs,
	settingsManager: SettingsManager,
	manager: DefaultPackageManager,
	context: PackageCommandContext,
): Promise<number> {
	const unwritable = unwritableSettingsError(settingsManager, args.local ? "project" : "global");
	if (unwritable) throw new Error(unwritable);
	await manager.install(source, { local: args.local, allowScripts: args.allowScripts });
	manager.addSourceToSettings(source, { local: args.local });
	const saveError = await saveSettings(settingsManager);
	if (saveError) throw new Error(`${source} was installed, but the settings were not saved: ${saveError}`);
	context.io.stdout.write(`Installed ${source}\n`);
	if (args.local && !settingsManager.isProjectTrusted()) {
		context.io.stdout.write(`${untrustedProjectNote(context.cwd)}\n`);
	}
	return EXIT_SUCCESS;
}

async function remove(
	source: string,
	local: boolean,
	settingsManager: SettingsManager,
	manager: DefaultPackageManager,
	context: PackageCommandContext,
): Promise<number> {
	const unwritable = unwritableSettingsError(settingsManager, local ? "project" : "global");
	if (unwritable) throw new Error(unwritable);
	// Ours differs: the reference deleted the files before finding that no settings entry matched.
	if (!manager.hasSourceInSettings(source, { local })) {
		context.io.stderr.write(`No matching package found for ${source}\n`);
		return EXIT_FAILURE;
	}
	manager.removeSourceFromSettings(source, { local });
	const saveError = await saveSettings(settingsManager);
	if (saveError) throw new Error(`settings were not saved, so ${source} was not removed: ${saveError}`);
	await manager.remove(source, { local });
	context.io.stdout.write(`Removed ${source}\n`);
	return EXIT_SUCCESS;
}

function listPackages(
	settingsManager: SettingsManager,
	manager: DefaultPackageManager,
	context: PackageCommandContext,
) {
	const { io } = context;
	const scopes: Array<{ scope: InstallScope; packages: PackageSource[] }> = [
		{ scope: "user", packages: readScopePackages(settingsManager, "user") },
		{ scope: "project", packages: readScopePackages(settingsManager, "project") },
	];
	if (scopes.every(({ packages }) => packages.length === 0)) {
		io.stdout.write("No packages installed.\n");
		return;
	}
	let first = true;
	for (const { scope, packages } of scopes) {
		if (packages.length === 0) continue;
		if (!first) io.stdout.write("\n");
		first = false;
		const ignored = scope === "project" && !settingsManager.isProjectTrusted();
		io.stdout.write(
			scope === "user"
				? "User packages:\n"
				: `Project packages${ignored ? " (not loaded: this project is not trusted)" : ""}:\n`,
		);
		for (const pkg of packages) {
			const source = packageSourceString(pkg);
			const filtered = typeof pkg === "object";
			io.stdout.write(`  ${source}${filtered ? " (filtered)" : ""}\n`);
			const path = manager.getInstalledPath(source, scope);
			// Ours: the reference printed nothing for a package that is not on disk.
			io.stdout.write(path ? `    ${path}\n` : "    (not installed)\n");
		}
	}
}
