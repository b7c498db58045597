// What `agent config` shows and changes: every extension, skill, prompt template and theme that packages, the
// settings' resource arrays and the auto-discovered directories offer, each with whether it is enabled — and the
// settings change that turns one on or off (`+path` / `-path` entries, as the reference writes them).
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { CONFIG_DIR_NAME } from "../config/paths.js";
import type { SettingsManager } from "../config/settings-manager.js";
import type { PackageSource } from "../config/settings-schema.js";
import type { ResourceDiagnostic } from "../resources/diagnostics.js";
import { resolveInputPath, toPosixPath } from "../resources/input-paths.js";
import { RESOURCE_TYPES, type ResourceType, readPackageManifest } from "../resources/package-manifest.js";
import {
	type PackageLocator,
	packageIdentity,
	packageInstallPath,
	packageSourceString,
	parsePackageSource,
} from "../resources/package-sources.js";
import { isDirectory } from "../resources/path-probes.js";
import { collectDirectoryResourceFiles, collectResourceFiles } from "../resources/resource-files.js";
import { applyResourcePatterns, isOverridePattern, isResourcePattern } from "../resources/resource-patterns.js";
import { autoDiscoveredDirs, collectPackageFiles } from "../resources/resource-sources.js";
import { type InstallScope, readScopePackages } from "./package-settings.js";

/** Where a group of resources comes from: one package, a scope's settings entries, or its auto-discovered dirs. */
export interface ResourceGroup {
	origin: "package" | "settings" | "auto";
	scope: InstallScope;
	/** The package source as written in the settings (packages only). */
	source?: string;
	/** Patterns of this group are relative to it: the package root, or the settings file's directory. */
	baseDir: string;
}

export interface ConfigurableResource {
	type: ResourceType;
	path: string;
	enabled: boolean;
	group: ResourceGroup;
}

export interface InventoryOptions {
	cwd: string;
	agentDir: string;
	settingsManager: SettingsManager;
	homeDir?: string;
	locatePackage?: PackageLocator;
}

function scopeBaseDir(scope: InstallScope, options: { cwd: string; agentDir: string }): string {
	return scope === "project" ? join(options.cwd, CONFIG_DIR_NAME) : options.agentDir;
}

/** A scope's resource array as written, also an untrusted project's held-back `extensions`. */
function readScopeEntries(settingsManager: SettingsManager, scope: InstallScope, type: ResourceType): string[] {
	if (scope === "user") return settingsManager.getGlobalSettings()[type] ?? [];
	const heldBack = settingsManager.getHeldBackProjectSettings().find((setting) => setting.key === type);
	if (Array.isArray(heldBack?.value)) return heldBack.value as string[];
	return settingsManager.getProjectSettings()[type] ?? [];
}

/** Every resource on offer, enabled or not: packages (project, then user), settings entries, auto-discovery. */
export function listConfigurableResources(options: InventoryOptions): ConfigurableResource[] {
	const homeDir = options.homeDir ?? homedir();
	const locations = { cwd: options.cwd, agentDir: options.agentDir, homeDir };
	const locate = options.locatePackage ?? ((source, scope) => packageInstallPath(source, scope, locations));
	const diagnostics: ResourceDiagnostic[] = [];
	const resources: ConfigurableResource[] = [];
	const scopes: InstallScope[] = ["project", "user"];

	const seenPackages = new Set<string>();
	for (const scope of scopes) {
		for (const entry of readScopePackages(options.settingsManager, scope)) {
			const parsed = parsePackageSource(packageSourceString(entry));
			const root = locate(parsed, scope);
			const identity = packageIdentity(parsed, root);
			if (!root || seenPackages.has(identity) || !isDirectory(root)) continue;
			seenPackages.add(identity);
			const group: ResourceGroup = { origin: "package", scope, source: parsed.source, baseDir: root };
			const manifest = readPackageManifest(root, diagnostics) ?? null;
			for (const type of RESOURCE_TYPES) {
				const files = collectPackageFiles(root, type, diagnostics, manifest);
				const patterns = typeof entry === "object" ? entry[type] : undefined;
				const enabled =
					patterns === undefined
						? new Set(files)
						: patterns.length === 0
							? new Set<string>()
							: applyResourcePatterns(files, patterns, root);
				for (const path of files) resources.push({ type, path, enabled: enabled.has(path), group });
			}
		}
	}

	for (const scope of scopes) {
		const baseDir = scopeBaseDir(scope, options);
		for (const type of RESOURCE_TYPES) {
			const entries = readScopeEntries(options.settingsManager, scope, type);
			const listed = entries
				.filter((entry) => !isResourcePattern(entry))
				.flatMap((entry) =>
					collectResourceFiles(type, resolveInputPath(entry, baseDir, homeDir), "resource", diagnostics),
				);
			const enabledListed = applyResourcePatterns(listed, entries.filter(isResourcePattern), baseDir);
			const group: ResourceGroup = { origin: "settings", scope, baseDir };
			for (const path of listed) resources.push({ type, path, enabled: enabledListed.has(path), group });

			const overrides = entries.filter(isOverridePattern);
			const auto: ResourceGroup = { origin: "auto", scope, baseDir };
			for (const dir of autoDiscoveredDirs(type, scope, locations)) {
				const files = collectDirectoryResourceFiles(type, dir, diagnostics);
				const enabled = applyResourcePatterns(files, overrides, baseDir);
				for (const path of files) resources.push({ type, path, enabled: enabled.has(path), group: auto });
			}
		}
	}
	return resources;
}

/** The `+path` / `-path` pattern naming one resource, relative to its group's base directory. */
export function resourcePattern(resource: ConfigurableResource): string {
	return toPosixPath(relative(resource.group.baseDir, resource.path));
}

/** A resource array with the resource's own `+`/`-`/`!` entries replaced by one that turns it on or off. */
export function withResourceToggled(entries: readonly string[], pattern: string, enabled: boolean): string[] {
	const kept = entries.filter((entry) => !(/^[!+-]/.test(entry) && entry.slice(1) === pattern));
	return [...kept, `${enabled ? "+" : "-"}${pattern}`];
}

/**
 * Turns a resource on or off in the settings file of its scope: a package's entry becomes (or stays) an object
 * with a filter for that kind; settings entries and auto-discovered files get a `+path`/`-path` entry in the
 * scope's resource array. Returns false when the package entry is no longer in the settings.
 */
export function setResourceEnabled(
	settingsManager: SettingsManager,
	resource: ConfigurableResource,
	enabled: boolean,
): boolean {
	const { group, type } = resource;
	const pattern = resourcePattern(resource);
	if (group.origin === "package") {
		const packages: PackageSource[] = [...readScopePackages(settingsManager, group.scope)];
		const index = packages.findIndex((entry) => packageSourceString(entry) === group.source);
		if (index < 0) return false;
		const current = packages[index] as PackageSource;
		const entry = typeof current === "string" ? { source: current } : { ...current };
		// An empty list means none of this kind: turning one on must leave the others off.
		const existing = entry[type];
		entry[type] = withResourceToggled(existing?.length === 0 ? ["!**"] : (existing ?? []), pattern, enabled);
		packages[index] = entry;
		if (group.scope === "project") settingsManager.setProjectPackages(packages);
		else settingsManager.setPackages(packages);
		return true;
	}
	const entries = readScopeEntries(settingsManager, group.scope, type);
	const next = withResourceToggled(entries, pattern, enabled);
	if (group.scope === "project") settingsManager.setProjectResourcePaths(type, next);
	else settingsManager.setResourcePaths(type, next);
	return true;
}
