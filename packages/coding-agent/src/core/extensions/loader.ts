// Loading extension modules (docs/extensions.md "Loading"): TypeScript or JavaScript, imported at run
// time through jiti (no build step for the author), with the host packages resolved to the running copies and
// everything else — the extension's own dependencies — resolved from the extension's directory. Each module's
// default export is called with a fresh `ExtensionAPI`; failures are collected per extension and never stop
// the others.
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { getAgentDir } from "../config/paths.js";
import { createEmptyExtension, createExtensionAPI } from "./api.js";
import { scanHostImports } from "./host-imports.js";
import { HOST_PACKAGE_ALIASES, HOST_PACKAGES, type HostPackage, loadHostModules } from "./host-modules.js";
import { ExtensionRuntime } from "./runtime.js";
import type { EventBus, Extension, ExtensionFactory, ExtensionLoadError } from "./types.js";

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
	/** The `pi.events` bus of a new runtime (ignored with `runtime`). Default: a bus of its own. */
	eventBus?: EventBus;
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

type CreateJiti = typeof import("jiti")["createJiti"];
type JitiInstance = ReturnType<CreateJiti>;

/**
 * jiti, loaded on first use (runs without extensions never pay for it) through `require`: its ESM entry
 * imports a 300 kB CommonJS bundle, which Node scans for named exports — about as long as loading ten cached
 * extensions.
 */
async function loadJiti(): Promise<CreateJiti> {
	return (createRequire(import.meta.url)("jiti") as typeof import("jiti")).createJiti;
}

/**
 * Host packages an instance was not given are aliased to this (non-existent) path, so an import the scan
 * missed fails recognizably — and can never resolve to a second copy found in some node_modules. TypeBox is
 * left out: its subpaths (`@sinclair/typebox/compiler`) are legitimate, and two copies work together.
 */
const MISSING_HOST_PACKAGE = "/__agent_host_package_not_loaded__/";

function missingHostAliases(given: ReadonlySet<HostPackage>): Record<string, string> {
	const aliases: Record<string, string> = {};
	for (const name of HOST_PACKAGES) {
		if (given.has(name) || name === "@sinclair/typebox") continue;
		for (const id of HOST_PACKAGE_ALIASES[name]) aliases[id] = `${MISSING_HOST_PACKAGE}${id}`;
	}
	return aliases;
}

/** True when a load failed on a host package it was not given (the scan missed it). */
function missedHostPackage(message: string): boolean {
	return message.includes(MISSING_HOST_PACKAGE);
}

/**
 * Imports extension modules for one load: one jiti instance per set of host packages (usually one for all),
 * sharing the compile cache. Host packages are imported only when some extension uses them.
 */
class ExtensionImporter {
	private readonly instances = new Map<string, Promise<JitiInstance>>();

	constructor(private readonly options: LoadExtensionsOptions) {}

	/** The module's default export, importing the host packages the scan found (or all of them). */
	async importDefault(resolvedPath: string, allHostPackages = false): Promise<unknown> {
		const packages = allHostPackages ? new Set(HOST_PACKAGES) : scanHostImports(resolvedPath);
		return (await this.jiti(packages)).import(resolvedPath, { default: true });
	}

	private jiti(packages: ReadonlySet<HostPackage>): Promise<JitiInstance> {
		const key = [...packages].sort().join(",");
		let instance = this.instances.get(key);
		if (!instance) {
			instance = this.create(packages);
			this.instances.set(key, instance);
		}
		return instance;
	}

	private async create(packages: ReadonlySet<HostPackage>): Promise<JitiInstance> {
		const cacheDir = this.options.cacheDir ?? getExtensionCacheDir(this.options.agentDir);
		const [createJiti, virtualModules] = await Promise.all([loadJiti(), loadHostModules(packages)]);
		return createJiti(join(this.options.cwd ?? process.cwd(), "extension-loader"), {
			// A reload must see edited code: no module cache across imports; the compile cache keys on content.
			moduleCache: false,
			fsCache: cacheDir === false ? false : cacheDir,
			virtualModules,
			alias: missingHostAliases(packages),
			interopDefault: true,
		});
	}
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
	importer: ExtensionImporter = new ExtensionImporter(options),
): Promise<{ extension?: Extension; error?: ExtensionLoadError }> {
	const resolvedPath = resolveExtensionPath(path, options.cwd ?? process.cwd(), options.homeDir);
	const attempt = async (allHostPackages: boolean) => {
		let factory: unknown;
		try {
			factory = await importer.importDefault(resolvedPath, allHostPackages);
		} catch (error) {
			return { error: { path, error: failedToLoadText(errorMessage(error)) } };
		}
		if (typeof factory !== "function") return { error: { path, error: invalidFactoryText(resolvedPath) } };
		const extension = createEmptyExtension(path, resolvedPath);
		const error = await runFactory(factory as ExtensionFactory, extension, runtime);
		return error ? { error } : { extension };
	};
	const first = await attempt(false);
	// The scan missed a host package (imported under a computed name, or by a dependency): once more with all.
	return first.error && missedHostPackage(first.error.error) ? attempt(true) : first;
}

/**
 * Loads extension modules, then SDK factories, in order. A path listed twice (after resolving) loads once.
 * Action methods throw until a session binds the returned runtime.
 */
export async function loadExtensions(
	paths: readonly string[],
	optionsOrCwd: LoadExtensionsOptions | string = {},
	/** With the reference's `loadExtensions(paths, cwd, eventBus?)` form. */
	eventBus?: EventBus,
): Promise<LoadExtensionsResult> {
	const options: LoadExtensionsOptions =
		typeof optionsOrCwd === "string" ? { cwd: optionsOrCwd, ...(eventBus ? { eventBus } : {}) } : optionsOrCwd;
	const cwd = options.cwd ?? process.cwd();
	const runtime =
		options.runtime ?? new ExtensionRuntime({ cwd, ...(options.eventBus ? { eventBus: options.eventBus } : {}) });
	const extensions: Extension[] = [];
	const errors: ExtensionLoadError[] = [];
	const seen = new Set<string>();
	const importer = new ExtensionImporter({ ...options, cwd });
	for (const path of paths) {
		const resolvedPath = resolveExtensionPath(path, cwd, options.homeDir);
		if (seen.has(resolvedPath)) continue;
		seen.add(resolvedPath);
		const { extension, error } = await loadExtensionModule(path, runtime, { ...options, cwd }, importer);
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
