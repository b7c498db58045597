import { join } from "node:path";
import { APP_NAME } from "../../config.js";
import { CONFIG_DIR_NAME } from "../config/paths.js";
import type { PackageSource, Settings } from "../config/settings-schema.js";
import type { ResourceDiagnostic } from "./diagnostics.js";
import { resolveExtensionDirectoryEntries } from "./extension-discovery.js";
import { resolveInputPath } from "./input-paths.js";
import { type PackageManifest, RESOURCE_TYPES, type ResourceType, readPackageManifest } from "./package-manifest.js";
import {
	type PackageLocator,
	type PackageScope,
	packageIdentity,
	packageSourceString,
	parsePackageSource,
} from "./package-sources.js";
import { isDirectory, isFile } from "./path-probes.js";
import { collectDirectoryResourceFiles, collectResourceFiles, type ResourceFile } from "./resource-files.js";
import { applyResourcePatterns, isOverridePattern, isResourcePattern } from "./resource-patterns.js";
import { getProjectSkillDirs, getUserSkillDirs } from "./skills.js";

export type ResourceFiles = Record<ResourceType, ResourceFile[]>;
export type ResourceDiagnostics = Record<ResourceType, ResourceDiagnostic[]>;

export interface ResourceSourceOptions {
	cwd: string;
	agentDir: string;
	homeDir: string;
	globalSettings: Settings;
	projectSettings: Settings;
	locatePackage: PackageLocator;
	/** `-e`: extension files, directories or package sources; packages contribute all their resources. */
	cliExtensionSources: string[];
	/** `--skill`, `--prompt-template`, `--theme` paths (resolved against cwd). */
	cliPaths: Partial<Record<ResourceType, string[]>>;
	/** `--no-extensions`, `--no-skills`, … : drop packages, settings and auto-discovery of that type. */
	disabledDiscovery: Partial<Record<ResourceType, boolean>>;
}

export interface GatheredResources {
	files: ResourceFiles;
	diagnostics: ResourceDiagnostics;
	/** Package-level problems (not installed, nothing to load). */
	packageDiagnostics: ResourceDiagnostic[];
}

const emptyByType = <T>(make: () => T): Record<ResourceType, T> => ({
	extensions: make(),
	skills: make(),
	prompts: make(),
	themes: make(),
});

/** What start-up says of a configured npm or git package that is not on disk, and what to do about it. */
export function notInstalledText(source: string, scope: PackageScope): string {
	const command = scope === "project" ? `${APP_NAME} install -l ${source}` : `${APP_NAME} install ${source}`;
	return scope === "temporary"
		? `package "${source}" is not installed`
		: `package "${source}" is not installed (run: ${command})`;
}

/**
 * The files a package provides for one resource type: the entries its package.json lists (patterns among them
 * filter), else its conventional `<type>/` directory. A package without an `extensions` list or directory that
 * has an index file is itself the extension. `manifest`: the package's manifest when the caller read it already
 * (once per package rather than once per type; `null` for none).
 */
export function collectPackageFiles(
	root: string,
	type: ResourceType,
	diagnostics: ResourceDiagnostic[],
	manifest: PackageManifest | null = readPackageManifest(root, diagnostics) ?? null,
): string[] {
	const listed = manifest?.[type];
	if (listed) {
		const plain = listed.filter((entry) => !isResourcePattern(entry));
		const files = plain.flatMap((entry) => collectResourceFiles(type, join(root, entry), "resource", diagnostics));
		return [...applyResourcePatterns(files, listed.filter(isResourcePattern), root)];
	}
	const conventional = join(root, type);
	if (isDirectory(conventional)) return collectDirectoryResourceFiles(type, conventional, diagnostics);
	if (type === "extensions") return resolveExtensionDirectoryEntries(root, []) ?? [];
	return [];
}

/** Collects the resources of packages into `files`, in order; the first of two identical packages is kept. */
function addPackages(
	packages: Array<{ pkg: PackageSource; scope: PackageScope }>,
	options: ResourceSourceOptions,
	result: GatheredResources,
	types: readonly ResourceType[],
): void {
	const seen = new Set<string>();
	for (const { pkg, scope } of packages) {
		const source = parsePackageSource(packageSourceString(pkg));
		const root = options.locatePackage(source, scope);
		const identity = packageIdentity(source, root);
		if (seen.has(identity)) continue;
		seen.add(identity);
		if (source.type === "local" && root && isFile(root)) {
			// A local file given as a package (typically `-e ./ext.ts`) is an extension module.
			if (types.includes("extensions")) {
				const files = collectResourceFiles("extensions", root, "resource", result.diagnostics.extensions);
				result.files.extensions.push(...files.map((path) => ({ path, source: "path", originPath: root, scope })));
			}
			continue;
		}
		if (!root || !isDirectory(root)) {
			result.packageDiagnostics.push({
				type: "warning",
				message:
					source.type === "local"
						? `package path "${source.source}" does not exist`
						: notInstalledText(source.source, scope),
				path: root ?? source.source,
			});
			continue;
		}
		const filter = typeof pkg === "object" ? pkg : undefined;
		let found = 0;
		const manifest = readPackageManifest(root, result.packageDiagnostics) ?? null;
		for (const type of types) {
			const diagnostics = result.diagnostics[type];
			let files = collectPackageFiles(root, type, diagnostics, manifest);
			const patterns = filter?.[type];
			if (patterns !== undefined)
				files = patterns.length === 0 ? [] : [...applyResourcePatterns(files, patterns, root)];
			found += files.length;
			result.files[type].push(...files.map((path) => ({ path, source: "path", originPath: path, scope })));
		}
		if (found === 0 && types.length === RESOURCE_TYPES.length) {
			result.packageDiagnostics.push({
				type: "warning",
				message: `package "${source.source}" provides no extensions, skills, prompts or themes`,
				path: root,
			});
		}
	}
}

interface ScopeInfo {
	scope: "project" | "user";
	baseDir: string;
	settings: Settings;
}

/** Settings entries of one scope: listed paths (globs among the entries filter them). */
function addSettingsEntries(
	type: ResourceType,
	info: ScopeInfo,
	options: ResourceSourceOptions,
	result: GatheredResources,
): void {
	const entries = info.settings[type] ?? [];
	const diagnostics = result.diagnostics[type];
	const files = entries
		.filter((entry) => !isResourcePattern(entry))
		.flatMap((entry) =>
			collectResourceFiles(type, resolveInputPath(entry, info.baseDir, options.homeDir), "resource", diagnostics),
		);
	const enabled = applyResourcePatterns(files, entries.filter(isResourcePattern), info.baseDir);
	result.files[type].push(
		...[...enabled].map((path) => ({ path, source: "path", originPath: path, scope: info.scope })),
	);
}

/** The directories auto-discovery scans for one resource type and scope. */
export function autoDiscoveredDirs(
	type: ResourceType,
	scope: "project" | "user",
	options: { cwd: string; agentDir: string; homeDir: string },
): string[] {
	if (type === "skills") {
		return scope === "project"
			? getProjectSkillDirs(options.cwd, options.homeDir)
			: getUserSkillDirs(options.agentDir, options.homeDir);
	}
	return [join(scope === "project" ? join(options.cwd, CONFIG_DIR_NAME) : options.agentDir, type)];
}

/** Auto-discovered files of one scope; `!`, `+` and `-` entries of that scope's settings enable or disable them. */
function addAutoDiscovered(
	type: ResourceType,
	info: ScopeInfo,
	options: ResourceSourceOptions,
	result: GatheredResources,
): void {
	const diagnostics = result.diagnostics[type];
	const overrides = (info.settings[type] ?? []).filter(isOverridePattern);
	for (const dir of autoDiscoveredDirs(type, info.scope, options)) {
		const files = collectDirectoryResourceFiles(type, dir, diagnostics);
		const enabled = applyResourcePatterns(files, overrides, info.baseDir);
		result.files[type].push(
			...[...enabled].map((path) => ({ path, source: info.scope, originPath: dir, scope: info.scope })),
		);
	}
}

/**
 * Every resource file of every type, in priority order (the first of two resources with one name wins):
 * for skills, prompt templates and themes — packages (project, then user), settings entries (project, then
 * user), auto-discovered (project, then user), `-e` packages, then CLI paths; for extensions — `-e` first,
 * then packages, settings and auto-discovery.
 */
export function gatherResourceFiles(options: ResourceSourceOptions): GatheredResources {
	const result: GatheredResources = {
		files: emptyByType(() => []),
		diagnostics: emptyByType(() => []),
		packageDiagnostics: [],
	};
	const scopes: ScopeInfo[] = [
		{ scope: "project", baseDir: join(options.cwd, CONFIG_DIR_NAME), settings: options.projectSettings },
		{ scope: "user", baseDir: options.agentDir, settings: options.globalSettings },
	];
	const cliPackages = options.cliExtensionSources.map((pkg) => ({ pkg, scope: "temporary" as const }));
	const settingsPackages = scopes.flatMap((info) =>
		(info.settings.packages ?? []).map((pkg) => ({ pkg, scope: info.scope })),
	);
	const discovered = RESOURCE_TYPES.filter((type) => !options.disabledDiscovery[type]);

	// Extensions named with -e come first in extension load order; their other resources come after discovery.
	const cliResources: GatheredResources = {
		files: emptyByType(() => []),
		diagnostics: result.diagnostics,
		packageDiagnostics: result.packageDiagnostics,
	};
	addPackages(cliPackages, options, cliResources, RESOURCE_TYPES);
	result.files.extensions.push(...cliResources.files.extensions);

	addPackages(settingsPackages, options, result, discovered);
	for (const type of discovered) {
		for (const info of scopes) addSettingsEntries(type, info, options, result);
	}
	for (const type of discovered) {
		for (const info of scopes) addAutoDiscovered(type, info, options, result);
	}
	for (const type of ["skills", "prompts", "themes"] as const) {
		result.files[type].push(...cliResources.files[type]);
		for (const path of options.cliPaths[type] ?? []) {
			const resolved = resolveInputPath(path, options.cwd, options.homeDir);
			const files = collectResourceFiles(type, resolved, "explicit", result.diagnostics[type]);
			result.files[type].push(...files.map((file) => ({ path: file, source: "path", originPath: resolved })));
		}
	}
	return result;
}
