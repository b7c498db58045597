// The `packages` arrays of the two settings files as the package commands see them: which entry a source on
// the command line means, and how a new one is written.
import { isAbsolute, relative } from "node:path";
import type { SettingsManager } from "../config/settings-manager.js";
import type { PackageSource } from "../config/settings-schema.js";
import { resolveInputPath } from "../resources/input-paths.js";
import {
	type PackageLocations,
	packageBaseDir,
	packageIdentity,
	packageSourceString,
	parsePackageSource,
} from "../resources/package-sources.js";

/** A settings file's scope as the package commands name it (`-l` is "project"). */
export type InstallScope = "user" | "project";

/**
 * A scope's `packages` as written in its file, also while an untrusted project's are held back (listing or
 * removing them runs nothing).
 */
export function readScopePackages(settingsManager: SettingsManager, scope: InstallScope): PackageSource[] {
	if (scope === "user") return settingsManager.getGlobalSettings().packages ?? [];
	if (settingsManager.isProjectTrusted()) return settingsManager.getProjectSettings().packages ?? [];
	const heldBack = settingsManager.getHeldBackProjectSettings().find((setting) => setting.key === "packages");
	return Array.isArray(heldBack?.value) ? (heldBack.value as PackageSource[]) : [];
}

export function writeScopePackages(
	settingsManager: SettingsManager,
	scope: InstallScope,
	packages: PackageSource[],
): void {
	if (scope === "project") settingsManager.setProjectPackages(packages);
	else settingsManager.setPackages(packages);
}

/** The identity of a source typed on the command line: a local path is relative to the working directory. */
export function commandLineIdentity(source: string, locations: PackageLocations): string {
	const parsed = parsePackageSource(source);
	if (parsed.type !== "local") return packageIdentity(parsed);
	return packageIdentity(parsed, resolveInputPath(parsed.path, locations.cwd, locations.homeDir));
}

/** The identity of a settings entry: a local path is relative to its settings file's directory. */
export function settingsIdentity(entry: PackageSource, scope: InstallScope, locations: PackageLocations): string {
	const parsed = parsePackageSource(packageSourceString(entry));
	if (parsed.type !== "local") return packageIdentity(parsed);
	const base = packageBaseDir(scope, locations);
	return packageIdentity(parsed, resolveInputPath(parsed.path, base, locations.homeDir));
}

/**
 * How a command-line source is written to a scope's settings: npm and git sources as typed; a relative local
 * path made relative to the settings file's directory (the reference's rule), an absolute or `~` path kept.
 */
export function sourceForSettings(source: string, scope: InstallScope, locations: PackageLocations): string {
	const parsed = parsePackageSource(source);
	if (parsed.type !== "local" || isAbsolute(parsed.path) || parsed.path.startsWith("~")) return parsed.source;
	const resolved = resolveInputPath(parsed.path, locations.cwd, locations.homeDir);
	return relative(packageBaseDir(scope, locations), resolved) || ".";
}

/**
 * The scope's packages with `source` added. An entry for the same package is replaced in place (keeping its
 * filters): installing `npm:x@2` over `npm:x@1` leaves one entry, for the version on disk.
 */
export function withPackageAdded(
	packages: readonly PackageSource[],
	source: string,
	scope: InstallScope,
	locations: PackageLocations,
): PackageSource[] {
	const identity = commandLineIdentity(source, locations);
	const written = sourceForSettings(source, scope, locations);
	const index = packages.findIndex((entry) => settingsIdentity(entry, scope, locations) === identity);
	if (index < 0) return [...packages, written];
	const next = [...packages];
	const existing = next[index] as PackageSource;
	next[index] = typeof existing === "string" ? written : { ...existing, source: written };
	return next;
}

/** The scope's packages without the entries for `source`'s package. */
export function withPackageRemoved(
	packages: readonly PackageSource[],
	source: string,
	scope: InstallScope,
	locations: PackageLocations,
): PackageSource[] {
	const identity = commandLineIdentity(source, locations);
	return packages.filter((entry) => settingsIdentity(entry, scope, locations) !== identity);
}
