import { createHash } from "node:crypto";
import { join } from "node:path";
import { CONFIG_DIR_NAME } from "../config/paths.js";
import type { PackageSource } from "../config/settings-schema.js";
import { resolveInputPath } from "./input-paths.js";

export type ParsedPackageSource =
	| {
			type: "npm";
			source: string;
			/** What `npm install` is given: `name` or `name@version`. */
			spec: string;
			name: string;
			version?: string;
			pinned: boolean;
	  }
	| {
			type: "git";
			source: string;
			/** What `git clone` is given: the URL without `@ref` (`https://` added to a `host/owner/repo` shorthand). */
			repo: string;
			host: string;
			path: string;
			ref?: string;
			pinned: boolean;
	  }
	| { type: "local"; source: string; path: string };

/** "user": from the user settings; "project": from the project settings; "temporary": from `-e`. */
export type PackageScope = "user" | "project" | "temporary";

function parseNpmSpec(spec: string): { name: string; version?: string } {
	// "@scope/name@1.2.3" — the version separator is the last "@" that is not the scope's leading one.
	const at = spec.lastIndexOf("@");
	if (at > 0) return { name: spec.slice(0, at), version: spec.slice(at + 1) };
	return { name: spec };
}

/** `repo@ref` → both parts; the `@` must come after the last `/` of a path with at least owner/repo. */
function splitRef(path: string): { path: string; ref?: string } {
	const at = path.indexOf("@", path.lastIndexOf("/") + 1);
	if (at <= 0 || at === path.length - 1) return { path };
	return { path: path.slice(0, at), ref: path.slice(at + 1) };
}

const PROTOCOL_URL = /^(https?|ssh|git):\/\//i;

function gitSource(
	source: string,
	host: string,
	rawPath: string,
	cloneUrl: (path: string) => string,
): ParsedPackageSource | undefined {
	const { path, ref } = splitRef(rawPath.replace(/^\/+/, ""));
	const cleanPath = path.replace(/\/+$/, "").replace(/\.git$/, "");
	if (!host || cleanPath.split("/").filter(Boolean).length < 2) return undefined;
	return {
		type: "git",
		source,
		repo: cloneUrl(path.replace(/\/+$/, "")),
		host,
		path: cleanPath,
		...(ref !== undefined ? { ref } : {}),
		pinned: ref !== undefined,
	};
}

/**
 * A git source: protocol URLs (`https://`, `http://`, `ssh://`, `git://`), and with the `git:` prefix also
 * `host/owner/repo` (cloned over https) and `user@host:owner/repo`; each with an optional `@ref`.
 */
function parseGitSource(source: string): ParsedPackageSource | undefined {
	const hasPrefix = source.startsWith("git:") && !source.startsWith("git://");
	const rest = hasPrefix ? source.slice(4).trim() : source;
	const url = /^((?:https?|ssh|git):\/\/)([^/]*)(\/.*)$/i.exec(rest);
	if (url) {
		const [, scheme, authority, path] = url as unknown as [string, string, string, string];
		const host = authority.replace(/^[^@]*@/, "").replace(/:\d+$/, "");
		return gitSource(source, host.toLowerCase(), path, (repoPath) => `${scheme}${authority}/${repoPath}`);
	}
	if (!hasPrefix || PROTOCOL_URL.test(rest)) return undefined;
	const scp = /^([^@/:]+@)([^:/]+):(.+)$/.exec(rest);
	if (scp) {
		const [, user, host, path] = scp as unknown as [string, string, string, string];
		return gitSource(source, host.toLowerCase(), path, (repoPath) => `${user}${host}:${repoPath}`);
	}
	const slash = rest.indexOf("/");
	if (slash < 0) return undefined;
	const host = rest.slice(0, slash);
	if (!host.includes(".") && host !== "localhost") return undefined;
	return gitSource(source, host.toLowerCase(), rest.slice(slash + 1), (repoPath) => `https://${host}/${repoPath}`);
}

/**
 * Classifies a package source: `npm:` ⇒ npm; paths starting with `.`, `/`, `~` (or a Windows drive) ⇒ local;
 * a protocol URL, or with the `git:` prefix a `host/owner/repo` or `user@host:owner/repo` shorthand ⇒ git;
 * anything else is a local path (so a bare `my-pack` is a directory, not an npm package).
 */
export function parsePackageSource(source: string): ParsedPackageSource {
	const trimmed = source.trim();
	if (trimmed.startsWith("npm:")) {
		const spec = trimmed.slice(4).trim();
		const { name, version } = parseNpmSpec(spec);
		return {
			type: "npm",
			source: trimmed,
			spec,
			name,
			...(version !== undefined ? { version } : {}),
			pinned: version !== undefined,
		};
	}
	if (/^[.~/]/.test(trimmed) || /^[A-Za-z]:[\\/]/.test(trimmed) || trimmed.startsWith("\\\\")) {
		return { type: "local", source: trimmed, path: trimmed };
	}
	return parseGitSource(trimmed) ?? { type: "local", source: trimmed, path: trimmed };
}

export function packageSourceString(pkg: PackageSource): string {
	return typeof pkg === "string" ? pkg : pkg.source;
}

/**
 * What makes two sources the same package, whatever the version or ref: the npm name, the git host and path
 * (an https and an ssh URL of one repository match), or the resolved local path.
 */
export function packageIdentity(source: ParsedPackageSource, resolvedLocalPath?: string): string {
	if (source.type === "npm") return `npm:${source.name}`;
	if (source.type === "git") return `git:${source.host}/${source.path}`;
	return `local:${resolvedLocalPath ?? source.path}`;
}

export interface PackageLocations {
	cwd: string;
	agentDir: string;
	homeDir?: string;
	/** Where `-e` packages are cached between runs (default `<agentDir>/cache/packages`). */
	temporaryDir?: string;
}

/** The directory relative local sources of a scope resolve against: `<cwd>/.agent`, `<agentDir>`, or the cwd. */
export function packageBaseDir(scope: PackageScope, locations: PackageLocations): string {
	if (scope === "project") return join(locations.cwd, CONFIG_DIR_NAME);
	if (scope === "user") return locations.agentDir;
	return locations.cwd;
}

/**
 * `<agentDir>/cache/packages`: where `-e` packages are kept between runs. Ours differs: the reference used a
 * directory in the shared system temp dir, where another user could plant a package before the first run.
 */
export function defaultTemporaryPackagesDir(agentDir: string): string {
	return join(agentDir, "cache", "packages");
}

/** The directory below which a scope's npm or git packages are installed. */
export function packageInstallRoot(
	kind: "npm" | "git",
	scope: PackageScope,
	locations: PackageLocations,
	source?: ParsedPackageSource,
): string {
	if (scope === "temporary") {
		// One directory per source, so two `-e` packages never share (or clobber) a node_modules.
		const key = source ? packageIdentity(source) : "";
		const hash = createHash("sha256").update(key).digest("hex").slice(0, 12);
		return join(locations.temporaryDir ?? defaultTemporaryPackagesDir(locations.agentDir), kind, hash);
	}
	const base = scope === "project" ? join(locations.cwd, CONFIG_DIR_NAME) : locations.agentDir;
	return join(base, kind);
}

/**
 * Where a package's files are: a local source is its path (resolved against the scope's base directory); an npm
 * package lives in `<root>/npm/node_modules/<name>` and a git clone in `<root>/git/<host>/<path>`, where the root
 * is `<agentDir>` (user) or `<cwd>/.agent` (project).
 *
 * Ours differs: the reference installs a user's npm packages with `npm install -g`, and asks `npm root -g` at
 * every start-up to find them (a process spawn of a few hundred milliseconds); ours keeps them in `<agentDir>`.
 */
export function packageInstallPath(
	source: ParsedPackageSource,
	scope: PackageScope,
	locations: PackageLocations,
): string {
	switch (source.type) {
		case "local":
			return resolveInputPath(source.path, packageBaseDir(scope, locations), locations.homeDir);
		case "git":
			return join(packageInstallRoot("git", scope, locations, source), source.host, ...source.path.split("/"));
		case "npm":
			return join(packageInstallRoot("npm", scope, locations, source), "node_modules", ...source.name.split("/"));
	}
}

/** Finds where a package's files are; undefined when it is not installed. Installing is the package manager's job. */
export type PackageLocator = (source: ParsedPackageSource, scope: PackageScope) => string | undefined;

export type DefaultPackageLocatorOptions = PackageLocations;

/** The conventional install locations (`packageInstallPath`). */
export function createDefaultPackageLocator(options: DefaultPackageLocatorOptions): PackageLocator {
	return (source, scope) => packageInstallPath(source, scope, options);
}
