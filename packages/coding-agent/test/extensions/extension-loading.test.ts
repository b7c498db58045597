import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCliExtensions } from "../../src/cli/extension-startup.js";
import type { CliIo } from "../../src/cli/help.js";
import { AuthStorage } from "../../src/core/config/auth-storage.js";
import { ModelRegistry } from "../../src/core/config/model-registry.js";
import { SettingsManager } from "../../src/core/config/settings-manager.js";
import { loadExtensions } from "../../src/core/extensions/loader.js";
import { ExtensionRunner } from "../../src/core/extensions/runner.js";
import { RUNTIME_NOT_INITIALIZED_TEXT, SET_MODEL_NOT_INITIALIZED_TEXT } from "../../src/core/extensions/runtime.js";
import { extensionLoadFailureText } from "../../src/core/extensions/setup.js";
import { DefaultResourceLoader } from "../../src/core/resources/resource-loader.js";
import { RESERVED_SHORTCUT_ACTIONS } from "../../src/modes/interactive/keybindings.js";
import { createExtensionWorld, type ExtensionWorld, loadWorldExtensions } from "../helpers/extension-harness.js";

let world: ExtensionWorld;
afterEach(() => world?.cleanup());

describe("loading TypeScript without a build step", () => {
	it("loads a .ts extension that imports its own node_modules and the host packages under both names", async () => {
		world = createExtensionWorld();
		world.write({
			"ext/index.ts": `
				import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
				import { Type } from "@sinclair/typebox";
				import { StringEnum } from "@mariozechner/pi-ai";
				import * as ours from "@agent/coding-agent";
				import { Text } from "@mariozechner/pi-tui";
				import shout from "shout";
				import { twice } from "esm-helper";
				interface Greeting { text: string }
				export default function (pi: ExtensionAPI) {
					const greeting: Greeting = { text: twice(shout("hi")) };
					pi.registerTool({
						name: "greet",
						label: "Greet",
						description: greeting.text + ":" + typeof ours.ExtensionRunner + ":" + typeof Text,
						parameters: Type.Object({ mode: StringEnum(["a", "b"] as const) }),
						async execute() { return { content: [{ type: "text", text: "ok" }], details: undefined }; },
					});
				}
			`,
			"ext/node_modules/shout/package.json": JSON.stringify({ name: "shout", main: "index.js" }),
			"ext/node_modules/shout/index.js": "module.exports = (s) => s.toUpperCase();",
			"ext/node_modules/esm-helper/package.json": JSON.stringify({
				name: "esm-helper",
				type: "module",
				exports: "./index.js",
			}),
			"ext/node_modules/esm-helper/index.js": "export const twice = (s) => s + s;",
		});
		const loaded = await loadWorldExtensions(world, ["ext/index.ts"]);
		expect(loaded.errors).toEqual([]);
		const tool = loaded.extensions[0]?.tools.get("greet");
		expect(tool?.definition.description).toBe("HIHI:function:function");
		// The schema comes from the running TypeBox: the enum helper of the running @agent/ai built it.
		expect(JSON.stringify(tool?.definition.parameters)).toContain('"enum":["a","b"]');
	});

	it("gives extensions the running copies of the host packages, not second instances", async () => {
		world = createExtensionWorld();
		world.write({
			"same.ts": `
				import * as ai from "@mariozechner/pi-ai";
				import * as ours from "@agent/ai";
				export default function () {
					(globalThis as Record<string, unknown>).__hostModules = { ai, ours };
				}
			`,
		});
		const loaded = await loadWorldExtensions(world, ["same.ts"]);
		expect(loaded.errors).toEqual([]);
		const seen = (globalThis as Record<string, unknown>).__hostModules as { ai: unknown; ours: unknown };
		const running = await import("@agent/ai");
		// jiti wraps each namespace for default-export interop; what it wraps is the running module.
		expect((seen.ai as typeof running).registerApiProvider).toBe(running.registerApiProvider);
		expect((seen.ours as typeof running).registerApiProvider).toBe(running.registerApiProvider);
	});

	it("finds host packages imported by local helper files, and ones named only at run time", async () => {
		world = createExtensionWorld();
		world.write({
			"multi/index.ts": `
				import type { ExtensionAPI } from "@agent/coding-agent";
				import { describeTool } from "./lib/describe.js";
				export default async function (pi: ExtensionAPI) {
					const name = ["@agent", "tui"].join("/");
					const tui = await import(name);
					pi.registerCommand("multi", { description: describeTool() + "+" + typeof tui.Text, handler: async () => {} });
				}
			`,
			"multi/lib/describe.ts": `
				import { Type } from "@mariozechner/pi-ai";
				export const describeTool = (): string => typeof Type.Object;
			`,
		});
		const loaded = await loadWorldExtensions(world, ["multi/index.ts"]);
		expect(loaded.errors).toEqual([]);
		expect(loaded.extensions[0]?.commands.get("multi")?.description).toBe("function+function");
	});

	it("caches compiled modules on disk, and the next start runs the cached code without compiling", async () => {
		world = createExtensionWorld();
		world.write({
			"cached.ts": `export default (pi: any): void => { const name: string = "fromSource"; pi.registerCommand(name, { handler() {} }); };`,
		});
		const first = await loadWorldExtensions(world, ["cached.ts"]);
		expect([...(first.extensions[0]?.commands.keys() ?? [])]).toEqual(["fromSource"]);
		const cached = readdirSync(world.cacheDir).map((name) => join(world.cacheDir, name));
		expect(cached).toHaveLength(1);
		// Edit the compiled output: if the second load used it, it did not compile the source again.
		const file = cached[0] as string;
		writeFileSync(file, readFileSync(file, "utf8").replace('"fromSource"', '"fromCache"'));
		const second = await loadWorldExtensions(world, ["cached.ts"]);
		expect([...(second.extensions[0]?.commands.keys() ?? [])]).toEqual(["fromCache"]);
	});

	it("re-imports edited code on every load (module caching is off, for /reload)", async () => {
		world = createExtensionWorld();
		const path = world.write({
			"edit.ts": `export default (pi: any) => pi.registerCommand("v1", { handler() {} });`,
		});
		const first = await loadWorldExtensions(world, ["edit.ts"]);
		writeFileSync(path, `export default (pi: any) => pi.registerCommand("v2", { handler() {} });`);
		const second = await loadWorldExtensions(world, ["edit.ts"]);
		expect([...(first.extensions[0]?.commands.keys() ?? [])]).toEqual(["v1"]);
		expect([...(second.extensions[0]?.commands.keys() ?? [])]).toEqual(["v2"]);
	});
});

describe("load failures", () => {
	it("reports a module without a factory, a module that fails to import and a factory that throws; the rest loads", async () => {
		world = createExtensionWorld();
		world.write({
			"a-not-a-function.ts": "export default 42;",
			"b-syntax.ts": "export default function ( {",
			"c-missing-dependency.ts": `import "no-such-package"; export default () => {};`,
			"d-throws.ts": `export default () => { throw new Error("factory exploded"); };`,
			"e-fine.ts": `export default (pi: any) => pi.registerCommand("fine", { handler() {} });`,
		});
		const loaded = await loadWorldExtensions(world, [
			"a-not-a-function.ts",
			"b-syntax.ts",
			"c-missing-dependency.ts",
			"d-throws.ts",
			"e-fine.ts",
		]);
		expect(loaded.extensions.map((extension) => extension.path)).toEqual([world.path("e-fine.ts")]);
		expect(loaded.errors.map((error) => error.path)).toEqual([
			world.path("a-not-a-function.ts"),
			world.path("b-syntax.ts"),
			world.path("c-missing-dependency.ts"),
			world.path("d-throws.ts"),
		]);
		const [notFunction, syntax, missing, throws] = loaded.errors.map((error) => error.error);
		expect(notFunction).toBe(
			`Extension does not export a valid factory function: ${world.path("a-not-a-function.ts")}`,
		);
		expect(syntax).toMatch(/^Failed to load extension: /);
		expect(missing).toMatch(/^Failed to load extension: .*no-such-package/);
		expect(throws).toBe("Failed to load extension: factory exploded");
	});

	it("loads a path given twice once, resolving relative paths, ~ and Unicode spaces", async () => {
		world = createExtensionWorld();
		world.write({ "project/twice.ts": `export default (pi: any) => pi.registerCommand("t", { handler() {} });` });
		const loaded = await loadExtensions(
			["twice.ts", "./twice.ts", world.path("project/twice.ts"), "twice\u00A0.ts"],
			{
				cwd: world.cwd,
				cacheDir: world.cacheDir,
			},
		);
		expect(loaded.extensions).toHaveLength(1);
		// The no-break space became a plain space: a different (missing) file, reported on its own.
		expect(loaded.errors).toHaveLength(1);
		expect(loaded.errors[0]?.error).toMatch(/^Failed to load extension: /);
	});

	it("names SDK factories <inline:N> and loads them after the modules", async () => {
		world = createExtensionWorld();
		world.write({ "file.ts": `export default (pi: any) => pi.registerCommand("file", { handler() {} });` });
		const loaded = await loadWorldExtensions(world, ["file.ts"], {
			factories: [
				(pi) => pi.registerCommand("one", { handler() {} }),
				() => {
					throw new Error("inline failure");
				},
			],
		});
		expect(loaded.extensions.map((extension) => extension.path)).toEqual([world.path("file.ts"), "<inline:1>"]);
		expect(loaded.errors).toEqual([{ path: "<inline:2>", error: "Failed to load extension: inline failure" }]);
	});
});

describe("runtime binding", () => {
	it("refuses every action method while loading, with the reference's message, and allows registration", async () => {
		world = createExtensionWorld();
		world.write({
			"actions.ts": `
				export default async function (pi: any) {
					const refused: Record<string, string> = {};
					const actions: [string, () => unknown][] = [
						["sendMessage", () => pi.sendMessage({ customType: "x", content: "y", display: true })],
						["sendUserMessage", () => pi.sendUserMessage("hi")],
						["appendEntry", () => pi.appendEntry("x", {})],
						["setSessionName", () => pi.setSessionName("n")],
						["getSessionName", () => pi.getSessionName()],
						["setLabel", () => pi.setLabel("id", "l")],
						["getActiveTools", () => pi.getActiveTools()],
						["getAllTools", () => pi.getAllTools()],
						["setActiveTools", () => pi.setActiveTools([])],
						["getCommands", () => pi.getCommands()],
						["getThinkingLevel", () => pi.getThinkingLevel()],
						["setThinkingLevel", () => pi.setThinkingLevel("low")],
					];
					for (const [name, action] of actions) {
						try { action(); refused[name] = "allowed"; } catch (error) { refused[name] = (error as Error).message; }
					}
					refused.setModel = await pi.setModel({}).then(() => "resolved", (error: Error) => error.message);
					pi.on("session_start", () => {});
					pi.registerCommand("c", { handler() {} });
					pi.registerShortcut("ctrl+shift+k", { handler() {} });
					pi.registerFlag("plan", { type: "boolean", default: false });
					pi.registerMessageRenderer("note", () => undefined);
					refused.flag = String(pi.getFlag("plan"));
					(globalThis as Record<string, unknown>).__refused = refused;
				}
			`,
		});
		const loaded = await loadWorldExtensions(world, ["actions.ts"]);
		expect(loaded.errors).toEqual([]);
		const refused = (globalThis as Record<string, unknown>).__refused as Record<string, string>;
		const { setModel, flag, ...others } = refused;
		expect(Object.values(others)).toHaveLength(12);
		for (const message of Object.values(others)) expect(message).toBe(RUNTIME_NOT_INITIALIZED_TEXT);
		expect(setModel).toBe(SET_MODEL_NOT_INITIALIZED_TEXT);
		expect(flag).toBe("false");
		const extension = loaded.extensions[0];
		expect(extension?.handlers.get("session_start")).toHaveLength(1);
		expect([...(extension?.shortcuts.keys() ?? [])]).toEqual(["ctrl+shift+k"]);
		expect([...(extension?.messageRenderers.keys() ?? [])]).toEqual(["note"]);
	});

	it("queues providers registered while loading and applies them when the runner gets the registry", async () => {
		world = createExtensionWorld();
		world.write({
			"provider.ts": `
				export default function (pi: any) {
					pi.registerProvider("corp", {
						baseUrl: "http://corp.invalid/v1",
						apiKey: "CORP_KEY",
						api: "openai-completions",
						models: [{ id: "corp-1", name: "Corp 1", reasoning: false, input: ["text"],
							cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 8000, maxTokens: 1000 }],
					});
				}
			`,
		});
		const loaded = await loadWorldExtensions(world, ["provider.ts"]);
		const registry = new ModelRegistry(AuthStorage.inMemory({}, {}), undefined, {});
		expect(registry.find("corp", "corp-1")).toBeUndefined();
		new ExtensionRunner(loaded, { cwd: world.cwd, modelRegistry: registry });
		expect(registry.find("corp", "corp-1")).toMatchObject({
			baseUrl: "http://corp.invalid/v1",
			api: "openai-completions",
		});
	});

	it("keeps flag values across /reload and applies command-line values over defaults", async () => {
		world = createExtensionWorld();
		const path = world.write({
			"flags.ts": `export default (pi: any) => { pi.registerFlag("depth", { type: "string", default: "1" });
				(globalThis as Record<string, unknown>).__readFlag = () => pi.getFlag("depth"); };`,
		});
		const paths = [path];
		const options = { cwd: world.cwd, cacheDir: world.cacheDir };
		const loaded = await loadExtensions(paths, options);
		const runner = new ExtensionRunner(loaded, {
			cwd: world.cwd,
			reload: (runtime) => loadExtensions(paths, { ...options, runtime }),
		});
		const readFlag = () => ((globalThis as Record<string, unknown>).__readFlag as () => unknown)();
		expect(readFlag()).toBe("1");
		runner.setFlagValues(new Map([["depth", "3"]]));
		expect(readFlag()).toBe("3");
		await runner.reload();
		expect(readFlag()).toBe("3");
		expect([...runner.getFlags().keys()]).toEqual(["depth"]);
	});
});

describe("registration conflicts", () => {
	it("reports a tool, command or flag registered by two extensions; the first in load order wins, both stay loaded", async () => {
		world = createExtensionWorld();
		const source = (label: string) => `
			import { Type } from "@sinclair/typebox";
			export default (pi: any) => {
				pi.registerTool({ name: "shared", label: "${label}", description: "${label}", parameters: Type.Object({}),
					async execute() { return { content: [], details: undefined }; } });
				pi.registerCommand("deploy", { description: "${label}", handler() {} });
				pi.registerFlag("verbose-ext", { type: "boolean" });
				pi.registerCommand("${label}-only", { handler() {} });
			};`;
		world.write({ "first.ts": source("first"), "second.ts": source("second") });
		const loaded = await loadWorldExtensions(world, ["first.ts", "second.ts"]);
		const runner = new ExtensionRunner(loaded, { cwd: world.cwd });
		expect(runner.getExtensions()).toHaveLength(2);
		expect(runner.getTools().map((tool) => [tool.name, tool.description])).toEqual([["shared", "first"]]);
		expect(runner.getCommand("deploy")?.description).toBe("first");
		expect(runner.getCommands().map((command) => command.name)).toEqual(["deploy", "first-only", "second-only"]);
		const first = world.path("first.ts");
		const second = world.path("second.ts");
		expect(runner.getLoadErrors()).toEqual([
			{ path: second, error: `Extension tool 'shared' from ${second} conflicts with ${first}. Skipping.` },
			{ path: second, error: `Extension flag '--verbose-ext' from ${second} conflicts with ${first}. Skipping.` },
			{ path: second, error: `Extension command 'deploy' from ${second} conflicts with ${first}. Skipping.` },
		]);
	});

	it("skips commands named like the mode's built-in slash commands, with the reference's diagnostic", async () => {
		world = createExtensionWorld();
		world.write({
			"builtin.ts": `export default (pi: any) => { pi.registerCommand("model", { handler() {} });
				pi.registerCommand("mine", { handler() {} }); };`,
		});
		const loaded = await loadWorldExtensions(world, ["builtin.ts"]);
		const interactive = new ExtensionRunner(loaded, { cwd: world.cwd, builtInCommandNames: ["model", "quit"] });
		const path = world.path("builtin.ts");
		expect(interactive.getCommands().map((command) => command.name)).toEqual(["mine"]);
		expect(interactive.getLoadErrors()).toEqual([
			{ path, error: `Extension command 'model' from ${path} conflicts with built-in commands. Skipping.` },
		]);
		// Print and RPC modes have no built-in commands: there the extension's /model runs.
		const rpc = new ExtensionRunner(loaded, { cwd: world.cwd });
		expect(rpc.getCommand("model")?.extensionPath).toBe(path);
		// A mode can declare its commands after the runner exists (the interactive mode binds late).
		rpc.setBuiltInCommandNames(["model"]);
		expect(rpc.getCommand("model")).toBeUndefined();
		expect(rpc.getLoadErrors()).toEqual(interactive.getLoadErrors());
	});

	it("protects reserved keys, lets other built-in keys and earlier extensions' keys be taken with a warning", async () => {
		world = createExtensionWorld();
		const shortcuts = (keys: string[]) =>
			`export default (pi: any) => { for (const key of ${JSON.stringify(keys)}) pi.registerShortcut(key, { handler() {} }); };`;
		world.write({
			"one.ts": shortcuts(["ctrl+c", "ctrl+n", "alt+x"]),
			"two.ts": shortcuts(["Alt+X", "shift+ctrl+p"]),
		});
		const loaded = await loadWorldExtensions(world, ["one.ts", "two.ts"]);
		const runner = new ExtensionRunner(loaded, { cwd: world.cwd });
		const resolved = runner.getShortcuts(
			{
				clear: ["ctrl+c"],
				cycleModelBackward: ["ctrl+shift+p"],
				toggleSessionNamedFilter: ["ctrl+n"],
			},
			RESERVED_SHORTCUT_ACTIONS,
		);
		const one = world.path("one.ts");
		const two = world.path("two.ts");
		expect([...resolved.shortcuts.entries()].map(([key, shortcut]) => [key, shortcut.extensionPath])).toEqual([
			["ctrl+n", one],
			["alt+x", two],
		]);
		expect(resolved.errors.map((error) => error.message)).toEqual([
			`Extension shortcut 'ctrl+c' from ${one} conflicts with built-in shortcut. Skipping.`,
			`Extension shortcut 'shift+ctrl+p' from ${two} conflicts with built-in shortcut. Skipping.`,
		]);
		expect(resolved.warnings.map((warning) => warning.message)).toEqual([
			`Extension shortcut 'ctrl+n' from ${one} overrides the built-in shortcut for 'toggleSessionNamedFilter'.`,
			`Extension shortcut 'Alt+X' from ${two} overrides the one from ${one}.`,
		]);
	});
});

describe("providers", () => {
	it("validates registrations with the reference's messages", async () => {
		world = createExtensionWorld();
		world.write({
			"bad.ts": `
				export default function (pi: any) {
					const attempts: [string, unknown][] = [
						["stream", { streamSimple: () => undefined }],
						["nourl", { apiKey: "K", models: [{ id: "m" }] }],
						["nokey", { baseUrl: "http://x", models: [{ id: "m" }] }],
						["noapi", { baseUrl: "http://x", apiKey: "K", models: [{ id: "m1" }] }],
					];
					const messages: string[] = [];
					for (const [name, config] of attempts) {
						try { pi.registerProvider(name, config); } catch (error) { messages.push((error as Error).message); }
					}
					(globalThis as Record<string, unknown>).__providerErrors = messages;
				}
			`,
		});
		await loadWorldExtensions(world, ["bad.ts"]);
		expect((globalThis as Record<string, unknown>).__providerErrors).toEqual([
			'Provider stream: "api" is required when registering streamSimple.',
			'Provider nourl: "baseUrl" is required when defining models.',
			'Provider nokey: "apiKey" or "oauth" is required when defining models.',
			'Provider noapi, model m1: no "api" specified.',
		]);
	});

	it("registers a streamSimple provider as a custom API, and unregisterProvider restores the previous models", async () => {
		world = createExtensionWorld();
		world.write({
			"stream.ts": `
				import { FauxProvider } from "@agent/ai";
				export default function (pi: any) {
					const faux = new FauxProvider({ api: "corp-api", provider: "corp" });
					faux.enqueue({ content: [{ type: "text", text: "from the extension's stream" }] });
					pi.registerProvider("corp", {
						api: "corp-api", baseUrl: "http://corp.invalid", apiKey: "literal-key", streamSimple: faux.stream,
						models: [{ id: "c1", name: "C1", reasoning: false, input: ["text"],
							cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }],
					});
					pi.registerProvider("anthropic", { baseUrl: "http://proxy.invalid" });
					(globalThis as Record<string, unknown>).__unregister = () => pi.unregisterProvider("anthropic");
				}
			`,
		});
		const loaded = await loadWorldExtensions(world, ["stream.ts"]);
		expect(loaded.errors).toEqual([]);
		const registry = new ModelRegistry(AuthStorage.inMemory({}, {}), undefined, {});
		const builtinBaseUrl = registry.getAll().find((model) => model.provider === "anthropic")?.baseUrl;
		const runner = new ExtensionRunner(loaded, { cwd: world.cwd, modelRegistry: registry });
		const model = registry.find("corp", "c1");
		expect(model?.api).toBe("corp-api");
		const { streamSimple } = await import("@agent/ai");
		const reply = await streamSimple(model as NonNullable<typeof model>, { messages: [] }, { apiKey: "k" }).result();
		expect(reply.content).toEqual([{ type: "text", text: "from the extension's stream" }]);
		expect(await registry.getApiKey({ provider: "corp" })).toBe("literal-key");
		expect(
			registry
				.getAll()
				.filter((m) => m.provider === "anthropic")
				.every((m) => m.baseUrl === "http://proxy.invalid"),
		).toBe(true);
		((globalThis as Record<string, unknown>).__unregister as () => void)();
		expect(registry.getAll().find((m) => m.provider === "anthropic")?.baseUrl).toBe(builtinBaseUrl);
		runner.runtime.providers.clear();
		expect(registry.find("corp", "c1")).toBeUndefined();
	});
});

describe("loading at CLI startup", () => {
	async function loadAtStartup(interactive: boolean) {
		world = createExtensionWorld();
		const path = world.write({
			"builtin.ts": `export default (pi: any) => { pi.registerCommand("model", { handler() {} }); };`,
		});
		const resourceLoader = new DefaultResourceLoader({
			cwd: world.cwd,
			agentDir: world.agentDir,
			settingsManager: SettingsManager.inMemory(),
			additionalExtensionPaths: [path],
		});
		await resourceLoader.reload();
		let stderr = "";
		const io = { stdout: process.stdout, stderr: { write: (text: string) => (stderr += text) } } as unknown as CliIo;
		const { runner } = await loadCliExtensions({
			cwd: world.cwd,
			agentDir: world.agentDir,
			resourceLoader,
			modelRegistry: new ModelRegistry(AuthStorage.inMemory()),
			isProjectTrusted: () => false,
			hasBuiltInCommands: interactive,
			io,
		});
		return { path, stderr, runner };
	}

	it("skips and reports an extension command named like a built-in when the start is interactive", async () => {
		const { path, stderr, runner } = await loadAtStartup(true);
		expect(stderr).toContain(`Extension command 'model' from ${path} conflicts with built-in commands. Skipping.`);
		expect(runner?.getCommand("model")).toBeUndefined();
	});

	it("keeps it in modes without built-in commands (print, RPC)", async () => {
		const { path, stderr, runner } = await loadAtStartup(false);
		expect(stderr).not.toContain("conflicts with built-in commands");
		expect(runner?.getCommand("model")?.extensionPath).toBe(path);
	});
});

describe("the startup line for a failed extension", () => {
	it("names the path once and does not repeat 'Failed to load extension'", () => {
		expect(
			extensionLoadFailureText({
				path: "/x/provider.ts",
				error: 'Failed to load extension: Provider acme: "baseUrl" is required when defining models.',
			}),
		).toBe('Failed to load extension "/x/provider.ts": Provider acme: "baseUrl" is required when defining models.');
		expect(
			extensionLoadFailureText({
				path: "/x/bad.ts",
				error: "Extension does not export a valid factory function: /x/bad.ts",
			}),
		).toBe('Failed to load extension "/x/bad.ts": Extension does not export a valid factory function: /x/bad.ts');
	});
});
