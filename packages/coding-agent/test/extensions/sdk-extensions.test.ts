import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FauxProvider, fauxText } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { AuthStorage } from "../../src/core/config/auth-storage.js";
import { ModelRegistry } from "../../src/core/config/model-registry.js";
import { SettingsManager } from "../../src/core/config/settings-manager.js";
import type { ExtensionAPI } from "../../src/core/extensions/types.js";
import { DefaultResourceLoader } from "../../src/core/resources/resource-loader.js";
import { createAgentSession } from "../../src/core/sdk.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { createExtensionWorld, type ExtensionWorld } from "../helpers/extension-harness.js";

let world: ExtensionWorld;
const faux = new FauxProvider({ api: "inline-api", provider: "inline" });
afterEach(() => {
	world?.cleanup();
});

function inlineProvider(pi: ExtensionAPI): void {
	pi.registerProvider("inline", {
		api: "inline-api",
		baseUrl: "http://inline.invalid",
		apiKey: "inline-key",
		streamSimple: faux.stream,
		models: [
			{
				id: "inline-1",
				name: "Inline 1",
				reasoning: false,
				input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 100_000,
				maxTokens: 1000,
			},
		],
	});
}

describe("createAgentSession with extensions", () => {
	it("loads discovered extensions and inline factories (after them) before choosing the model", async () => {
		world = createExtensionWorld();
		mkdirSync(join(world.agentDir, "extensions"), { recursive: true });
		writeFileSync(
			join(world.agentDir, "extensions", "found.ts"),
			`export default (pi: any) => pi.registerCommand("found", { handler() {} });`,
		);
		const settingsManager = SettingsManager.inMemory({ defaultProvider: "inline", defaultModel: "inline-1" });
		const resourceLoader = new DefaultResourceLoader({
			cwd: world.cwd,
			agentDir: world.agentDir,
			homeDir: world.root,
			settingsManager,
		});
		await resourceLoader.reload();
		const { session, extensions } = await createAgentSession({
			cwd: world.cwd,
			agentDir: world.agentDir,
			settingsManager,
			resourceLoader,
			modelRegistry: new ModelRegistry(AuthStorage.inMemory({}, {}), undefined, {}),
			sessionManager: SessionManager.inMemory(world.cwd),
			extensionFactories: [inlineProvider, (pi) => pi.registerCommand("inline", { handler() {} })],
		});
		try {
			expect(extensions?.errors).toEqual([]);
			expect(extensions?.runner.getExtensions().map((extension) => extension.path)).toEqual([
				join(world.agentDir, "extensions", "found.ts"),
				"<inline:1>",
				"<inline:2>",
			]);
			expect(session.hooks).toBe(extensions?.runner);
			expect(session.model?.id).toBe("inline-1");
			faux.enqueue(fauxText("served by the extension's provider"));
			await session.prompt("hi");
			expect(session.getLastAssistantText()).toBe("served by the extension's provider");
			expect(session.getCommands().map((command) => command.name)).toEqual(["found", "inline"]);
		} finally {
			extensions?.runner.runtime.providers.clear();
			session.dispose();
		}
	});

	it("uses no extension machinery when there is nothing to load", async () => {
		world = createExtensionWorld();
		const settingsManager = SettingsManager.inMemory({});
		const { session, extensions } = await createAgentSession({
			cwd: world.cwd,
			agentDir: world.agentDir,
			settingsManager,
			modelRegistry: new ModelRegistry(AuthStorage.inMemory({}, {}), undefined, {}),
			sessionManager: SessionManager.inMemory(world.cwd),
		});
		expect(extensions).toBeUndefined();
		expect(session.hooks.hasHandlers("agent_start")).toBe(false);
		session.dispose();
	});
});
