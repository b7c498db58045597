// npm packages: installed with the real `npm` (or the `npmCommand` setting) into a staging directory, each with
// all its dependencies nested below it, so one package's directory is the whole install and can be moved into
// place (or deleted) on its own.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ParsedPackageSource } from "../resources/package-sources.js";
import { runCommand } from "./run-command.js";

export type NpmSource = Extract<ParsedPackageSource, { type: "npm" }>;

export interface NpmRunner {
	/** argv prefix: `["npm"]`, or the `npmCommand` setting. */
	command: readonly string[];
	env?: NodeJS.ProcessEnv;
	/** Run the packages' lifecycle scripts (install, postinstall, …). Off by default: installing runs no code. */
	allowScripts?: boolean;
}

export const INVALID_NPM_COMMAND_TEXT = "Invalid npmCommand: first array entry must be a non-empty command";

/** `["npm"]`, or the `npmCommand` setting (e.g. `["mise", "exec", "node@20", "--", "npm"]`). */
export function resolveNpmCommand(setting: readonly string[] | undefined): string[] {
	if (!setting || setting.length === 0) return ["npm"];
	if (!setting[0]?.trim()) throw new Error(INVALID_NPM_COMMAND_TEXT);
	return [...setting];
}

/**
 * Flags of every install: only runtime dependencies; peer dependencies are not installed (packages name the host
 * packages — agent's own, provided at load time — as peers); no audit, funding or lock-file noise; and no
 * lifecycle scripts unless asked.
 */
function installFlags(runner: NpmRunner): string[] {
	return [
		"--omit=dev",
		"--legacy-peer-deps",
		"--no-audit",
		"--no-fund",
		"--no-update-notifier",
		...(runner.allowScripts ? [] : ["--ignore-scripts"]),
	];
}

/** Installs `source` below `stagingDir`; resolves with the directory of the package itself. */
export async function stageNpmPackage(source: NpmSource, stagingDir: string, runner: NpmRunner): Promise<string> {
	writeFileSync(join(stagingDir, "package.json"), JSON.stringify({ name: "agent-package-staging", private: true }));
	await runCommand(
		[
			...runner.command,
			"install",
			source.spec,
			"--prefix",
			stagingDir,
			"--install-strategy=nested",
			"--no-save",
			"--no-package-lock",
			...installFlags(runner),
		],
		{ cwd: stagingDir, ...(runner.env ? { env: runner.env } : {}), label: `npm install ${source.spec}` },
	);
	const dir = join(stagingDir, "node_modules", ...source.name.split("/"));
	if (!existsSync(join(dir, "package.json"))) {
		throw new Error(`npm install ${source.spec} did not install a package named ${source.name}`);
	}
	return dir;
}

function hasRuntimeDependencies(dir: string): boolean {
	try {
		const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
		return ["dependencies", "optionalDependencies"].some((key) => {
			const deps = manifest[key];
			return typeof deps === "object" && deps !== null && Object.keys(deps).length > 0;
		});
	} catch {
		return false;
	}
}

/** `npm install` in a package's own directory (a git clone), when its package.json names runtime dependencies. */
export async function installDependencies(dir: string, runner: NpmRunner): Promise<void> {
	if (!hasRuntimeDependencies(dir)) return;
	await runCommand([...runner.command, "install", "--no-save", ...installFlags(runner)], {
		cwd: dir,
		...(runner.env ? { env: runner.env } : {}),
		label: "npm install",
	});
}

/** The `version` of an installed package's package.json. */
export function installedVersion(dir: string): string | undefined {
	try {
		const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: unknown }).version;
		return typeof version === "string" ? version : undefined;
	} catch {
		return undefined;
	}
}
