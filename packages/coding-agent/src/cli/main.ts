// The front of the `agent` command: what can be answered from the arguments alone (version, help, usage
// errors) is answered here without loading anything else; the rest of startup is imported on demand.
import { VERSION } from "../config.js";
import { parseArgs } from "./args.js";
import { enableCompileCache } from "./compile-cache.js";
import { type CliIo, EXIT_FAILURE, EXIT_SUCCESS, formatHelp, formatUsageErrors } from "./help.js";

/** Package-management sub-commands (docs/cli.md "Package commands"), recognised only as the first argument. */
const PACKAGE_COMMANDS = new Set(["install", "remove", "uninstall", "update", "list"]);

const TRUTHY = new Set(["1", "true", "yes"]);

/**
 * Runs the command line; resolves with the exit code. Never throws for user errors. `ownPackage` loads this
 * package's public entry for extensions; the bin gives it, as its bundle holds its own copy of the package.
 * Without it extensions import the package by name, which is the copy a program calling `main` imported.
 */
export async function main(
	argv: readonly string[],
	io: CliIo = process,
	ownPackage?: () => Promise<unknown>,
): Promise<number> {
	const args = parseArgs(argv);

	if (args.offline || TRUTHY.has((process.env.AGENT_OFFLINE ?? "").toLowerCase())) {
		process.env.AGENT_OFFLINE = "1";
		process.env.AGENT_SKIP_VERSION_CHECK = "1";
	}

	const subcommand = argv[0];
	if (subcommand !== undefined && PACKAGE_COMMANDS.has(subcommand)) {
		enableCompileCache();
		await provideOwnPackage(ownPackage);
		const { runPackageCommand } = await import("./package-commands.js");
		return runPackageCommand(argv, { cwd: process.cwd(), io });
	}
	if (subcommand === "login" || subcommand === "logout") {
		enableCompileCache();
		const { runLoginCommand } = await import("./login-command.js");
		return runLoginCommand(subcommand, argv[1], { io });
	}
	if (subcommand === "config") {
		enableCompileCache();
		const { runConfigCommand } = await import("./config-command.js");
		return runConfigCommand({ cwd: process.cwd(), io });
	}

	// Neither depends on extension flags: answered before anything is loaded or created on disk.
	if (args.version) {
		io.stdout.write(`${VERSION}\n`);
		return EXIT_SUCCESS;
	}
	if (args.help) {
		io.stdout.write(formatHelp(VERSION));
		return EXIT_SUCCESS;
	}
	if (args.errors.length > 0) {
		io.stderr.write(formatUsageErrors({ errors: args.errors, unknownFlags: [] }));
		return EXIT_FAILURE;
	}

	// Only now, so that what is answered above writes nothing (the cache is written at exit).
	enableCompileCache();
	await provideOwnPackage(ownPackage);
	const { runStartup } = await import("./startup.js");
	return runStartup(argv, io);
}

/** Hands `load` to the extension loader; imported here so that `--version` and `--help` load none of it. */
async function provideOwnPackage(load: (() => Promise<unknown>) | undefined): Promise<void> {
	if (!load) return;
	const hostModules = await import("../core/extensions/host-modules.js");
	hostModules.provideOwnPackage(load);
}
