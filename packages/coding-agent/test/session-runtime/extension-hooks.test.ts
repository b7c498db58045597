import type { AgentMessage } from "@agent/agent-core";
import { fauxText, fauxToolCall } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { extensionCommandCannotBeQueuedText } from "../../src/core/agent-session.js";
import type { ExtensionNotification } from "../../src/core/extensions/hooks.js";
import { deferred } from "../helpers/deferred.js";
import { messageText, messageTextsOf } from "../helpers/message-text.js";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";
import { TestHooks } from "../helpers/runtime-hooks.js";
import { createCountingTool } from "../helpers/runtime-tools.js";

let harness: RuntimeHarness | undefined;
afterEach(() => {
	harness?.dispose();
	harness = undefined;
});

function toolResultTexts(h: RuntimeHarness): { text: string; isError: boolean; details: unknown }[] {
	return h.session.messages.flatMap((message) =>
		message.role === "toolResult"
			? [
					{
						text: messageText(message),
						isError: message.isError,
						details: message.details,
					},
				]
			: [],
	);
}

function requestTexts(h: RuntimeHarness, index = -1): string[] {
	return messageTextsOf(index < 0 ? h.faux.requests.at(index) : h.faux.requests[index]);
}

describe("tool interception", () => {
	it("blocks a call a tool_call handler blocks, after the calling message is recorded", async () => {
		const probe = createCountingTool("probe");
		let recordedBeforeHook = false;
		const hooks = new TestHooks({
			emitToolCall: async (event) => {
				const last = harness?.sessionManager.getEntries().at(-1);
				recordedBeforeHook = last?.type === "message" && last.message.role === "assistant";
				return event.toolName === "probe" ? { block: true, reason: "probe is not allowed here" } : undefined;
			},
		});
		harness = await createRuntimeHarness({ hooks, customTools: [probe] });
		harness.faux.enqueue(fauxToolCall("probe", { value: "x" }), fauxText("understood"));
		await harness.session.prompt("use the probe");
		expect(probe.executions).toEqual([]);
		expect(recordedBeforeHook).toBe(true);
		expect(toolResultTexts(harness)).toEqual([{ text: "probe is not allowed here", isError: true, details: {} }]);
	});

	it("blocks the call when a tool_call handler throws (fail-safe)", async () => {
		const probe = createCountingTool("probe");
		const hooks = new TestHooks({
			emitToolCall: async () => {
				throw new Error("policy engine unavailable");
			},
		});
		harness = await createRuntimeHarness({ hooks, customTools: [probe] });
		harness.faux.enqueue(fauxToolCall("probe", {}), fauxText("ok"));
		await harness.session.prompt("go");
		expect(probe.executions).toEqual([]);
		expect(toolResultTexts(harness)[0]).toMatchObject({ text: "policy engine unavailable", isError: true });
	});

	it("applies only content and details of a tool_result patch, and only to results that did not fail", async () => {
		const probe = createCountingTool("probe", { result: "original" });
		const failing = { ...createCountingTool("failing"), execute: async () => Promise.reject(new Error("boom")) };
		const hooks = new TestHooks({
			emitToolResult: async () => ({
				content: [{ type: "text", text: "patched" }],
				details: { redacted: true },
				isError: true,
			}),
		});
		harness = await createRuntimeHarness({ hooks, customTools: [probe, failing] });
		harness.faux.enqueue(
			{
				content: [
					{ type: "toolCall", name: "probe", arguments: {} },
					{ type: "toolCall", name: "failing", arguments: {} },
				],
			},
			fauxText("done"),
		);
		await harness.session.prompt("go");
		expect(toolResultTexts(harness)).toEqual([
			{ text: "patched", isError: false, details: { redacted: true } },
			{ text: "boom", isError: true, details: {} },
		]);
	});
});

describe("context and prompt hooks", () => {
	it("lets context handlers change what one call sends, on a deep copy", async () => {
		const hooks = new TestHooks({
			emitContext: async (messages: AgentMessage[]) => {
				const first = messages[0];
				if (first?.role === "user" && Array.isArray(first.content) && first.content[0]?.type === "text") {
					first.content[0].text = "rewritten for the model";
				}
				return messages;
			},
		});
		harness = await createRuntimeHarness({ hooks });
		harness.faux.enqueue(fauxText("ok"));
		await harness.session.prompt("original text");
		expect(requestTexts(harness)).toEqual(["rewritten for the model"]);
		expect(harness.session.messages[0]).toMatchObject({ content: [{ type: "text", text: "original text" }] });
	});

	it("applies input transforms, consumes handled input, and adds before_agent_start messages and prompt", async () => {
		const hooks = new TestHooks({
			emitInput: async (event) =>
				event.text === "swallow" ? { action: "handled" } : { action: "transform", text: `${event.text}!` },
			emitBeforeAgentStart: async (event) => ({
				messages: [{ customType: "memo", content: "remember the style guide", display: false }],
				systemPrompt: `${event.systemPrompt}\n\nExtra rule.`,
			}),
		});
		harness = await createRuntimeHarness({ hooks });
		await harness.session.prompt("swallow");
		expect(harness.faux.requests).toHaveLength(0);

		harness.faux.enqueue(fauxText("ok"));
		await harness.session.prompt("hello");
		expect(requestTexts(harness)).toEqual(["hello!", "remember the style guide"]);
		expect(harness.faux.requests[0]?.context.systemPrompt?.endsWith("\n\nExtra rule.")).toBe(true);
		expect(harness.sessionManager.getEntries().some((entry) => entry.type === "custom_message")).toBe(true);
	});

	it("routes provider payloads through before_provider_request", async () => {
		const hooks = new TestHooks({
			emitBeforeProviderRequest: async (payload) => ({ ...(payload as object), tagged: true }),
		});
		harness = await createRuntimeHarness({ hooks });
		const model = harness.session.model!;
		expect(await harness.session.agent.onPayload?.({ body: 1 }, model)).toEqual({ body: 1, tagged: true });
	});

	it("hands the provider a payload hook only while a before_provider_request handler listens", async () => {
		harness = await createRuntimeHarness({ hooks: new TestHooks() });
		harness.faux.enqueue(fauxText("ok"));
		await harness.session.prompt("hello");
		// Without a hook, providers may reuse each message's conversion from the previous request.
		expect(harness.faux.requests[0]?.options?.onPayload).toBeUndefined();
		harness.dispose();

		const hooks = new TestHooks({
			emitBeforeProviderRequest: async (payload) => ({ ...(payload as object), tagged: true }),
		});
		harness = await createRuntimeHarness({ hooks });
		harness.faux.enqueue(fauxText("ok"));
		await harness.session.prompt("hello");
		const onPayload = harness.faux.requests[0]?.options?.onPayload;
		expect(await onPayload?.({ body: 1 }, harness.session.model!)).toEqual({ body: 1, tagged: true });
	});
});

describe("notifications", () => {
	it("forwards agent events with turn indexes before the session's listeners see them", async () => {
		const hooks = new TestHooks();
		harness = await createRuntimeHarness({ hooks, customTools: [createCountingTool("probe")] });
		const order: string[] = [];
		harness.session.subscribe((event) => {
			if (event.type === "turn_start")
				order.push(`listener:${hooks.notifications.filter((n) => n.type === "turn_start").length}`);
		});
		harness.faux.enqueue(fauxToolCall("probe", {}), fauxText("done"));
		await harness.session.prompt("go");
		const turns = hooks.notifications.filter(
			(event): event is Extract<ExtensionNotification, { type: "turn_start" | "turn_end" }> =>
				event.type === "turn_start" || event.type === "turn_end",
		);
		expect(turns.map((event) => `${event.type}:${event.turnIndex}`)).toEqual([
			"turn_start:0",
			"turn_end:0",
			"turn_start:1",
			"turn_end:1",
		]);
		expect(order).toEqual(["listener:1", "listener:2"]);
		expect(hooks.calls.indexOf("tool_execution_start")).toBeLessThan(hooks.calls.indexOf("tool_execution_end"));
	});

	it("reports model_select only when the model changes, and session_start/resources_discover on bind", async () => {
		const hooks = new TestHooks({ emitResourcesDiscover: async () => ({}) });
		harness = await createRuntimeHarness({ hooks, models: [{ id: "faux-1" }, { id: "faux-2" }] });
		await harness.session.bindExtensions();
		expect(hooks.calls.slice(0, 2)).toEqual(["session_start", "resources_discover"]);
		await harness.session.setModel(harness.modelRegistry.find("faux", "faux-2")!);
		await harness.session.setModel(harness.modelRegistry.find("faux", "faux-2")!);
		const selects = hooks.notifications.filter((event) => event.type === "model_select");
		expect(selects).toHaveLength(1);
		expect(selects[0]).toMatchObject({ model: { id: "faux-2" }, previousModel: { id: "faux-1" }, source: "set" });
	});

	it("turns runner errors into extension_error events", async () => {
		const hooks = new TestHooks();
		harness = await createRuntimeHarness({ hooks });
		hooks.reportError({ extensionPath: "/ext/a.ts", event: "tool_call", error: "bad handler" });
		expect(harness.eventsOf("extension_error")).toEqual([
			{ type: "extension_error", extensionPath: "/ext/a.ts", event: "tool_call", error: "bad handler" },
		]);
	});
});

describe("extension commands", () => {
	it("run even while streaming, cannot be queued, and report their failures", async () => {
		const hooks = new TestHooks();
		const ran: string[] = [];
		hooks.commands = [
			{ name: "note", extensionPath: "/ext/note.ts", run: async (args) => void ran.push(args) },
			{
				name: "broken",
				extensionPath: "/ext/broken.ts",
				run: async () => {
					throw new Error("command failed");
				},
			},
		];
		harness = await createRuntimeHarness({ hooks });
		const release = deferred();
		harness.faux.enqueue(fauxText("busy", { holdUntil: release.promise }));
		const running = harness.session.prompt("work");
		await harness.nextEvent("message_update");
		await harness.session.prompt("/note remember this");
		expect(ran).toEqual(["remember this"]);
		await expect(harness.session.steer("/note later")).rejects.toThrow(extensionCommandCannotBeQueuedText("note"));
		await expect(harness.session.followUp("/note later")).rejects.toThrow(
			'Extension command "/note" cannot be queued. Use prompt() or execute the command when not streaming.',
		);
		await harness.session.prompt("/broken");
		expect(harness.eventsOf("extension_error")).toEqual([
			{ type: "extension_error", extensionPath: "command:broken", event: "command", error: "command failed" },
		]);
		release.resolve();
		await running;
		expect(harness.faux.requests).toHaveLength(1);
		expect(harness.session.getCommands()[0]).toEqual({ name: "note", source: "extension", path: "/ext/note.ts" });
	});
});

describe("session hooks with results", () => {
	it("cancels a manual and an automatic compaction, or supplies its own", async () => {
		let decision: "cancel" | "supply" = "cancel";
		const hooks = new TestHooks({
			emitSessionBeforeCompact: async (event) =>
				decision === "cancel"
					? { cancel: true }
					: {
							compaction: {
								summary: "extension summary",
								firstKeptEntryId: event.preparation.firstKeptEntryId,
								tokensBefore: event.preparation.tokensBefore,
							},
						},
		});
		harness = await createRuntimeHarness({
			hooks,
			models: [{ contextWindow: 10_000 }],
			settings: { compaction: { reserveTokens: 2000, keepRecentTokens: 50 } },
		});
		harness.faux.enqueue(fauxText("first", { usage: { input: 100 } }), fauxText("ok", { usage: { input: 8500 } }));
		await harness.session.prompt("one");
		await harness.session.prompt("x".repeat(400));
		expect(harness.eventsOf("auto_compaction_end")).toEqual([
			{ type: "auto_compaction_end", aborted: true, willRetry: false },
		]);
		await expect(harness.session.compact()).rejects.toThrow("Compaction cancelled");

		decision = "supply";
		const result = await harness.session.compact();
		expect(result.summary).toBe("extension summary");
		expect(harness.sessionManager.getEntries().at(-1)).toMatchObject({ type: "compaction", fromHook: true });
		expect(hooks.notifications.at(-1)).toMatchObject({ type: "session_compact", fromExtension: true });
		expect(harness.faux.requests).toHaveLength(2);
	});

	it("lets session_before_switch, session_before_fork and session_before_tree cancel", async () => {
		const hooks = new TestHooks({
			emitSessionBeforeSwitch: async () => ({ cancel: true }),
			emitSessionBeforeFork: async () => ({ cancel: true }),
			emitSessionBeforeTree: async () => ({ cancel: true }),
		});
		harness = await createRuntimeHarness({ hooks });
		harness.faux.enqueue(fauxText("a"));
		await harness.session.prompt("q");
		const [userEntry] = harness.sessionManager.getEntries().filter((entry) => entry.type === "message");
		const sessionId = harness.session.sessionId;
		expect(await harness.session.newSession()).toBe(false);
		expect(await harness.session.fork(userEntry!.id)).toEqual({ selectedText: "q", cancelled: true });
		expect(await harness.session.navigateTree(userEntry!.id)).toEqual({ cancelled: true });
		expect(harness.session.sessionId).toBe(sessionId);
		expect(harness.session.messages).toHaveLength(2);
	});

	it("uses a summary from session_before_tree instead of asking the model", async () => {
		const hooks = new TestHooks({
			emitSessionBeforeTree: async () => ({ summary: { summary: "from extension", details: { n: 1 } } }),
		});
		harness = await createRuntimeHarness({ hooks });
		harness.faux.enqueue(fauxText("a"), fauxText("b"));
		await harness.session.prompt("one");
		await harness.session.prompt("two");
		const [, firstReply] = harness.sessionManager.getEntries().filter((entry) => entry.type === "message");
		const result = await harness.session.navigateTree(firstReply!.id, { summarize: true });
		expect(result.summaryEntry).toMatchObject({ summary: "from extension", details: { n: 1 }, fromHook: true });
		expect(harness.faux.requests).toHaveLength(2);
	});

	it("lets user_bash supply the result instead of running the command", async () => {
		const hooks = new TestHooks({
			emitUserBash: async (event) => ({
				result: { output: `sandboxed: ${event.command}`, exitCode: 0, cancelled: false, truncated: false },
			}),
		});
		harness = await createRuntimeHarness({ hooks });
		const result = await harness.session.executeBash("rm -rf /");
		expect(result.output).toBe("sandboxed: rm -rf /");
		expect(harness.session.messages.at(-1)).toMatchObject({ role: "bashExecution", output: "sandboxed: rm -rf /" });
	});
});
