import { fauxText, fauxToolCall } from "@agent/ai";
import { describe, expect, it } from "vitest";
import {
	createExtensionSessionStarter,
	extensionLog,
	LOG_PRELUDE,
	resetExtensionLog,
} from "../helpers/extension-harness.js";

const start = createExtensionSessionStarter();

type Logged = Record<string, unknown> & { type: string };

function logged(): Logged[] {
	return extensionLog() as Logged[];
}

const ALL_EVENTS = [
	"session_start",
	"resources_discover",
	"input",
	"before_agent_start",
	"agent_start",
	"turn_start",
	"context",
	"message_start",
	"message_end",
	"tool_execution_start",
	"tool_call",
	"tool_execution_update",
	"tool_result",
	"tool_execution_end",
	"turn_end",
	"agent_end",
];

describe("a prompt cycle", () => {
	it("fires every event in the documented order with its payload", async () => {
		const s = await start({
			files: { "notes.txt": "line one" },
			extensions: {
				"observer.ts": `${LOG_PRELUDE}
					const names = ${JSON.stringify(ALL_EVENTS)};
					export default (pi: any) => {
						for (const name of names) pi.on(name, (event: any, ctx: any) => {
							log.push({ ...event, idle: ctx.isIdle(), hasUI: ctx.hasUI });
						});
					};`,
			},
		});
		s.harness.faux.enqueue(fauxToolCall("read", { path: "notes.txt" }, { id: "call-1" }), fauxText("done"));
		await s.harness.session.prompt("read my notes");

		const events = logged();
		const describe = (event: Logged) =>
			event.type.startsWith("message_") ? `${event.type}:${(event.message as { role: string }).role}` : event.type;
		expect(events.map(describe)).toEqual([
			"session_start",
			"resources_discover",
			"input",
			"before_agent_start",
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"context",
			"message_start:assistant",
			"message_end:assistant",
			"tool_execution_start",
			"tool_call",
			"tool_result",
			"tool_execution_end",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"context",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		const byType = (type: string) => events.filter((event) => event.type === type);
		expect(byType("resources_discover")[0]).toMatchObject({ cwd: s.world.cwd, reason: "startup" });
		expect(byType("input")[0]).toMatchObject({ text: "read my notes", source: "interactive", idle: true });
		expect(byType("before_agent_start")[0]).toMatchObject({ prompt: "read my notes" });
		expect(byType("before_agent_start")[0]?.systemPrompt).toBe(s.harness.faux.requests[0]?.context.systemPrompt);
		expect(byType("turn_start").map((event) => event.turnIndex)).toEqual([0, 1]);
		expect(typeof byType("turn_start")[0]?.timestamp).toBe("number");
		expect(byType("agent_start")[0]).toMatchObject({ idle: false, hasUI: true });
		expect(byType("tool_execution_start")[0]).toMatchObject({
			toolCallId: "call-1",
			toolName: "read",
			args: { path: "notes.txt" },
		});
		expect(byType("tool_call")[0]).toMatchObject({
			toolCallId: "call-1",
			toolName: "read",
			input: { path: "notes.txt" },
		});
		expect(byType("tool_result")[0]).toMatchObject({
			toolCallId: "call-1",
			toolName: "read",
			input: { path: "notes.txt" },
			isError: false,
			content: [{ type: "text", text: expect.stringContaining("line one") }],
		});
		expect(byType("tool_execution_end")[0]).toMatchObject({ toolCallId: "call-1", toolName: "read", isError: false });
		const [firstTurnEnd, secondTurnEnd] = byType("turn_end");
		expect(firstTurnEnd).toMatchObject({ turnIndex: 0, message: { role: "assistant", stopReason: "toolUse" } });
		expect(firstTurnEnd?.toolResults).toHaveLength(1);
		expect(secondTurnEnd).toMatchObject({ turnIndex: 1, toolResults: [] });
		const contexts = byType("context").map((event) => (event.messages as { role: string }[]).map((m) => m.role));
		expect(contexts).toEqual([["user"], ["user", "assistant", "toolResult"]]);
		expect(byType("agent_end")[0]?.messages).toHaveLength(4);
	});

	it("delivers an event in extension load order, and in registration order within an extension", async () => {
		const s = await start({
			extensions: {
				"a.ts": `${LOG_PRELUDE} export default (pi: any) => {
					pi.on("agent_start", () => { log.push("a1"); });
					pi.on("agent_start", async () => { await Promise.resolve(); log.push("a2"); });
				};`,
				"b.ts": `${LOG_PRELUDE} export default (pi: any) => { pi.on("agent_start", () => { log.push("b1"); }); };`,
			},
			load: ["b.ts", "a.ts"],
		});
		s.harness.faux.enqueue(fauxText("ok"));
		await s.harness.session.prompt("go");
		expect(extensionLog()).toEqual(["b1", "a1", "a2"]);
	});

	it("gives handlers copies: a handler editing a message does not change the session's messages", async () => {
		const s = await start({
			extensions: {
				"vandal.ts": `export default (pi: any) => {
					pi.on("message_end", (event: any) => { if (event.message.role === "user") event.message.content[0].text = "VANDALIZED"; });
					let calls = 0;
					pi.on("context", (event: any) => { if (calls++ === 0) event.messages[0].content[0].text = "EDITED IN PLACE"; });
				};`,
			},
		});
		s.harness.faux.enqueue(fauxText("ok"), fauxText("ok again"));
		await s.harness.session.prompt("original text");
		await s.harness.session.prompt("second");
		const firstUser = s.harness.session.messages[0] as { content: { text: string }[] };
		expect(firstUser.content[0]?.text).toBe("original text");
		const stored = s.harness.sessionManager.getEntries().find((entry) => entry.type === "message");
		expect(JSON.stringify(stored)).toContain("original text");
		// The first call went out with the edited copy; the next call starts from the session's messages again.
		const sentFirst = s.harness.faux.requests[0]?.context.messages[0] as { content: { text: string }[] };
		const sentNext = s.harness.faux.requests[1]?.context.messages[0] as { content: { text: string }[] };
		expect(sentFirst.content[0]?.text).toBe("EDITED IN PLACE");
		expect(sentNext.content[0]?.text).toBe("original text");
	});
});

describe("session events", () => {
	it("reports model changes, compaction, new sessions, forks, tree moves, reload and shutdown", async () => {
		const s = await start({
			models: [{ id: "faux-1" }, { id: "faux-2" }],
			settings: { compaction: { reserveTokens: 2000, keepRecentTokens: 50 } },
			extensions: {
				"session.ts": `${LOG_PRELUDE}
					const names = ["session_start", "resources_discover", "model_select", "session_before_compact",
						"session_compact", "session_before_switch", "session_switch", "session_before_fork", "session_fork",
						"session_before_tree", "session_tree", "session_shutdown"];
					export default (pi: any) => {
						for (const name of names) pi.on(name, (event: any) => { log.push(event); });
					};`,
			},
		});
		const { session, faux, modelRegistry } = s.harness;
		faux.enqueue(fauxText("first answer ".repeat(100)), fauxText("second answer"));
		await session.prompt("one");
		await session.prompt("two ".repeat(100));
		resetExtensionLog();

		await session.setModel(
			modelRegistry.find("faux", "faux-2") as NonNullable<ReturnType<typeof modelRegistry.find>>,
		);
		faux.enqueue(fauxText("summary of one and two"));
		await session.compact();
		const userEntry = s.harness.sessionManager.getEntries().find((entry) => entry.type === "message");
		await session.navigateTree(userEntry?.id as string);
		const forkFrom = session.getUserMessagesForForking()[0]?.entryId as string;
		await session.fork(forkFrom);
		await session.newSession();
		await session.reload();
		await session.shutdown();

		const types = logged().map((event) => event.type);
		expect(types).toEqual([
			"model_select",
			"session_before_compact",
			"session_compact",
			"session_before_tree",
			"session_tree",
			"session_before_fork",
			"session_fork",
			"session_before_switch",
			"session_switch",
			"session_shutdown",
			"session_start",
			"resources_discover",
			"session_shutdown",
		]);
		const event = (type: string) => logged().find((entry) => entry.type === type) as Logged;
		expect(event("model_select")).toMatchObject({
			model: { id: "faux-2" },
			previousModel: { id: "faux-1" },
			source: "set",
		});
		expect(event("session_compact")).toMatchObject({ fromExtension: false, compactionEntry: { type: "compaction" } });
		expect(event("session_before_fork")).toMatchObject({ entryId: forkFrom });
		expect(event("session_before_switch")).toMatchObject({ reason: "new" });
		expect(event("resources_discover")).toMatchObject({ reason: "reload" });
	});

	it("lets a user_bash handler supply the result of a ! command", async () => {
		const s = await start({
			extensions: {
				"bash.ts": `${LOG_PRELUDE} export default (pi: any) => {
					pi.on("user_bash", (event: any) => {
						log.push(event);
						return { result: { output: "from the extension", exitCode: 0, cancelled: false, truncated: false } };
					});
				};`,
			},
		});
		const result = await s.harness.session.executeBash("echo real", undefined, { excludeFromContext: true });
		expect(result.output).toBe("from the extension");
		expect(logged()).toEqual([
			{ type: "user_bash", command: "echo real", excludeFromContext: true, cwd: s.world.cwd },
		]);
	});
});

describe("contexts", () => {
	it("reads session values at access time; ctx.shutdown() records the request for the mode", async () => {
		const s = await start({
			extensions: {
				"ctx.ts": `${LOG_PRELUDE} export default (pi: any) => {
					pi.on("agent_end", (_event: any, ctx: any) => {
						log.push({
							cwd: ctx.cwd,
							model: ctx.model?.id,
							entries: ctx.sessionManager.getEntries().length,
							prompt: ctx.getSystemPrompt().length > 0,
							usage: typeof ctx.getContextUsage()?.contextWindow,
							pending: ctx.hasPendingMessages(),
						});
						ctx.shutdown();
					});
				};`,
			},
		});
		s.harness.faux.enqueue(fauxText("hello"));
		await s.harness.session.prompt("hi");
		expect(extensionLog()).toEqual([
			{
				cwd: s.world.cwd,
				model: "faux-1",
				entries: s.harness.sessionManager.getEntries().length,
				prompt: true,
				usage: "number",
				pending: false,
			},
		]);
		expect(s.runner.isShutdownRequested()).toBe(true);
	});
});
