// `/reload` and the start-up-only hooks, with extensions discovered by the resource loader and loaded by the
// SDK, as the CLI does it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FauxProvider } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { AuthStorage } from "../../src/core/config/auth-storage.js";
import { ModelRegistry } from "../../src/core/config/model-registry.js";
import { SettingsManager } from "../../src/core/config/settings-manager.js";
import { ExtensionRunner } from "../../src/core/extensions/runner.js";
import { DefaultResourceLoader } from "../../src/core/resources/resource-loader.js";
import { createAgentSession } from "../../src/core/sdk.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import {
	createExtensionWorld,
	type ExtensionWorld,
	extensionLog,
	LOG_PRELUDE,
	loadWorldExtensions,
	resetExtensionLog,
} from "../helpers/extension-harness.js";

let world: ExtensionWorld;
afterEach(() => {
	world?.cleanup();
	resetExtensionLog();
});

const versioned = (version: string) => `${LOG_PRELUDE}
	export default (pi: any) => {
		pi.on("session_start", () => { log.push("start ${version}"); });
		pi.on("session_shutdown", () => { log.push("shutdown ${version}"); });
		pi.registerCommand("version", { handler: async (_args: string, ctx: any) => ctx.ui.notify("${version}") });
		pi.registerProvider("anthropic", { baseUrl: "http://${version}.invalid" });
	};`;

async function sessionWithUserExtensions(w: ExtensionWorld) {
	const faux = new FauxProvider();
	const settingsManager = SettingsManager.inMemory({});
	const resourceLoader = new DefaultResourceLoader({
		cwd: w.cwd,
		agentDir: w.agentDir,
		homeDir: w.root,
		settingsManager,
	});
	await resourceLoader.reload();
	const modelRegistry = new ModelRegistry(AuthStorage.inMemory({}, {}), undefined, {});
	return createAgentSession({
		cwd: w.cwd,
		agentDir: w.agentDir,
		settingsManager,
		resourceLoader,
		modelRegistry,
		sessionManager: SessionManager.inMemory(w.cwd),
		model: faux.model(),
		streamFn: faux.stream,
	});
}

describe("/reload", () => {
	it("shuts the old extensions down, loads edited and new files, starts them, and re-registers providers", async () => {
		world = createExtensionWorld();
		const extensions = join(world.agentDir, "extensions");
		mkdirSync(extensions, { recursive: true });
		writeFileSync(join(extensions, "versioned.ts"), versioned("v1"));
		const { session, extensions: loaded } = await sessionWithUserExtensions(world);
		const runner = loaded?.runner as ExtensionRunner;
		try {
			await session.bindExtensions();
			const anthropicBaseUrls = () =>
				new Set(
					session.modelRegistry
						.getAll()
						.flatMap((model) => (model.provider === "anthropic" ? [model.baseUrl] : [])),
				);
			expect(anthropicBaseUrls()).toEqual(new Set(["http://v1.invalid"]));
			writeFileSync(join(extensions, "versioned.ts"), versioned("v2"));
			writeFileSync(
				join(extensions, "added.ts"),
				`${LOG_PRELUDE} export default (pi: any) => { pi.on("session_start", (e: any) => { log.push("added"); }); };`,
			);
			await session.reload();
			// Load order is the directory's name order: added.ts, then versioned.ts.
			expect(extensionLog()).toEqual(["start v1", "shutdown v1", "added", "start v2"]);
			expect(anthropicBaseUrls()).toEqual(new Set(["http://v2.invalid"]));
			expect(runner.getExtensions().map((extension) => extension.path)).toEqual([
				join(extensions, "added.ts"),
				join(extensions, "versioned.ts"),
			]);
			expect(session.getCommands().map((command) => command.name)).toEqual(["version"]);
		} finally {
			runner.runtime.providers.clear();
			session.dispose();
		}
	});

	it("reports an extension that no longer loads after the edit, and keeps the session going", async () => {
		world = createExtensionWorld();
		const extensions = join(world.agentDir, "extensions");
		mkdirSync(extensions, { recursive: true });
		writeFileSync(join(extensions, "fragile.ts"), versioned("v1"));
		const { session, extensions: loaded } = await sessionWithUserExtensions(world);
		const errors: string[] = [];
		session.subscribe((event) => {
			if (event.type === "extension_error") errors.push(`${event.event}: ${event.error}`);
		});
		try {
			await session.bindExtensions();
			writeFileSync(join(extensions, "fragile.ts"), "export default 'oops';");
			await session.reload();
			expect(errors).toEqual([
				`load: Extension does not export a valid factory function: ${join(extensions, "fragile.ts")}`,
			]);
			expect(session.getCommands()).toEqual([]);
		} finally {
			loaded?.runner.runtime.providers.clear();
			session.dispose();
		}
	});
});

describe("start-up hooks", () => {
	it("session_directory: handlers get no context and the last directory given wins", async () => {
		world = createExtensionWorld();
		world.write({
			"a.ts": `export default (pi: any) => pi.on("session_directory", (e: any, ctx: unknown) => ({ sessionDir: e.cwd + "/a" + (ctx === undefined ? "" : "!") }));`,
			"b.ts": `export default (pi: any) => pi.on("session_directory", () => undefined);`,
			"c.ts": `export default (pi: any) => pi.on("session_directory", (e: any) => ({ sessionDir: e.cwd + "/c" }));`,
		});
		const runner = new ExtensionRunner(await loadWorldExtensions(world, ["a.ts", "b.ts"]), { cwd: world.cwd });
		expect(await runner.emitSessionDirectory("/work")).toBe("/work/a");
		const all = new ExtensionRunner(await loadWorldExtensions(world, ["a.ts", "b.ts", "c.ts"]), { cwd: world.cwd });
		expect(await all.emitSessionDirectory("/work")).toBe("/work/c");
	});

	it("resources_discover: skills an extension brings are in the system prompt", async () => {
		world = createExtensionWorld();
		const extensions = join(world.agentDir, "extensions");
		world.write({
			"agent-home/extensions/skills-pack/index.ts": `import { join } from "node:path";
				export default (pi: any) => pi.on("resources_discover", () => ({ skillPaths: [join(${JSON.stringify(extensions)}, "skills-pack", "skills")] }));`,
			"agent-home/extensions/skills-pack/skills/deploy/SKILL.md":
				"---\nname: deploy\ndescription: Deploy the service to staging.\n---\n# Deploy\n",
		});
		const { session, extensions: loaded } = await sessionWithUserExtensions(world);
		try {
			expect(session.systemPrompt).not.toContain("Deploy the service to staging.");
			await session.bindExtensions();
			expect(loaded?.errors).toEqual([]);
			expect(session.systemPrompt).toContain("Deploy the service to staging.");
		} finally {
			session.dispose();
		}
	});
});

describe("OAuth providers", () => {
	it("registers the login and the key derivation of an extension's OAuth provider", async () => {
		world = createExtensionWorld();
		world.write({
			"oauth.ts": `export default (pi: any) => pi.registerProvider("corp-sso", {
				baseUrl: "http://corp.invalid", api: "openai-completions",
				oauth: {
					name: "Corp SSO",
					login: async () => ({ type: "oauth", access: "a", refresh: "r", expires: Date.now() + 3600_000 }),
					refreshToken: async (c: any) => c,
					getApiKey: (c: any) => "derived-" + c.access,
				},
				models: [{ id: "m", name: "M", reasoning: false, input: ["text"],
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }],
			});`,
		});
		const authStorage = AuthStorage.inMemory(
			{ "corp-sso": { type: "oauth", access: "token-1", refresh: "r", expires: Date.now() + 3_600_000 } },
			{},
		);
		const registry = new ModelRegistry(authStorage, undefined, {});
		const runner = new ExtensionRunner(await loadWorldExtensions(world, ["oauth.ts"]), {
			cwd: world.cwd,
			modelRegistry: registry,
		});
		expect(runner.getOAuthProviders().map(({ id, config }) => [id, config.name])).toEqual([["corp-sso", "Corp SSO"]]);
		expect(await registry.getApiKey({ provider: "corp-sso" })).toBe("derived-token-1");
		runner.runtime.providers.clear();
		expect(runner.getOAuthProviders()).toEqual([]);
	});
});
