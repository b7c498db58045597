// Extensions as authors write them: real `.ts` files in a temp directory, loaded through the real loader (jiti),
// and a real AgentSession on the scripted FauxProvider with the runner as its hooks.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach } from "vitest";
import type { ExtensionError } from "../../src/core/extensions/hooks.js";
import { type LoadExtensionsResult, loadExtensions } from "../../src/core/extensions/loader.js";
import { ExtensionRunner, type ExtensionRunnerOptions } from "../../src/core/extensions/runner.js";
import type { ExtensionFactory } from "../../src/core/extensions/types.js";
import {
	createNoopUIContext,
	type DialogOptions,
	type ExtensionUIContext,
} from "../../src/core/extensions/ui-context.js";
import { createRuntimeHarness, type RuntimeHarness, type RuntimeHarnessOptions } from "./runtime-harness.js";

/** A temp directory tree: `root/project` is the cwd, `root/agent-home` the agent dir. */
export interface ExtensionWorld {
	root: string;
	cwd: string;
	agentDir: string;
	cacheDir: string;
	/** Writes files relative to the root; returns the absolute path of the first one. */
	write(files: Record<string, string>): string;
	path(relative: string): string;
	cleanup(): void;
}

export function createExtensionWorld(): ExtensionWorld {
	const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-ext-")));
	const cwd = join(root, "project");
	const agentDir = join(root, "agent-home");
	mkdirSync(cwd, { recursive: true });
	mkdirSync(agentDir, { recursive: true });
	const path = (relative: string) => resolve(root, relative);
	return {
		root,
		cwd,
		agentDir,
		cacheDir: join(root, "jiti-cache"),
		path,
		write(files) {
			let first: string | undefined;
			for (const [relative, content] of Object.entries(files)) {
				const target = path(relative);
				mkdirSync(dirname(target), { recursive: true });
				writeFileSync(target, content);
				first ??= target;
			}
			return first ?? root;
		},
		cleanup: () => rmSync(root, { recursive: true, force: true }),
	};
}

/** Loads extension files of `world` (paths relative to its root, or absolute). */
export function loadWorldExtensions(
	world: ExtensionWorld,
	paths: readonly string[],
	options: { factories?: ExtensionFactory[] } = {},
): Promise<LoadExtensionsResult> {
	return loadExtensions(
		paths.map((path) => world.path(path)),
		{ cwd: world.cwd, agentDir: world.agentDir, cacheDir: world.cacheDir, ...options },
	);
}

/** What a scripted UI was asked, in order. */
export interface UiCall {
	method: string;
	args: unknown[];
}

/** A UI that records every call and answers dialogs from a script (or with the defaults). */
export interface RecordingUI extends ExtensionUIContext {
	calls: UiCall[];
	answers: { select?: string; confirm?: boolean; input?: string; editor?: string };
}

export function createRecordingUI(): RecordingUI {
	const calls: UiCall[] = [];
	const answers: RecordingUI["answers"] = {};
	const base = createNoopUIContext();
	const record =
		<A extends unknown[], R>(method: string, result: (...args: A) => R) =>
		(...args: A): R => {
			calls.push({ method, args });
			return result(...args);
		};
	return {
		...base,
		calls,
		answers,
		select: record("select", async (_t: string, _o: string[], _opts?: DialogOptions) => answers.select),
		confirm: record("confirm", async (_t: string, _m: string, _opts?: DialogOptions) => answers.confirm ?? false),
		input: record("input", async (_t: string, _p?: string, _opts?: DialogOptions) => answers.input),
		editor: record("editor", async (_t: string, _p?: string) => answers.editor),
		notify: record("notify", () => {}),
		setStatus: record("setStatus", () => {}),
		setWidget: record("setWidget", () => {}),
		setTitle: record("setTitle", () => {}),
		setWorkingMessage: record("setWorkingMessage", () => {}),
	};
}

export interface ExtensionSessionOptions extends Omit<RuntimeHarnessOptions, "hooks" | "root"> {
	/** Extension files to write, relative to the world root; all `.ts`/`.js` files among them are loaded. */
	extensions: Record<string, string>;
	/** Loaded in this order instead (paths relative to the root). */
	load?: string[];
	factories?: ExtensionFactory[];
	runner?: Omit<ExtensionRunnerOptions, "cwd" | "modelRegistry">;
	/** Default true: bind a recording UI with `hasUI` true. */
	ui?: boolean;
	/** Default true: emit session_start / resources_discover as a mode would. */
	bind?: boolean;
}

export interface ExtensionSession {
	world: ExtensionWorld;
	harness: RuntimeHarness;
	runner: ExtensionRunner;
	loaded: LoadExtensionsResult;
	ui: RecordingUI;
	/** Every error the runner reported (with stacks). */
	errors: ExtensionError[];
	dispose(): void;
}

/** Writes the extensions, loads them, starts a faux-provider session with the runner as its hooks. */
export async function startExtensionSession(options: ExtensionSessionOptions): Promise<ExtensionSession> {
	const world = createExtensionWorld();
	world.write(options.extensions);
	const paths = options.load ?? Object.keys(options.extensions).filter((path) => /\.(ts|js)$/.test(path));
	const loaded = await loadWorldExtensions(world, paths, options.factories ? { factories: options.factories } : {});
	const runner = new ExtensionRunner(loaded, { cwd: world.cwd, ...options.runner });
	const errors: ExtensionError[] = [];
	runner.onError((error) => errors.push(error));
	const ui = createRecordingUI();
	if (options.ui !== false) runner.setUIContext(ui, true);
	const { extensions: _e, load: _l, factories: _f, runner: _r, ui: _u, bind: _b, ...harnessOptions } = options;
	const harness = await createRuntimeHarness({ ...harnessOptions, root: world.root, hooks: runner });
	if (options.bind !== false) await harness.session.bindExtensions();
	return {
		world,
		harness,
		runner,
		loaded,
		ui,
		errors,
		dispose: () => {
			harness.dispose();
			world.cleanup();
		},
	};
}

/**
 * Call at a test file's top level. The returned `start` empties the extension log and starts a session; after
 * each test the session started last is disposed and the log emptied.
 */
export function createExtensionSessionStarter(): (options: ExtensionSessionOptions) => Promise<ExtensionSession> {
	let active: ExtensionSession | undefined;
	afterEach(() => {
		active?.dispose();
		active = undefined;
		resetExtensionLog();
	});
	return async (options) => {
		resetExtensionLog();
		active = await startExtensionSession(options);
		return active;
	};
}

/** A snippet that records events into `globalThis.__extensionLog` (the test reads it back). */
export const LOG_PRELUDE = `
const log: unknown[] = ((globalThis as Record<string, unknown>).__extensionLog ??= []) as unknown[];
`;

export function extensionLog(): unknown[] {
	const store = globalThis as Record<string, unknown>;
	if (!Array.isArray(store.__extensionLog)) store.__extensionLog = [];
	return store.__extensionLog as unknown[];
}

/** Empties the log in place (loaded extensions hold on to the array). */
export function resetExtensionLog(): void {
	extensionLog().length = 0;
}
