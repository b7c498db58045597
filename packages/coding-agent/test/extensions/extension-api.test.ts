// What an extension can do once the session runs: tools, commands, and the API's action methods.
import { fauxText, fauxToolCall } from "@agent/ai";
import { describe, expect, it } from "vitest";
import { STREAMING_WITHOUT_BEHAVIOR_TEXT } from "../../src/core/agent-session.js";
import type { ExtensionAPI } from "../../src/core/extensions/types.js";
import { deferred } from "../helpers/deferred.js";
import {
	createExtensionSessionStarter,
	type ExtensionSession,
	extensionLog,
	LOG_PRELUDE,
} from "../helpers/extension-harness.js";

const start = createExtensionSessionStarter();

/** Exposes the extension's `pi` to the test as `globalThis.__pi`. */
const EXPOSE_PI = `export default (pi: any) => { (globalThis as any).__pi = pi; };`;

function pi(): ExtensionAPI {
	return (globalThis as Record<string, unknown>).__pi as ExtensionAPI;
}

function roles(s: ExtensionSession): string[] {
	return s.harness.session.messages.map((message) =>
		message.role === "custom" ? `custom:${(message as { customType: string }).customType}` : message.role,
	);
}

const TODO_TOOL = `
	import { Type } from "@sinclair/typebox";
	${LOG_PRELUDE}
	export default (pi: any) => {
		pi.registerTool({
			name: "todo",
			label: "Todo",
			description: "Manage the todo list.\\nSecond line of the description.",
			promptSnippet: "Add or list todo items",
			promptGuidelines: ["Use todo for multi-step work", "Use todo for multi-step work", "  "],
			parameters: Type.Object({ item: Type.String() }),
			async execute(id: string, params: { item: string }, _signal: AbortSignal, onUpdate: any, ctx: any) {
				onUpdate?.({ content: [{ type: "text", text: "working" }], details: { step: 1 } });
				const ok = await ctx.ui.confirm("Add?", params.item);
				log.push({ id, item: params.item, cwd: ctx.cwd, hasUI: ctx.hasUI, model: ctx.model?.id, ok });
				return { content: [{ type: "text", text: "added " + params.item }], details: { count: 1 } };
			},
		});
	};`;

describe("tools", () => {
	it("runs an extension tool with a context as fifth argument; partial results become tool_execution_update", async () => {
		const s = await start({ extensions: { "todo.ts": TODO_TOOL } });
		s.ui.answers.confirm = true;
		s.harness.faux.enqueue(fauxToolCall("todo", { item: "write tests" }, { id: "t1" }), fauxText("ok"));
		await s.harness.session.prompt("plan");
		expect(extensionLog()).toEqual([
			{ id: "t1", item: "write tests", cwd: s.world.cwd, hasUI: true, model: "faux-1", ok: true },
		]);
		expect(s.ui.calls).toEqual([{ method: "confirm", args: ["Add?", "write tests"] }]);
		expect(s.harness.eventsOf("tool_execution_update")[0]).toMatchObject({
			toolName: "todo",
			partialResult: { content: [{ type: "text", text: "working" }], details: { step: 1 } },
		});
		const result = s.harness.session.messages.find((message) => message.role === "toolResult");
		expect(result).toMatchObject({ toolName: "todo", isError: false, details: { count: 1 } });
	});

	it("puts the tool's snippet and deduplicated guidelines into the system prompt while it is active", async () => {
		const s = await start({ extensions: { "todo.ts": TODO_TOOL } });
		const prompt = s.harness.session.systemPrompt;
		expect(prompt).toContain("- todo: Add or list todo items");
		expect(prompt.match(/Use todo for multi-step work/g)).toHaveLength(1);
		s.harness.session.setActiveToolsByName(["read"]);
		expect(s.harness.session.systemPrompt).not.toContain("todo");
	});

	it("activates a tool registered at run time and rebuilds the system prompt", async () => {
		const s = await start({
			extensions: {
				"late.ts": `import { Type } from "@sinclair/typebox";
					export default (pi: any) => {
						pi.registerCommand("enable-late", { handler: async () => {
							pi.registerTool({ name: "late", label: "Late", description: "Registered late", parameters: Type.Object({}),
								async execute() { return { content: [{ type: "text", text: "late ran" }], details: undefined }; } });
						} });
					};`,
			},
		});
		expect(s.harness.session.getActiveToolNames()).not.toContain("late");
		await s.harness.session.prompt("/enable-late");
		expect(s.harness.session.getActiveToolNames()).toContain("late");
		expect(s.harness.session.systemPrompt).toContain("- late: Registered late");
	});

	it("replaces a built-in tool of the same name; a tool that throws gives the model an error result", async () => {
		const s = await start({
			extensions: {
				"read.ts": `import { Type } from "@sinclair/typebox";
					export default (pi: any) => {
						pi.registerTool({ name: "read", label: "Read", description: "Sandboxed read", parameters: Type.Object({ path: Type.String() }),
							async execute(_id: string, params: { path: string }) { throw new Error("reading " + params.path + " is not allowed"); } });
					};`,
			},
		});
		s.harness.faux.enqueue(fauxToolCall("read", { path: "secret.txt" }), fauxText("ok"));
		await s.harness.session.prompt("read it");
		const result = s.harness.session.messages.find((message) => message.role === "toolResult");
		expect(result).toMatchObject({
			isError: true,
			content: [{ type: "text", text: "reading secret.txt is not allowed" }],
		});
		expect(s.harness.faux.requests[0]?.context.tools.find((tool) => tool.name === "read")?.description).toBe(
			"Sandboxed read",
		);
	});
});

describe("commands", () => {
	it("runs /name with the text after the first space, even while the agent streams", async () => {
		const s = await start({
			extensions: {
				"deploy.ts": `${LOG_PRELUDE} export default (pi: any) => {
					pi.registerCommand("deploy", { description: "Deploy", handler: async (args: string, ctx: any) => {
						log.push({ args, idle: ctx.isIdle(), hasWait: typeof ctx.waitForIdle });
					} });
				};`,
			},
		});
		const gate = deferred();
		s.harness.faux.enqueue(fauxText("slow", { holdUntil: gate.promise }));
		const running = s.harness.session.prompt("work");
		await s.harness.nextEvent("message_start", 0);
		await s.harness.session.prompt("/deploy prod  now");
		gate.resolve();
		await running;
		expect(extensionLog()).toEqual([{ args: "prod  now", idle: false, hasWait: "function" }]);
		expect(s.harness.faux.requests).toHaveLength(1);
		expect(s.harness.session.getCommands()).toContainEqual({
			name: "deploy",
			description: "Deploy",
			source: "extension",
			path: s.world.path("deploy.ts"),
		});
	});

	it("reports a failing command as command:<name>; session-changing methods work from a command", async () => {
		const s = await start({
			extensions: {
				"cmds.ts": `${LOG_PRELUDE} export default (pi: any) => {
					pi.registerCommand("broken", { handler: async () => { throw new Error("no deploy today"); } });
					pi.registerCommand("fresh", { handler: async (_args: string, ctx: any) => {
						log.push(await ctx.newSession({ setup: async (sm: any) => { sm.appendCustomEntry("seed", { from: "command" }); } }));
					} });
					pi.on("session_before_switch", () => ({ cancel: (globalThis as any).__refuseSwitch === true }));
				};`,
			},
		});
		await s.harness.session.prompt("/broken");
		expect(s.harness.eventsOf("extension_error")).toEqual([
			{ type: "extension_error", extensionPath: "command:broken", event: "command", error: "no deploy today" },
		]);
		const before = s.harness.session.sessionId;
		await s.harness.session.prompt("/fresh");
		expect(s.harness.session.sessionId).not.toBe(before);
		expect(s.harness.sessionManager.getEntries().some((entry) => entry.type === "custom")).toBe(true);
		(globalThis as Record<string, unknown>).__refuseSwitch = true;
		await s.harness.session.prompt("/fresh");
		delete (globalThis as Record<string, unknown>).__refuseSwitch;
		expect(extensionLog()).toEqual([{ cancelled: false }, { cancelled: true }]);
	});
});

describe("actions", () => {
	it("sendMessage: appended when idle, starts a run with triggerTurn, waits for the next prompt with nextTurn", async () => {
		const s = await start({ extensions: { "pi.ts": EXPOSE_PI } });
		pi().sendMessage({ customType: "note", content: "quiet note", display: true, details: { n: 1 } });
		await s.harness.session.waitForIdle();
		expect(roles(s)).toEqual(["custom:note"]);
		expect(s.harness.eventTypes()).toEqual(["message_start", "message_end"]);
		expect(s.harness.faux.requests).toHaveLength(0);

		s.harness.faux.enqueue(fauxText("reacting"));
		pi().sendMessage({ customType: "alert", content: "build failed", display: true }, { triggerTurn: true });
		await s.harness.nextEvent("agent_end");
		await s.harness.session.waitForIdle();
		expect(roles(s)).toEqual(["custom:note", "custom:alert", "assistant"]);

		pi().sendMessage(
			{ customType: "later", content: "for the next prompt", display: false },
			{ deliverAs: "nextTurn" },
		);
		s.harness.faux.enqueue(fauxText("ok"));
		await s.harness.session.prompt("next");
		expect(roles(s).slice(3)).toEqual(["user", "custom:later", "assistant"]);
		const custom = s.harness.sessionManager.getEntries().filter((entry) => entry.type === "custom_message");
		expect(custom).toHaveLength(3);
	});

	it("sendMessage with triggerTurn from an agent_end handler starts the next turn once the run is over", async () => {
		const s = await start({
			extensions: {
				"again.ts": `let sent = false;
					export default (pi: any) => {
						pi.on("agent_end", () => {
							if (sent) return;
							sent = true;
							pi.sendMessage({ customType: "again", content: "one more time", display: true }, { triggerTurn: true });
						});
					};`,
			},
		});
		s.harness.faux.enqueue(fauxText("first"), fauxText("second"));
		const firstEnd = s.harness.nextEvent("agent_end");
		await s.harness.session.prompt("go");
		await firstEnd;
		await s.harness.nextEvent("agent_end", s.harness.events.indexOf(await firstEnd) + 1);
		await s.harness.session.waitForIdle();
		expect(roles(s)).toEqual(["user", "assistant", "custom:again", "assistant"]);
		expect(s.errors).toEqual([]);
	});

	it("sendMessage while streaming steers by default, or follows up", async () => {
		const s = await start({ extensions: { "pi.ts": EXPOSE_PI } });
		const gate = deferred();
		s.harness.faux.enqueue(fauxText("first", { holdUntil: gate.promise }), fauxText("second"), fauxText("third"));
		const running = s.harness.session.prompt("go");
		await s.harness.nextEvent("message_start", 0);
		pi().sendMessage({ customType: "steer", content: "steer me", display: true });
		pi().sendMessage({ customType: "follow", content: "then this", display: true }, { deliverAs: "followUp" });
		gate.resolve();
		await running;
		expect(roles(s)).toEqual(["user", "assistant", "custom:steer", "assistant", "custom:follow", "assistant"]);
	});

	it("sendUserMessage prompts without expanding commands; while streaming it needs deliverAs, else it is reported", async () => {
		const s = await start({
			extensions: {
				"pi.ts": EXPOSE_PI,
				"cmd.ts": `${LOG_PRELUDE} export default (pi: any) => { pi.registerCommand("x", { handler: async () => { log.push("ran"); } }); };`,
			},
		});
		s.harness.faux.enqueue(fauxText("answer"));
		pi().sendUserMessage("/x is literal text");
		await s.harness.nextEvent("agent_end");
		await s.harness.session.waitForIdle();
		expect(extensionLog()).toEqual([]);
		expect(s.harness.faux.requests[0]?.context.messages[0]).toMatchObject({
			content: [{ type: "text", text: "/x is literal text" }],
		});

		const gate = deferred();
		s.harness.faux.enqueue(fauxText("busy", { holdUntil: gate.promise }), fauxText("after"));
		const running = s.harness.session.prompt("long task");
		await s.harness.nextEvent("message_start", s.harness.events.length);
		pi().sendUserMessage("interrupt?");
		pi().sendUserMessage([{ type: "text", text: "queued" }], { deliverAs: "followUp" });
		gate.resolve();
		await running;
		expect(s.errors).toEqual([
			expect.objectContaining({
				extensionPath: "<runtime>",
				event: "send_user_message",
				error: STREAMING_WITHOUT_BEHAVIOR_TEXT,
			}),
		]);
		expect(s.harness.faux.requests.at(-1)?.context.messages.at(-1)).toMatchObject({
			role: "user",
			content: [{ type: "text", text: "queued" }],
		});
	});

	it("appendEntry, session name, labels, tools, commands, thinking level and model", async () => {
		const s = await start({
			models: [{ id: "faux-1" }, { id: "faux-2", reasoning: false }],
			extensions: {
				"pi.ts": EXPOSE_PI,
				"cmd.ts": `export default (pi: any) => pi.registerCommand("mine", { handler() {} });`,
			},
		});
		const api = pi();
		api.appendEntry("state", { step: 3 });
		expect(s.harness.sessionManager.getEntries().at(-1)).toMatchObject({
			type: "custom",
			customType: "state",
			data: { step: 3 },
		});
		api.setSessionName("  refactor  ");
		expect(api.getSessionName()).toBe("refactor");
		const entryId = s.harness.sessionManager.getEntries()[0]?.id as string;
		api.setLabel(entryId, "start");
		expect(s.harness.sessionManager.getLabel(entryId)).toBe("start");

		expect(api.getActiveTools()).toEqual(["read", "bash", "edit", "write"]);
		api.setActiveTools(["read", "grep", "nonexistent"]);
		expect(s.harness.session.getActiveToolNames()).toEqual(["read", "grep"]);
		expect(api.getAllTools().map((tool: { name: string }) => tool.name)).toContain("ls");
		expect(api.getCommands()).toContainEqual({ name: "mine", source: "extension", path: s.world.path("cmd.ts") });

		api.setThinkingLevel("high");
		expect(api.getThinkingLevel()).toBe("high");
		const registry = s.harness.modelRegistry;
		const second = registry.find("faux", "faux-2");
		if (!second) throw new Error("faux-2 is not in the registry");
		expect(await api.setModel(second)).toBe(true);
		expect(s.harness.session.model?.id).toBe("faux-2");
		expect(api.getThinkingLevel()).toBe("off");
		const keyless = { ...second, provider: "nobody", id: "x" };
		expect(await api.setModel(keyless)).toBe(false);
		expect(s.harness.session.model?.id).toBe("faux-2");
	});

	it("exec runs without a shell in the session cwd; timeouts kill; a missing program resolves with code 1", async () => {
		const s = await start({ extensions: { "pi.ts": EXPOSE_PI } });
		const api = pi();
		expect(await api.exec("pwd", [])).toEqual({ stdout: `${s.world.cwd}\n`, stderr: "", code: 0, killed: false });
		expect((await api.exec("echo", ["$HOME", "a b"])).stdout).toBe("$HOME a b\n");
		expect(await api.exec("sh", ["-c", "echo oops >&2; exit 3"])).toEqual({
			stdout: "",
			stderr: "oops\n",
			code: 3,
			killed: false,
		});
		const slow = await api.exec("sleep", ["30"], { timeout: 50 });
		expect(slow).toMatchObject({ killed: true, code: 0 });
		const controller = new AbortController();
		const aborted = api.exec("sleep", ["30"], { signal: controller.signal });
		controller.abort();
		expect(await aborted).toMatchObject({ killed: true });
		const missing = await api.exec("definitely-not-a-program-xyz", []);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain("ENOENT");
	});

	it("the event bus connects extensions; a throwing subscriber does not stop the others", async () => {
		const logged: string[] = [];
		const originalError = console.error;
		console.error = (message: string) => logged.push(message);
		try {
			const s = await start({
				extensions: {
					"a.ts": `${LOG_PRELUDE} export default (pi: any) => {
						pi.events.on("build", () => { throw new Error("subscriber broke"); });
						pi.events.on("build", (data: any) => { log.push("a:" + data.status); });
					};`,
					"b.ts": `export default (pi: any) => {
						pi.registerCommand("build", { handler: async () => { pi.events.emit("build", { status: "green" }); } });
					};`,
				},
			});
			await s.harness.session.prompt("/build");
		} finally {
			console.error = originalError;
		}
		expect(extensionLog()).toEqual(["a:green"]);
		expect(logged).toEqual([expect.stringMatching(/^Event handler error \(build\): Error: subscriber broke/)]);
	});
});
