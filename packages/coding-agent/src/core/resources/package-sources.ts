import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { CONFIG_DIR_NAME } from "../config/paths.js";
import type { PackageSource } from "../config/settings-schema.js";
import { resolveInputPath } from "./input-paths.js";

export type ParsedPackageSource =
	| { type: "npm"; source: string; name: string; pinned: boolean }
	| { type: "git"; source: string; host: string; path: string; pinned: boolean }
	| { type: "local"; source: string; path: string };

/** "user": from the user settings; "project": from the project settings; "temporary": from `-e`. */
export type PackageScope = "user" | "project" | "temporary";

function parseNpmSpec(spec: string): { name: string; version?: string } {
	// "@scope/name@1.2.3" — the version separator is the last "@" that is not the scope's leading one.
	const at = spec.lastIndexOf("@");
	if (at > 0) return { name: spec.slice(0, at), version: spec.slice(at + 1) };
	return { name: spec };
}

function splitRef(path: string): { path: string; ref?: string } {
	const at = path.lastIndexOf("@");
	return at > 0 ? { path: path.slice(0, at), ref: path.slice(at + 1) } : { path };
}

function parseGitSource(source: string): ParsedPackageSource | undefined {
	const rest = source.startsWith("git:") ? source.slice(4) : source;
	const url = /^(?:https?|ssh|git):\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+)$/.exec(rest);
	const scp = /^(?:[^@/]+@)([^:/]+):(.+)$/.exec(rest);
	const shorthand = /^([a-z0-9.-]+\.[a-z]{2,})\/(.+)$/i.exec(rest);
	const match = url ?? scp ?? shorthand;
	if (!match) return undefined;
	const host = match[1]!;
	const { path, ref } = splitRef(match[2]!);
	const cleanPath = path.replace(/\.git$/, "").replace(/\/+$/, "");
	if (!cleanPath.includes("/")) return undefined;
	return { type: "git", source, host, path: cleanPath, pinned: ref !== undefined };
}

/**
 * Classifies a package source: `npm:` ⇒ npm; paths starting with `.`, `/`, `~` (or a Windows drive) ⇒ local;
 * otherwise a git URL or `host/user/repo` shorthand if it parses as one, else a local path.
 */
export function parsePackageSource(source: string): ParsedPackageSource {
	const trimmed = source.trim();
	if (trimmed.startsWith("npm:")) {
		const { name, version } = parseNpmSpec(trimmed.slice(4).trim());
		return { type: "npm", source: trimmed, name, pinned: version !== undefined };
	}
	if (/^[.~/]/.test(trimmed) || /^[A-Za-z]:[\\/]/.test(trimmed) || trimmed.startsWith("\\\\")) {
		return { type: "local", source: trimmed, path: trimmed };
	}
	return parseGitSource(trimmed) ?? { type: "local", source: trimmed, path: trimmed };
}

export function packageSourceString(pkg: PackageSource): string {
	return typeof pkg === "string" ? pkg : pkg.source;
}

/** Finds where a package's files are; undefined when it is not installed. Installing is the package manager's job. */
export type PackageLocator = (source: ParsedPackageSource, scope: PackageScope) => string | undefined;

export interface DefaultPackageLocatorOptions {
	cwd: string;
	agentDir: string;
	homeDir?: string;
}

/**
 * Where packages are installed: local paths resolve against the settings file's directory (`<cwd>/.agent` or
 * `<agentDir>`); git clones live in `<base>/git/<host>/<path>`; npm packages in `<cwd>/.agent/npm/node_modules`
 * (project) or the global npm root (user; asked of `npm root -g` once, only when such a package is configured).
 */
export function createDefaultPackageLocator(options: DefaultPackageLocatorOptions): PackageLocator {
	const projectBase = join(options.cwd, CONFIG_DIR_NAME);
	let globalNpmRoot: string | null | undefined;
	const getGlobalNpmRoot = (): string | undefined => {
		if (globalNpmRoot === undefined) {
			try {
				globalNpmRoot =
					execFileSync("npm", ["root", "-g"], {
						encoding: "utf8",
						timeout: 5000,
						stdio: ["ignore", "pipe", "ignore"],
					}).trim() || null;
			} catch {
				globalNpmRoot = null;
			}
		}
		return globalNpmRoot ?? undefined;
	};
	return (source, scope) => {
		const base = scope === "project" ? projectBase : scope === "user" ? options.agentDir : options.cwd;
		switch (source.type) {
			case "local":
				return resolveInputPath(source.path, base, options.homeDir);
			case "git":
				return scope === "temporary" ? undefined : join(base, "git", source.host, source.path);
			case "npm": {
				if (scope === "project") return join(projectBase, "npm", "node_modules", source.name);
				if (scope === "temporary") return undefined;
				const root = getGlobalNpmRoot();
				return root ? join(root, source.name) : undefined;
			}
		}
	};
}
