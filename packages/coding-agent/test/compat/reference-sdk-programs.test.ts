// Programs written for the reference's SDK (its examples/sdk/, pi-mono v0.58.3) run with only the package
// name changed: the DefaultResourceLoader options they pass reach the session, a loader written against the
// reference's ResourceLoader interface works, and AgentSession has the members they read.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FauxProvider, fauxText, getModel } from "@agent/ai";
import {
	AuthStorage,
	createAgentSession,
	createEventBus,
	createExtensionRuntime,
	createReadTool,
	DefaultResourceLoader,
	discoverAndLoadExtensions,
	type ResourceLoader,
	SessionManager,
	SettingsManager,
	type Skill,
	wrapRegisteredTools,
} from "@agent/coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let root: string;
let cwd: string;
let agentDir: string;
beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "agent-ref-sdk-")));
	cwd = join(root, "project");
	agentDir = join(root, "agent-home");
	mkdirSync(cwd);
	mkdirSync(agentDir);
});
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

const model = getModel("anthropic", "claude-sonnet-4-5");
const auth = () => AuthStorage.inMemory({ anthropic: { type: "api_key", key: "sk-test" } }, {});

describe("DefaultResourceLoader options of the reference", () => {
	it("systemPromptOverride replaces the prompt and appendSystemPromptOverride extends it", async () => {
		writeFileSync(join(cwd, "AGENTS.md"), "Project rule: use tabs.");
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			systemPromptOverride: () => "You are a pirate. Always end with Arrr!",
			appendSystemPromptOverride: (base) => [...base, "## Additional Instructions\n- Be concise"],
			agentsFilesOverride: (base) => ({
				agentsFiles: [...base.agentsFiles, { path: "/virtual/AGENTS.md", content: "Virtual rule: no emoji." }],
			}),
		});
		await loader.reload();
		const faux = new FauxProvider();
		faux.enqueue(fauxText("Arrr!"));
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			model,
			authStorage: auth(),
			resourceLoader: loader,
			sessionManager: SessionManager.inMemory(),
			streamFn: faux.stream,
		});
		try {
			await session.prompt("What is 2 + 2?");
			const prompt = faux.requests[0]?.context.systemPrompt ?? "";
			expect(prompt).toContain("You are a pirate. Always end with Arrr!");
			expect(prompt).toContain("- Be concise");
			expect(prompt).toContain("Project rule: use tabs.");
			expect(prompt).toContain("Virtual rule: no emoji.");
			expect(loader.getAgentsFiles().agentsFiles.map((file) => file.path)).toContain("/virtual/AGENTS.md");
		} finally {
			session.dispose();
		}
	});

	it("skillsOverride and promptsOverride decide the skills and templates the session sees", async () => {
		const skill: Skill = {
			name: "my-skill",
			description: "Custom project instructions",
			filePath: "/virtual/SKILL.md",
			baseDir: "/virtual",
			source: "path",
			disableModelInvocation: false,
		};
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			skillsOverride: (current) => ({ skills: [...current.skills, skill], diagnostics: current.diagnostics }),
			promptsOverride: (current) => ({
				prompts: [
					...current.prompts,
					{
						name: "deploy",
						description: "Deploy",
						content: "Deploy $1 now.",
						source: "path",
						filePath: "/v/d.md",
					},
				],
				diagnostics: current.diagnostics,
			}),
		});
		await loader.reload();
		expect(loader.getSkills().skills.map((s) => s.name)).toEqual(["my-skill"]);
		const faux = new FauxProvider();
		faux.enqueue(fauxText("ok"));
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			model,
			authStorage: auth(),
			resourceLoader: loader,
			sessionManager: SessionManager.inMemory(),
			streamFn: faux.stream,
		});
		try {
			expect(faux.requests).toHaveLength(0);
			await session.prompt("/deploy staging");
			expect(JSON.stringify(faux.requests[0]?.context.messages)).toContain("Deploy staging now.");
			expect(faux.requests[0]?.context.systemPrompt).toContain("my-skill");
			expect(session.promptTemplates.map((template) => template.name)).toContain("deploy");
		} finally {
			session.dispose();
		}
	});

	it("extensionFactories of the loader run as inline extensions sharing its eventBus", async () => {
		const eventBus = createEventBus();
		const seen: string[] = [];
		eventBus.on("inline:started", (data) => {
			seen.push(String(data));
		});
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			eventBus,
			extensionFactories: [
				(pi) => {
					pi.on("agent_start", () => {
						pi.events.emit("inline:started", "agent_start");
					});
				},
			],
		});
		await loader.reload();
		const faux = new FauxProvider();
		faux.enqueue(fauxText("done"));
		const { session, extensionsResult } = await createAgentSession({
			cwd,
			agentDir,
			model,
			authStorage: auth(),
			resourceLoader: loader,
			sessionManager: SessionManager.inMemory(),
			streamFn: faux.stream,
		});
		try {
			expect(extensionsResult.extensions.map((extension) => extension.path)).toEqual(["<inline:1>"]);
			expect(loader.getExtensions().extensions).toHaveLength(1);
			expect(session.extensionRunner).toBeDefined();
			await session.prompt("List files.");
			expect(seen).toEqual(["agent_start"]);
		} finally {
			session.dispose();
		}
	});

	it("extensionsOverride rewrites what was loaded", async () => {
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			extensionFactories: [(pi) => pi.registerCommand("one", { handler: async () => {} })],
			extensionsOverride: (base) => ({ ...base, extensions: [] }),
		});
		await loader.reload();
		const { session, extensionsResult } = await createAgentSession({
			cwd,
			agentDir,
			model,
			authStorage: auth(),
			resourceLoader: loader,
			sessionManager: SessionManager.inMemory(),
		});
		try {
			expect(extensionsResult.extensions).toEqual([]);
			expect(session.getCommands().map((command) => command.name)).not.toContain("one");
		} finally {
			session.dispose();
		}
	});
});

describe("a resource loader written against the reference's interface (examples/sdk/12-full-control)", () => {
	it("runs with its own system prompt, its preloaded extensions and the given tools", async () => {
		const runtime = createExtensionRuntime();
		const loaded = await discoverAndLoadExtensions([], cwd, agentDir);
		expect(loaded.extensions).toEqual([]);
		const resourceLoader: ResourceLoader = {
			getExtensions: () => ({ extensions: [], errors: [], runtime }),
			getSkills: () => ({ skills: [], diagnostics: [] }),
			getPrompts: () => ({ prompts: [], diagnostics: [] }),
			getThemes: () => ({ themes: [], diagnostics: [] }),
			getAgentsFiles: () => ({ agentsFiles: [] }),
			getSystemPrompt: () => "You are a minimal assistant.\nAvailable: read, bash. Be concise.",
			getAppendSystemPrompt: () => [],
			getPathMetadata: () => new Map(),
			extendResources: () => {},
			reload: async () => {},
		};
		const faux = new FauxProvider();
		faux.enqueue(fauxText("Two files."));
		const { session } = await createAgentSession({
			cwd,
			agentDir: join(root, "my-agent"),
			model,
			thinkingLevel: "off",
			authStorage: auth(),
			resourceLoader,
			tools: [createReadTool(cwd)],
			sessionManager: SessionManager.inMemory(),
			settingsManager: SettingsManager.inMemory({ compaction: { enabled: false } }),
			streamFn: faux.stream,
		});
		try {
			await session.prompt("List files in the current directory.");
			expect(faux.requests[0]?.context.systemPrompt).toContain("You are a minimal assistant.");
			expect(session.state.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
			expect(session.state.tools.map((tool) => tool.name)).toEqual(["read"]);
			expect(session.state.isStreaming).toBe(false);
			expect(session.hasPendingBashMessages).toBe(false);
			expect(session.supportsXhighThinking()).toBe(false);
		} finally {
			session.dispose();
		}
	});

	it("wrapRegisteredTools turns an extension's tools into agent tools that receive a context", async () => {
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			extensionFactories: [
				(pi) =>
					pi.registerTool({
						name: "where",
						label: "Where",
						description: "Reports the cwd",
						parameters: { type: "object", properties: {} } as never,
						execute: async (_id, _params, _signal, _onUpdate, ctx) => ({
							content: [{ type: "text", text: ctx.cwd }],
							details: {},
						}),
					}),
			],
		});
		await loader.reload();
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			model,
			authStorage: auth(),
			resourceLoader: loader,
			sessionManager: SessionManager.inMemory(),
		});
		try {
			const runner = session.extensionRunner;
			if (!runner) throw new Error("no runner");
			const registered = [...(runner.getExtensions()[0]?.tools.values() ?? [])];
			const [tool] = wrapRegisteredTools(registered, runner);
			const result = await tool?.execute("call-1", {});
			expect(result?.content).toEqual([{ type: "text", text: cwd }]);
		} finally {
			session.dispose();
		}
	});
});

describe("the reference's ResourceLoader type", () => {
	it("is what the package exports as ResourceLoader, and DefaultResourceLoader is one", async () => {
		const loader: ResourceLoader = new DefaultResourceLoader({ cwd, agentDir });
		await loader.reload();
		// extendResources takes the reference's path entries, with where they came from.
		mkdirSync(join(root, "extra", "lint-rules"), { recursive: true });
		writeFileSync(
			join(root, "extra", "lint-rules", "SKILL.md"),
			"---\nname: lint-rules\ndescription: How this team lints.\n---\nUse biome.\n",
		);
		loader.extendResources({
			skillPaths: [
				{
					path: join(root, "extra", "lint-rules"),
					metadata: { source: "my-pkg", scope: "user", origin: "package" },
				},
			],
		});
		expect(loader.getSkills().skills.map((skill) => skill.name)).toContain("lint-rules");
	});
});
