// Installing, updating and removing packages (npm, git, local paths) for the `agent install/remove/update/list`
// commands, start-up and `-e`. Every install is staged, checked (package-check.ts) and then moved into place, so
// a failure — offline, a bad ref, a package without resources, an extension that throws — changes nothing.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import type { SettingsManager } from "../config/settings-manager.js";
import { resolveInputPath } from "../resources/input-paths.js";
import {
	type PackageLocations,
	type PackageScope,
	type ParsedPackageSource,
	packageInstallPath,
	packageInstallRoot,
	packageSourceString,
	parsePackageSource,
} from "../resources/package-sources.js";
import { findGitUpdate, type GitSource, GitStepError, stageGitClone, stageGitUpdate } from "./git-packages.js";
import {
	installDependencies,
	installedVersion,
	type NpmRunner,
	type NpmSource,
	resolveNpmCommand,
	stageNpmPackage,
} from "./npm-packages.js";
import { checkPackage } from "./package-check.js";
import {
	commandLineIdentity,
	type InstallScope,
	readScopePackages,
	settingsIdentity,
	withPackageAdded,
	withPackageRemoved,
	writeScopePackages,
} from "./package-settings.js";
import {
	addPackageResources,
	emptyResolvedPaths,
	type MissingSourceAction,
	type ResolvedPaths,
	toResolvedPaths,
} from "./resolved-paths.js";
import { listConfigurableResources } from "./resource-inventory.js";
import { CommandFailedError } from "./run-command.js";
import {
	createStagingDir,
	ensureGitIgnore,
	moveIntoPlace,
	removeInstalledDirectory,
	removeStagingDir,
} from "./staged-directory.js";

export type PackageAction = "install" | "remove" | "update";

export interface PackageProgressEvent {
	type: "start" | "complete" | "error";
	action: PackageAction;
	source: string;
	/** `start`: `Installing <source>...`; `complete`: what changed, when there is something to say. */
	message?: string;
}

export type PackageProgressCallback = (event: PackageProgressEvent) => void;

export interface PackageManagerOptions {
	cwd: string;
	agentDir: string;
	settingsManager: SettingsManager;
	homeDir?: string;
	/** Where `-e` packages are cached (default: `<agentDir>/cache/packages`). */
	temporaryDir?: string;
	/** Environment of npm and git (default: this process's). */
	env?: NodeJS.ProcessEnv;
}

export interface InstallOptions {
	/** Project scope (`-l`): `<cwd>/.agent/settings.json`, files under `<cwd>/.agent/`. */
	local?: boolean;
	/** Run the npm lifecycle scripts of the package and its dependencies (default: never). */
	allowScripts?: boolean;
}

export const NOTHING_INSTALLED_TEXT = "Nothing was installed.";
export const PREVIOUS_VERSION_KEPT_TEXT = "The installed version was kept.";

/** An install or update that failed; the message says what happened and what to do. */
export class PackageInstallError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "PackageInstallError";
	}
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** What to try after a failed step, by what failed (nothing when the message says it all). */
function adviceFor(error: unknown, source: ParsedPackageSource): string | undefined {
	if (error instanceof GitStepError && source.type === "git") {
		if (error.step === "checkout") {
			return `Check that "${source.ref}" is a tag, branch or commit of ${source.repo}.`;
		}
		return `Check the repository address and that you can reach it: git ls-remote ${source.repo}`;
	}
	if (error instanceof CommandFailedError && error.exitCode !== null && source.type === "npm") {
		return "Check the package name and version, and that the npm registry is reachable (npm config get registry).";
	}
	return undefined;
}

/** What the reference's `PackageManager` interface offers (SDK users type against it). */
export interface PackageManager {
	resolve(onMissing?: (source: string) => Promise<MissingSourceAction>): Promise<ResolvedPaths>;
	install(source: string, options?: { local?: boolean }): Promise<void>;
	remove(source: string, options?: { local?: boolean }): Promise<void>;
	update(source?: string): Promise<void>;
	resolveExtensionSources(
		sources: readonly string[],
		options?: { local?: boolean; temporary?: boolean },
	): Promise<ResolvedPaths>;
	addSourceToSettings(source: string, options?: { local?: boolean }): boolean;
	removeSourceFromSettings(source: string, options?: { local?: boolean }): boolean;
	setProgressCallback(callback: PackageProgressCallback | undefined): void;
	getInstalledPath(source: string, scope: "user" | "project"): string | undefined;
}

export class DefaultPackageManager implements PackageManager {
	private readonly locations: PackageLocations;
	private readonly settingsManager: SettingsManager;
	private readonly env: NodeJS.ProcessEnv | undefined;
	private progress: PackageProgressCallback | undefined;

	constructor(options: PackageManagerOptions) {
		this.settingsManager = options.settingsManager;
		this.env = options.env;
		this.locations = {
			cwd: options.cwd,
			agentDir: options.agentDir,
			homeDir: options.homeDir ?? homedir(),
			...(options.temporaryDir ? { temporaryDir: options.temporaryDir } : {}),
		};
	}

	setProgressCallback(callback: PackageProgressCallback | undefined): void {
		this.progress = callback;
	}

	/** Where a package of `scope` is on disk; undefined when it is not there. */
	getInstalledPath(source: string, scope: PackageScope): string | undefined {
		const path = packageInstallPath(parsePackageSource(source), scope, this.locations);
		return existsSync(path) ? path : undefined;
	}

	// ── settings ─────────────────────────────────────────────────────────────────────────────────────────
	/** Adds the package to a scope's settings (or updates its entry); false when the entry was already there. */
	addSourceToSettings(source: string, options: { local?: boolean } = {}): boolean {
		const scope = scopeOf(options);
		const current = readScopePackages(this.settingsManager, scope);
		const next = withPackageAdded(current, source, scope, this.locations);
		if (JSON.stringify(next) === JSON.stringify(current)) return false;
		writeScopePackages(this.settingsManager, scope, next);
		return true;
	}

	/** Removes the package's entries from a scope's settings; false when there was none. */
	removeSourceFromSettings(source: string, options: { local?: boolean } = {}): boolean {
		const scope = scopeOf(options);
		const current = readScopePackages(this.settingsManager, scope);
		const next = withPackageRemoved(current, source, scope, this.locations);
		if (next.length === current.length) return false;
		writeScopePackages(this.settingsManager, scope, next);
		return true;
	}

	/** Whether a scope's settings have an entry for the package `source` names. */
	hasSourceInSettings(source: string, options: { local?: boolean } = {}): boolean {
		const scope = scopeOf(options);
		const identity = commandLineIdentity(source, this.locations);
		return readScopePackages(this.settingsManager, scope).some(
			(entry) => settingsIdentity(entry, scope, this.locations) === identity,
		);
	}

	// ── install / remove ─────────────────────────────────────────────────────────────────────────────────
	/**
	 * Installs a package's files for a scope (settings are the caller's: `addSourceToSettings`). npm and git
	 * packages are staged, checked and moved into place, replacing an older install; a local path is checked
	 * where it is.
	 */
	async install(source: string, options: InstallOptions = {}): Promise<void> {
		const scope = scopeOf(options);
		await this.withProgress("install", source, `Installing ${source}...`, async () => {
			await this.installParsed(parsePackageSource(source), scope, options.allowScripts === true);
			return undefined;
		});
	}

	/** Deletes the files of a scope's npm or git package (a local path is left alone). */
	async remove(source: string, options: { local?: boolean } = {}): Promise<void> {
		const scope = scopeOf(options);
		await this.withProgress("remove", source, `Removing ${source}...`, async () => {
			const parsed = parsePackageSource(source);
			if (parsed.type === "local") return undefined;
			removeInstalledDirectory(
				packageInstallPath(parsed, scope, this.locations),
				packageInstallRoot(parsed.type, scope, this.locations, parsed),
			);
			return undefined;
		});
	}

	// ── update ───────────────────────────────────────────────────────────────────────────────────────────
	/**
	 * Updates the configured packages that are not pinned (`npm:x@1.2.3`, `git:…@ref` stay as they are), or only
	 * the one `source` names. Every package is tried; the failures are reported together at the end.
	 */
	async update(source?: string, options: { allowScripts?: boolean } = {}): Promise<void> {
		const identity = source === undefined ? undefined : commandLineIdentity(source, this.locations);
		const failures: string[] = [];
		let matched = 0;
		for (const scope of ["user", "project"] as const) {
			for (const entry of readScopePackages(this.settingsManager, scope)) {
				if (scope === "project" && !this.settingsManager.isProjectTrusted()) continue;
				if (identity !== undefined && settingsIdentity(entry, scope, this.locations) !== identity) continue;
				matched++;
				const parsed = parsePackageSource(packageSourceString(entry));
				if (parsed.type === "local") continue;
				if (parsed.pinned) {
					if (source !== undefined) {
						this.progress?.({
							type: "complete",
							action: "update",
							source: parsed.source,
							message: `${parsed.source} is pinned; to change it, install another version: ${pinHint(parsed)}`,
						});
					}
					continue;
				}
				try {
					await this.withProgress("update", parsed.source, `Updating ${parsed.source}...`, () =>
						this.updateParsed(parsed, scope, options.allowScripts === true),
					);
				} catch (error) {
					failures.push(describe(error));
				}
			}
		}
		if (source !== undefined && matched === 0) {
			throw new PackageInstallError(`No matching package found for ${source}`);
		}
		if (failures.length > 0) throw new PackageInstallError(failures.join("\n"));
	}

	// ── start-up and -e ──────────────────────────────────────────────────────────────────────────────────
	/**
	 * The configured npm and git packages that are not on disk (user, then the project's once it is trusted), as
	 * `agent install` would install them.
	 */
	findMissingPackages(): Array<{ source: string; scope: InstallScope }> {
		const missing: Array<{ source: string; scope: InstallScope }> = [];
		for (const scope of ["user", "project"] as const) {
			if (scope === "project" && !this.settingsManager.isProjectTrusted()) continue;
			for (const entry of readScopePackages(this.settingsManager, scope)) {
				const parsed = parsePackageSource(packageSourceString(entry));
				if (parsed.type === "local") continue;
				if (!existsSync(packageInstallPath(parsed, scope, this.locations))) {
					missing.push({ source: parsed.source, scope });
				}
			}
		}
		return missing;
	}

	/** Installs what `findMissingPackages` lists; resolves with the failures (each message says what to do). */
	async installMissingPackages(): Promise<string[]> {
		const failures: string[] = [];
		for (const { source, scope } of this.findMissingPackages()) {
			try {
				await this.install(source, { local: scope === "project" });
			} catch (error) {
				failures.push(describe(error));
			}
		}
		return failures;
	}

	/** `-e npm:…` / `-e git:…`: installs into the per-user cache the first time; later runs use the cached copy. */
	async installTemporary(sources: readonly string[]): Promise<string[]> {
		const failures: string[] = [];
		for (const source of sources) {
			const parsed = parsePackageSource(source);
			if (parsed.type === "local" || existsSync(packageInstallPath(parsed, "temporary", this.locations))) continue;
			try {
				await this.withProgress("install", source, `Installing ${source}...`, async () => {
					await this.installParsed(parsed, "temporary", false);
					return undefined;
				});
			} catch (error) {
				failures.push(describe(error));
			}
		}
		return failures;
	}

	// ── the reference's resolving API (SDK) ─────────────────────────────────────────────────────────────────
	/**
	 * Every resource the settings offer, enabled or not, with where it comes from. Configured npm and git
	 * packages that are not on disk are installed first (unless offline), or skipped / refused as `onMissing`
	 * says.
	 */
	async resolve(onMissing?: (source: string) => Promise<MissingSourceAction>): Promise<ResolvedPaths> {
		if (!isOffline()) {
			for (const { source, scope } of this.findMissingPackages()) {
				const action = onMissing ? await onMissing(source) : "install";
				if (action === "error") throw new PackageInstallError(`Missing source: ${source}`);
				if (action === "install") await this.install(source, { local: scope === "project" });
			}
		}
		return toResolvedPaths(
			listConfigurableResources({
				cwd: this.locations.cwd,
				agentDir: this.locations.agentDir,
				settingsManager: this.settingsManager,
				...(this.locations.homeDir ? { homeDir: this.locations.homeDir } : {}),
			}),
		);
	}

	/**
	 * The resources of the given sources (as `-e` has them with `temporary`), installing npm and git ones that are
	 * not on disk yet.
	 */
	async resolveExtensionSources(
		sources: readonly string[],
		options: { local?: boolean; temporary?: boolean } = {},
	): Promise<ResolvedPaths> {
		const scope: PackageScope = options.temporary ? "temporary" : options.local ? "project" : "user";
		const resolved = emptyResolvedPaths();
		for (const source of sources) {
			const parsed = parsePackageSource(source);
			const root =
				parsed.type === "local"
					? resolveInputPath(parsed.path, this.locations.cwd, this.locations.homeDir)
					: packageInstallPath(parsed, scope, this.locations);
			if (parsed.type !== "local" && !existsSync(root) && !isOffline()) {
				await this.withProgress("install", source, `Installing ${source}...`, async () => {
					await this.installParsed(parsed, scope, false);
					return undefined;
				});
			}
			if (existsSync(root)) addPackageResources(resolved, root, { source, scope, origin: "package" });
		}
		return resolved;
	}

	// ── internals ────────────────────────────────────────────────────────────────────────────────────────
	private async withProgress(
		action: PackageAction,
		source: string,
		message: string,
		run: () => Promise<string | undefined>,
	): Promise<void> {
		this.progress?.({ type: "start", action, source, message });
		try {
			const done = await run();
			this.progress?.({ type: "complete", action, source, ...(done ? { message: done } : {}) });
		} catch (error) {
			this.progress?.({ type: "error", action, source, message: describe(error) });
			throw error;
		}
	}

	private npmRunner(allowScripts: boolean): NpmRunner {
		return {
			command: resolveNpmCommand(this.settingsManager.getNpmCommand()),
			...(this.env ? { env: this.env } : {}),
			allowScripts,
		};
	}

	private checkOptions() {
		return { cwd: this.locations.cwd, agentDir: this.locations.agentDir };
	}

	private async installParsed(parsed: ParsedPackageSource, scope: PackageScope, allowScripts: boolean): Promise<void> {
		if (parsed.type === "local") {
			const path = resolveInputPath(parsed.path, this.locations.cwd, this.locations.homeDir);
			if (!existsSync(path)) throw new PackageInstallError(`Path does not exist: ${path}`);
			await checkPackage(path, parsed.source, this.checkOptions());
			return;
		}
		await this.stageAndMove(parsed, scope, NOTHING_INSTALLED_TEXT, (stagingDir) =>
			parsed.type === "npm"
				? stageNpmPackage(parsed, stagingDir, this.npmRunner(allowScripts))
				: this.stageClone(parsed, stagingDir, allowScripts),
		);
	}

	private async stageClone(parsed: GitSource, stagingDir: string, allowScripts: boolean): Promise<string> {
		const dir = await stageGitClone(parsed, stagingDir, this.env);
		await installDependencies(dir, this.npmRunner(allowScripts));
		return dir;
	}

	/** Builds the package in a staging directory with `stage`, checks it, and moves it into place. */
	private async stageAndMove(
		parsed: NpmSource | GitSource,
		scope: PackageScope,
		failureNote: string,
		stage: (stagingDir: string) => Promise<string>,
	): Promise<void> {
		const root = packageInstallRoot(parsed.type, scope, this.locations, parsed);
		if (scope !== "temporary") ensureGitIgnore(root);
		const stagingDir = createStagingDir(root);
		try {
			const staged = await stage(stagingDir);
			await checkPackage(staged, parsed.source, this.checkOptions());
			moveIntoPlace(staged, packageInstallPath(parsed, scope, this.locations), root);
		} catch (error) {
			const advice = adviceFor(error, parsed);
			const lines = [
				`Could not ${failureNote === NOTHING_INSTALLED_TEXT ? "install" : "update"} ${parsed.source}: ${describe(error)}`,
				...(advice ? [advice] : []),
				failureNote,
			];
			throw new PackageInstallError(lines.join("\n"));
		} finally {
			removeStagingDir(stagingDir);
		}
	}

	/** Resolves with what changed (`1.0.0 → 1.1.0`, `already up to date`). */
	private async updateParsed(
		parsed: NpmSource | GitSource,
		scope: InstallScope,
		allowScripts: boolean,
	): Promise<string> {
		const target = packageInstallPath(parsed, scope, this.locations);
		if (!existsSync(target)) {
			await this.installParsed(parsed, scope, allowScripts);
			return "installed";
		}
		if (parsed.type === "npm") {
			const before = installedVersion(target);
			await this.stageAndMove(parsed, scope, PREVIOUS_VERSION_KEPT_TEXT, (stagingDir) =>
				stageNpmPackage(parsed, stagingDir, this.npmRunner(allowScripts)),
			);
			const after = installedVersion(target);
			return before === after ? `already up to date (${after})` : `${before} → ${after}`;
		}
		let commit: string | undefined;
		try {
			commit = await findGitUpdate(target, this.env);
		} catch (error) {
			throw new PackageInstallError(
				[
					`Could not update ${parsed.source}: ${describe(error)}`,
					adviceFor(error, parsed),
					PREVIOUS_VERSION_KEPT_TEXT,
				]
					.filter(Boolean)
					.join("\n"),
			);
		}
		if (commit === undefined) return "already up to date";
		await this.stageAndMove(parsed, scope, PREVIOUS_VERSION_KEPT_TEXT, async (stagingDir) => {
			const staged = await stageGitUpdate(target, commit, stagingDir, this.env);
			await installDependencies(staged, this.npmRunner(allowScripts));
			return staged;
		});
		return `now at ${commit.slice(0, 7)}`;
	}
}

const TRUTHY = new Set(["1", "true", "yes"]);

/** `--offline` / `AGENT_OFFLINE`: nothing is fetched on the caller's behalf. */
function isOffline(): boolean {
	return TRUTHY.has((process.env.AGENT_OFFLINE ?? "").toLowerCase());
}

function scopeOf(options: { local?: boolean }): InstallScope {
	return options.local ? "project" : "user";
}

function pinHint(parsed: NpmSource | GitSource): string {
	return parsed.type === "npm" ? `npm:${parsed.name}@<version>` : `git:${parsed.host}/${parsed.path}@<ref>`;
}
