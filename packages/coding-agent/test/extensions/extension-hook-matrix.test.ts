// The extension hook system, 18 cases: notification events, gates (`tool_call`,
// `session_before_*`), chained transforms (`tool_result`, `context`, `input`, `before_agent_start`), error
// isolation with stacks, and registration through settings and the command line. Every case drives a real
// AgentSession on the faux provider with extensions loaded from `.ts` files.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxText, fauxToolCall } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { AuthStorage } from "../../src/core/config/auth-storage.js";
import { ModelRegistry } from "../../src/core/config/model-registry.js";
import { SettingsManager } from "../../src/core/config/settings-manager.js";
import { handlerTimedOutText } from "../../src/core/extensions/event-dispatch.js";
import { setupExtensions } from "../../src/core/extensions/setup.js";
import { DefaultResourceLoader } from "../../src/core/resources/resource-loader.js";
import {
	createExtensionSessionStarter,
	createExtensionWorld,
	type ExtensionSession,
	type ExtensionWorld,
	extensionLog,
	LOG_PRELUDE,
} from "../helpers/extension-harness.js";
import { messageText } from "../helpers/message-text.js";

const start = createExtensionSessionStarter();
let world: ExtensionWorld | undefined;
afterEach(() => {
	world?.cleanup();
	world = undefined;
});

/** Texts of the messages the model received in request `index`. */
function sentTexts(s: ExtensionSession, index: number): string[] {
	return (s.harness.faux.requests[index]?.context.messages ?? []).map(messageText);
}

function toolResults(s: ExtensionSession): { text: string; isError: boolean; details: unknown }[] {
	return s.harness.session.messages.flatMap((message) =>
		message.role === "toolResult"
			? [{ text: messageText(message), isError: message.isError, details: message.details }]
			: [],
	);
}

const GUARD_BASH = (name: string, reason: string | null) => `
	export default (pi: any) => {
		pi.on("tool_call", (event: any) => {
			((globalThis as any).__extensionLog ??= []).push("${name}");
			if (event.toolName === "bash" && ${reason !== null}) return { block: true, reason: ${JSON.stringify(reason)} };
			return undefined;
		});
	};`;

describe("1. notification events", () => {
	it("1.1 a tool execution is reported with the tool's name and result", async () => {
		const s = await start({
			files: { "a.txt": "alpha" },
			extensions: {
				"audit.ts": `${LOG_PRELUDE} export default (pi: any) => {
					pi.on("tool_execution_end", (event: any) => { log.push(event); });
				};`,
			},
		});
		s.harness.faux.enqueue(fauxToolCall("read", { path: "a.txt" }), fauxText("ok"));
		await s.harness.session.prompt("read a.txt");
		expect(extensionLog()).toEqual([
			expect.objectContaining({
				toolName: "read",
				isError: false,
				result: expect.objectContaining({ content: [{ type: "text", text: expect.stringContaining("alpha") }] }),
			}),
		]);
	});

	it("1.2 agent_start and agent_end arrive in order; agent_end carries the run's messages", async () => {
		const s = await start({
			extensions: {
				"life.ts": `${LOG_PRELUDE} export default (pi: any) => {
					pi.on("agent_start", () => { log.push("start"); });
					pi.on("agent_end", (event: any) => { log.push("end:" + event.messages.map((m: any) => m.role).join(",")); });
				};`,
			},
		});
		s.harness.faux.enqueue(fauxText("hi"));
		await s.harness.session.prompt("hello");
		expect(extensionLog()).toEqual(["start", "end:user,assistant"]);
	});

	it("1.3 turn_end carries the tool calls of the turn and their results", async () => {
		const s = await start({
			files: { "a.txt": "alpha" },
			extensions: {
				"turns.ts": `${LOG_PRELUDE} export default (pi: any) => {
					pi.on("turn_end", (event: any) => {
						log.push({
							calls: event.message.content.filter((b: any) => b.type === "toolCall").map((b: any) => b.name),
							results: event.toolResults.map((r: any) => r.toolName),
						});
					});
				};`,
			},
		});
		s.harness.faux.enqueue(fauxToolCall("read", { path: "a.txt" }), fauxText("ok"));
		await s.harness.session.prompt("read");
		expect(extensionLog()).toEqual([
			{ calls: ["read"], results: ["read"] },
			{ calls: [], results: [] },
		]);
	});
});

describe("2. gates", () => {
	it("2.1 a tool_call handler that lets the call through: the tool runs", async () => {
		const s = await start({ extensions: { "allow.ts": GUARD_BASH("allow", null) } });
		s.harness.faux.enqueue(fauxToolCall("bash", { command: "echo ran > marker.txt" }), fauxText("ok"));
		await s.harness.session.prompt("run it");
		expect(existsSync(join(s.world.cwd, "marker.txt"))).toBe(true);
		expect(toolResults(s)[0]?.isError).toBe(false);
	});

	it("2.2 a blocked call does not run; the model is told the reason", async () => {
		const s = await start({ extensions: { "block.ts": GUARD_BASH("block", "needs confirmation") } });
		s.harness.faux.enqueue(fauxToolCall("bash", { command: "echo ran > marker.txt" }), fauxText("ok"));
		await s.harness.session.prompt("run it");
		expect(existsSync(join(s.world.cwd, "marker.txt"))).toBe(false);
		expect(toolResults(s)).toEqual([{ text: "needs confirmation", isError: true, details: {} }]);
		expect(sentTexts(s, 1).at(-1)).toBe("needs confirmation");
	});

	it("2.3 of several gates, the first block stops the chain; later gates are not asked", async () => {
		const s = await start({
			extensions: {
				"a.ts": GUARD_BASH("a", null),
				"b.ts": GUARD_BASH("b", "forbidden"),
				"c.ts": GUARD_BASH("c", null),
			},
		});
		s.harness.faux.enqueue(fauxToolCall("bash", { command: "echo ran > marker.txt" }), fauxText("ok"));
		await s.harness.session.prompt("run it");
		expect(existsSync(join(s.world.cwd, "marker.txt"))).toBe(false);
		expect(extensionLog()).toEqual(["a", "b"]);
		expect(toolResults(s)[0]?.text).toBe("forbidden");
	});

	it("2.4 session_before_compact cancels an automatic compaction; the session is unchanged", async () => {
		const s = await start({
			models: [{ contextWindow: 10_000 }],
			settings: { compaction: { reserveTokens: 2000, keepRecentTokens: 50 } },
			extensions: {
				"keep.ts": `${LOG_PRELUDE} export default (pi: any) => {
					pi.on("session_before_compact", (event: any) => { log.push(event.preparation ? "asked" : "?"); return { cancel: true }; });
				};`,
			},
		});
		s.harness.faux.enqueue(fauxText("first answer", { usage: { input: 3000 } }));
		s.harness.faux.enqueue(fauxText("big", { usage: { input: 8500 } }));
		await s.harness.session.prompt("first");
		const before = s.harness.sessionManager.getEntries().length;
		await s.harness.session.prompt("x".repeat(400));
		expect(extensionLog()).toEqual(["asked"]);
		expect(s.harness.eventsOf("auto_compaction_end")).toEqual([
			{ type: "auto_compaction_end", aborted: true, willRetry: false },
		]);
		const entries = s.harness.sessionManager.getEntries();
		expect(entries.some((entry) => entry.type === "compaction")).toBe(false);
		expect(entries).toHaveLength(before + 2);
	});
});

describe("3. transforms", () => {
	it("3.1 a tool_result handler redacts what the model sees", async () => {
		const s = await start({
			files: { ".env": "API_KEY=sk-secret-123\nDEBUG=1" },
			extensions: {
				"redact.ts": `export default (pi: any) => {
					pi.on("tool_result", (event: any) => ({
						content: event.content.map((b: any) => b.type === "text" ? { ...b, text: b.text.replace(/API_KEY=\\S+/g, "API_KEY=[REDACTED]") } : b),
					}));
				};`,
			},
		});
		s.harness.faux.enqueue(fauxToolCall("read", { path: ".env" }), fauxText("ok"));
		await s.harness.session.prompt("show env");
		const seen = sentTexts(s, 1).at(-1) as string;
		expect(seen).toContain("API_KEY=[REDACTED]");
		expect(seen).not.toContain("sk-secret-123");
	});

	it("3.2 tool_result handlers chain: each sees the previous one's output (reference bug #1280)", async () => {
		const append = (tag: string) => `export default (pi: any) => {
			pi.on("tool_result", (event: any) => ({ content: [{ type: "text", text: event.content[0].text + "[${tag}]" }] }));
		};`;
		const s = await start({
			extensions: { "a.ts": append("a"), "b.ts": append("b") },
			files: { "a.txt": "body" },
		});
		s.harness.faux.enqueue(fauxToolCall("read", { path: "a.txt" }), fauxText("ok"));
		await s.harness.session.prompt("read");
		expect(toolResults(s)[0]?.text).toMatch(/\[a\]\[b\]$/);
	});

	it("3.3 a patch of the content keeps the other fields of the result", async () => {
		const s = await start({
			extensions: {
				"tool.ts": `import { Type } from "@sinclair/typebox";
					export default (pi: any) => {
						pi.registerTool({ name: "run", label: "Run", description: "Runs", parameters: Type.Object({}),
							async execute() { return { content: [{ type: "text", text: "output" }], details: { exitCode: 0 } }; } });
						pi.on("tool_result", () => ({ content: [{ type: "text", text: "patched output" }] }));
					};`,
			},
		});
		s.harness.faux.enqueue(fauxToolCall("run", {}), fauxText("ok"));
		await s.harness.session.prompt("run");
		expect(toolResults(s)).toEqual([{ text: "patched output", isError: false, details: { exitCode: 0 } }]);
	});

	it("3.4 a context handler adds a message the model sees; the session's own messages are unchanged", async () => {
		const s = await start({
			extensions: {
				"inject.ts": `export default (pi: any) => {
					pi.on("context", (event: any) => ({ messages: [...event.messages,
						{ role: "user", content: [{ type: "text", text: "Reminder: be brief." }], timestamp: Date.now() }] }));
				};`,
			},
		});
		s.harness.faux.enqueue(fauxText("ok"));
		await s.harness.session.prompt("hello");
		expect(sentTexts(s, 0)).toEqual(["hello", "Reminder: be brief."]);
		expect(s.harness.session.messages.map((message) => messageText(message as { content: unknown }))).toEqual([
			"hello",
			"ok",
		]);
	});

	it("3.5 an input handler rewrites what the user typed before the model gets it", async () => {
		const s = await start({
			extensions: {
				"translate.ts": `export default (pi: any) => {
					pi.on("input", (event: any) => event.text === "你好" ? { action: "transform", text: "hello" } : { action: "continue" });
				};`,
			},
		});
		s.harness.faux.enqueue(fauxText("hi"));
		await s.harness.session.prompt("你好");
		expect(sentTexts(s, 0)).toEqual(["hello"]);
	});

	it("3.6 an input handler that handles the input stops the chain; the agent does nothing with it", async () => {
		const s = await start({
			extensions: {
				"a.ts": `${LOG_PRELUDE} export default (pi: any) => {
					pi.on("input", () => { log.push("a"); return { action: "handled" }; });
				};`,
				"b.ts": `${LOG_PRELUDE} export default (pi: any) => { pi.on("input", () => { log.push("b"); }); };`,
			},
		});
		await s.harness.session.prompt("consumed");
		expect(extensionLog()).toEqual(["a"]);
		expect(s.harness.faux.requests).toEqual([]);
		expect(s.harness.session.messages).toEqual([]);
	});

	it("3.7 before_agent_start adds a message to the prompt and chains the system prompt", async () => {
		const s = await start({
			extensions: {
				"a.ts": `export default (pi: any) => {
					pi.on("before_agent_start", (event: any) => ({
						message: { customType: "ctx", content: "Extra context", display: false },
						systemPrompt: event.systemPrompt + "\\nRULE A",
					}));
				};`,
				"b.ts": `export default (pi: any) => {
					pi.on("before_agent_start", (event: any) => ({ systemPrompt: event.systemPrompt + "\\nRULE B" }));
				};`,
			},
		});
		s.harness.faux.enqueue(fauxText("ok"), fauxText("ok"));
		await s.harness.session.prompt("task");
		expect(sentTexts(s, 0)).toEqual(["task", "Extra context"]);
		expect(s.harness.faux.requests[0]?.context.systemPrompt).toMatch(/\nRULE A\nRULE B$/);
	});
});

describe("4. errors and isolation", () => {
	it("4.1 a throwing tool_result handler is reported; the next handler still runs", async () => {
		const s = await start({
			files: { "a.txt": "body" },
			extensions: {
				"broken.ts": `export default (pi: any) => { pi.on("tool_result", () => { throw new Error("redactor crashed"); }); };`,
				"fine.ts": `export default (pi: any) => {
					pi.on("tool_result", (event: any) => ({ content: [{ type: "text", text: event.content[0].text + "[fine]" }] }));
				};`,
			},
		});
		s.harness.faux.enqueue(fauxToolCall("read", { path: "a.txt" }), fauxText("ok"));
		await s.harness.session.prompt("read");
		expect(toolResults(s)[0]?.text).toMatch(/\[fine\]$/);
		expect(s.harness.eventsOf("extension_error")).toEqual([
			{
				type: "extension_error",
				extensionPath: s.world.path("broken.ts"),
				event: "tool_result",
				error: "redactor crashed",
			},
		]);
	});

	it("4.2 a handler error is reported with its stack trace, pointing into the extension file", async () => {
		const s = await start({
			extensions: {
				"deep.ts": `function inner(): never { throw new Error("deep failure"); }
					export default (pi: any) => { pi.on("agent_start", () => inner()); };`,
			},
		});
		s.harness.faux.enqueue(fauxText("ok"));
		await s.harness.session.prompt("go");
		expect(s.errors).toHaveLength(1);
		expect(s.errors[0]).toMatchObject({
			extensionPath: s.world.path("deep.ts"),
			event: "agent_start",
			error: "deep failure",
		});
		expect(s.errors[0]?.stack).toMatch(/deep failure[\s\S]*inner[\s\S]*deep\.ts/);
	});

	it("4.3 a handler that never finishes is given up after the runner's time limit; the agent goes on", async () => {
		const s = await start({
			files: { "a.txt": "body" },
			runner: { handlerTimeoutMs: 50 },
			extensions: {
				"stuck.ts": `export default (pi: any) => { pi.on("tool_result", () => new Promise(() => {})); };`,
			},
		});
		s.harness.faux.enqueue(fauxToolCall("read", { path: "a.txt" }), fauxText("finished"));
		await s.harness.session.prompt("read");
		expect(s.harness.session.getLastAssistantText()).toBe("finished");
		expect(s.errors.map((error) => [error.event, error.error])).toEqual([["tool_result", handlerTimedOutText(50)]]);
	});

	it("4.4 a throwing tool_call handler blocks the call (fail-safe) and is reported", async () => {
		const s = await start({
			extensions: {
				"gate.ts": `export default (pi: any) => { pi.on("tool_call", () => { throw new Error("policy service down"); }); };`,
			},
		});
		s.harness.faux.enqueue(fauxToolCall("bash", { command: "echo ran > marker.txt" }), fauxText("ok"));
		await s.harness.session.prompt("run");
		expect(existsSync(join(s.world.cwd, "marker.txt"))).toBe(false);
		expect(toolResults(s)[0]).toMatchObject({ text: "policy service down", isError: true });
		expect(s.errors.map((error) => [error.extensionPath, error.event])).toEqual([
			[s.world.path("gate.ts"), "tool_call"],
		]);
	});
});

describe("5. registration", () => {
	async function loadThroughResources(
		w: ExtensionWorld,
		options: { settings?: Record<string, unknown>; cli?: string[]; noExtensions?: boolean },
	) {
		if (options.settings) {
			mkdirSync(w.agentDir, { recursive: true });
			writeFileSync(join(w.agentDir, "settings.json"), JSON.stringify(options.settings));
		}
		const settingsManager = SettingsManager.create(w.cwd, w.agentDir);
		const resourceLoader = new DefaultResourceLoader({
			cwd: w.cwd,
			agentDir: w.agentDir,
			homeDir: w.root,
			settingsManager,
			additionalExtensionPaths: options.cli ?? [],
			noExtensions: options.noExtensions ?? false,
		});
		await resourceLoader.reload();
		const modelRegistry = new ModelRegistry(AuthStorage.inMemory({}, {}), undefined, {});
		return setupExtensions({
			cwd: w.cwd,
			agentDir: w.agentDir,
			resourceLoader,
			modelRegistry,
			cacheDir: w.cacheDir,
		});
	}

	const hello = (name: string) => `export default (pi: any) => { pi.registerCommand("${name}", { handler() {} }); };`;

	it("5.1 an extension listed in settings.json is loaded", async () => {
		world = createExtensionWorld();
		world.write({ "shared/team.ts": hello("team") });
		const { runner, errors } = await loadThroughResources(world, { settings: { extensions: ["../shared/team.ts"] } });
		expect(errors).toEqual([]);
		expect(runner.getCommands().map((command) => command.name)).toEqual(["team"]);
	});

	it("5.2 -e loads an extension for this run, before discovered ones, and still with --no-extensions", async () => {
		world = createExtensionWorld();
		world.write({ "agent-home/extensions/found.ts": hello("found"), "elsewhere/cli.ts": hello("cli") });
		const both = await loadThroughResources(world, { cli: [world.path("elsewhere/cli.ts")] });
		expect(both.runner.getCommands().map((command) => command.name)).toEqual(["cli", "found"]);
		const onlyCli = await loadThroughResources(world, { cli: [world.path("elsewhere/cli.ts")], noExtensions: true });
		expect(onlyCli.runner.getCommands().map((command) => command.name)).toEqual(["cli"]);
	});
});
