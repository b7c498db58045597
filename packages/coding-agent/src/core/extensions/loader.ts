// Loading extension modules (extensions.md §1 "Loading a module"): TypeScript or JavaScript, imported at run
// time through jiti (no build step for the author), with the host packages resolved to the running copies and
// everything else — the extension's own dependencies — resolved from the extension's directory. Each module's
// default export is called with a fresh `ExtensionAPI`; failures are collected per extension and never stop
// the others.
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { getAgentDir } from "../config/paths.js";
import { createEmptyExtension, createExtensionAPI } from "./api.js";
import { loadHostModules } from "./host-modules.js";
import { ExtensionRuntime } from "./runtime.js";
import type { Extension, ExtensionFactory, ExtensionLoadError } from "./types.js";

export function invalidFactoryText(path: string): string {
	return `Extension does not export a valid factory function: ${path}`;
}

export function failedToLoadText(message: string): string {
	return `Failed to load extension: ${message}`;
}

/** Where compiled extensions are cached: per user, so no one else can plant code in the cache. */
export function getExtensionCacheDir(agentDir: string = getAgentDir()): string {
	return join(agentDir, "cache", "extensions");
}

export interface LoadExtensionsOptions {
	/** Relative paths resolve against it; also the runtime's cwd before a session binds. Default `process.cwd()`. */
	cwd?: string;
	/** Default `~/.agent` (or `$AGENT_DIR`): the compile cache lives below it. */
	agentDir?: string;
	/** Default: the user's home directory (for `~`). */
	homeDir?: string;
	/** The runtime the extensions share; a reload passes the existing one. */
	runtime?: ExtensionRuntime;
	/** SDK factories, loaded after the modules under the paths `<inline:1>`, `<inline:2>`, … */
	factories?: readonly ExtensionFactory[];
	/** Compile cache directory, or false to compile every time. Default `getExtensionCacheDir(agentDir)`. */
	cacheDir?: string | false;
}

export interface LoadExtensionsResult {
	/** Loaded extensions, in load order. */
	extensions: Extension[];
	/** Modules that failed to import or whose factory failed; the others loaded. */
	errors: ExtensionLoadError[];
	runtime: ExtensionRuntime;
}

// Spaces a pasted path may carry (no-break, en/em, ideographic, …) that a file name almost never does.
const UNICODE_SPACES = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\uFEFF]/g;

/** `~` expanded, Unicode spaces made plain, resolved against `cwd`. */
export function resolveExtensionPath(path: string, cwd: string, homeDir: string = homedir()): string {
	let normalized = path.replace(UNICODE_SPACES, " ").trim();
	if (normalized === "~") normalized = homeDir;
	else if (normalized.startsWith("~/")) normalized = join(homeDir, normalized.slice(2));
	return isAbsolute(normalized) ? resolve(normalized) : resolve(cwd, normalized);
}

/** The message of an error, also of one from another realm (a module evaluated in a separate context). */
function errorMessage(error: unknown): string {
	if (error instanceof Error) return error.message;
	if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
		return (error as { message: string }).message;
	}
	return String(error);
}

async function importFactory(resolvedPath: string, options: LoadExtensionsOptions): Promise<unknown> {
	const cacheDir = options.cacheDir ?? getExtensionCacheDir(options.agentDir);
	// Loaded on first use: runs without extensions never pay for the TypeScript loader.
	const { createJiti } = await import("jiti");
	const jiti = createJiti(resolvedPath, {
		// A reload must see edited code: no module cache across imports; the compile cache keys on content.
		moduleCache: false,
		fsCache: cacheDir === false ? false : cacheDir,
		virtualModules: await loadHostModules(),
		interopDefault: true,
	});
	return jiti.import(resolvedPath, { default: true });
}

async function runFactory(
	factory: ExtensionFactory,
	extension: Extension,
	runtime: ExtensionRuntime,
): Promise<ExtensionLoadError | undefined> {
	try {
		await factory(createExtensionAPI(extension, runtime));
		return undefined;
	} catch (error) {
		return { path: extension.path, error: failedToLoadText(errorMessage(error)) };
	}
}

/** Imports one module and runs its factory; the extension's registrations, or why it failed. */
export async function loadExtensionModule(
	path: string,
	runtime: ExtensionRuntime,
	options: LoadExtensionsOptions = {},
): Promise<{ extension?: Extension; error?: ExtensionLoadError }> {
	const resolvedPath = resolveExtensionPath(path, options.cwd ?? process.cwd(), options.homeDir);
	let factory: unknown;
	try {
		factory = await importFactory(resolvedPath, options);
	} catch (error) {
		return { error: { path, error: failedToLoadText(errorMessage(error)) } };
	}
	if (typeof factory !== "function") return { error: { path, error: invalidFactoryText(resolvedPath) } };
	const extension = createEmptyExtension(path, resolvedPath);
	const error = await runFactory(factory as ExtensionFactory, extension, runtime);
	return error ? { error } : { extension };
}

/**
 * Loads extension modules, then SDK factories, in order. A path listed twice (after resolving) loads once.
 * Action methods throw until a session binds the returned runtime.
 */
export async function loadExtensions(
	paths: readonly string[],
	options: LoadExtensionsOptions = {},
): Promise<LoadExtensionsResult> {
	const cwd = options.cwd ?? process.cwd();
	const runtime = options.runtime ?? new ExtensionRuntime({ cwd });
	const extensions: Extension[] = [];
	const errors: ExtensionLoadError[] = [];
	const seen = new Set<string>();
	for (const path of paths) {
		const resolvedPath = resolveExtensionPath(path, cwd, options.homeDir);
		if (seen.has(resolvedPath)) continue;
		seen.add(resolvedPath);
		const { extension, error } = await loadExtensionModule(path, runtime, { ...options, cwd });
		if (extension) extensions.push(extension);
		if (error) errors.push(error);
	}
	let inline = 0;
	for (const factory of options.factories ?? []) {
		const path = `<inline:${++inline}>`;
		const extension = createEmptyExtension(path, path);
		const error = await runFactory(factory, extension, runtime);
		if (error) errors.push(error);
		else extensions.push(extension);
	}
	return { extensions, errors, runtime };
}
