// The reference's view of resolved resources (`PackageManager.resolve()`, `ResolvedPaths`), for SDK users who
// wrote against it: every resource with whether it is enabled and where it came from. Built on the inventory
// that `agent config` shows (resource-inventory.ts).
import { dirname } from "node:path";
import { RESOURCE_TYPES, type ResourceType, readPackageManifest } from "../resources/package-manifest.js";
import { isFile } from "../resources/path-probes.js";
import { collectPackageFiles } from "../resources/resource-sources.js";
import type { ConfigurableResource } from "./resource-inventory.js";

/** Where a resolved resource comes from (the reference's shape). */
export interface PathMetadata {
	/** The package source, `"local"` for a settings entry, `"auto"` for an auto-discovered file. */
	source: string;
	scope: "user" | "project" | "temporary";
	origin: "package" | "top-level";
	/** Package root (or the settings file's directory); patterns are relative to it. */
	baseDir?: string;
}

export interface ResolvedResource {
	path: string;
	enabled: boolean;
	metadata: PathMetadata;
}

export type ResolvedPaths = Record<ResourceType, ResolvedResource[]>;

/** What `resolve(onMissing)` does with a configured package that is not on disk. */
export type MissingSourceAction = "install" | "skip" | "error";

export function emptyResolvedPaths(): ResolvedPaths {
	return { extensions: [], skills: [], prompts: [], themes: [] };
}

export function toResolvedPaths(resources: readonly ConfigurableResource[]): ResolvedPaths {
	const resolved = emptyResolvedPaths();
	for (const resource of resources) {
		const { group } = resource;
		resolved[resource.type].push({
			path: resource.path,
			enabled: resource.enabled,
			metadata: {
				source: group.origin === "package" ? (group.source ?? "") : group.origin === "auto" ? "auto" : "local",
				scope: group.scope,
				origin: group.origin === "package" ? "package" : "top-level",
				baseDir: group.baseDir,
			},
		});
	}
	return resolved;
}

/** Adds every resource of the package at `root` (a directory, or one extension file), all enabled. */
export function addPackageResources(
	resolved: ResolvedPaths,
	root: string,
	metadata: Omit<PathMetadata, "baseDir">,
): void {
	if (isFile(root)) {
		resolved.extensions.push({ path: root, enabled: true, metadata: { ...metadata, baseDir: dirname(root) } });
		return;
	}
	const manifest = readPackageManifest(root, []) ?? null;
	for (const type of RESOURCE_TYPES) {
		for (const path of collectPackageFiles(root, type, [], manifest)) {
			resolved[type].push({ path, enabled: true, metadata: { ...metadata, baseDir: root } });
		}
	}
}
