// The live translation of session events into ACP updates, and the translation of ACP prompts into text and
// images (pure parts, with property tests for the invariants editors rely on).
import type { AssistantMessage } from "@agent/ai";
import type { ContentBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import type { AgentSessionEvent } from "../../src/core/session-runtime/events.js";
import { toPromptInput } from "../../src/modes/acp/prompt-content.js";
import { SessionUpdateTranslator } from "../../src/modes/acp/session-updates.js";

const CWD = "/work/project";
const PARTIAL = { role: "assistant", content: [] } as unknown as AssistantMessage;

function toolCallEnd(id: string, name: string, args: Record<string, unknown>): AgentSessionEvent {
	return {
		type: "message_update",
		message: PARTIAL,
		assistantMessageEvent: {
			type: "toolcall_end",
			contentIndex: 0,
			toolCall: { type: "toolCall", id, name, arguments: args },
			partial: PARTIAL,
		},
	};
}

function toolStart(id: string, name: string, args: Record<string, unknown> = {}): AgentSessionEvent {
	return { type: "tool_execution_start", toolCallId: id, toolName: name, args };
}

function toolEnd(id: string, name: string, isError = false): AgentSessionEvent {
	return {
		type: "tool_execution_end",
		toolCallId: id,
		toolName: name,
		result: { content: [{ type: "text", text: `${id} done` }], details: undefined },
		isError,
	};
}

function translateAll(translator: SessionUpdateTranslator, events: readonly AgentSessionEvent[]): SessionUpdate[] {
	return events.flatMap((event) => translator.translate(event));
}

describe("live updates", () => {
	it("sends text and thinking deltas as message and thought chunks", () => {
		const translator = new SessionUpdateTranslator({ cwd: CWD });
		const delta = (type: "text_delta" | "thinking_delta", text: string): AgentSessionEvent => ({
			type: "message_update",
			message: PARTIAL,
			assistantMessageEvent: { type, contentIndex: 0, delta: text, partial: PARTIAL },
		});
		expect(
			translateAll(translator, [delta("thinking_delta", "hmm"), delta("text_delta", "Hi"), delta("text_delta", "")]),
		).toEqual([
			{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } },
			{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hi" } },
		]);
	});

	it("does not echo the prompt's own user message, but echoes later user messages", () => {
		const translator = new SessionUpdateTranslator({ cwd: CWD });
		const user = (text: string): AgentSessionEvent => ({
			type: "message_start",
			message: { role: "user", content: [{ type: "text", text }], timestamp: 0 },
		});
		translator.expectPromptEcho();
		expect(translateAll(translator, [user("the prompt"), user("from an extension")])).toEqual([
			{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "from an extension" } },
		]);
	});

	it("echoes user messages after a prompt that produced none (an extension consumed it)", () => {
		const translator = new SessionUpdateTranslator({ cwd: CWD });
		translator.expectPromptEcho();
		translator.endPrompt();
		const later: AgentSessionEvent = {
			type: "message_start",
			message: { role: "user", content: "sent later", timestamp: 0 },
		};
		expect(translator.translate(later)).toEqual([
			{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "sent later" } },
		]);
	});

	it("announces a call whose streaming was not seen when it starts, as in progress", () => {
		const translator = new SessionUpdateTranslator({ cwd: CWD });
		expect(translator.translate(toolStart("t", "ls", { path: "src" }))).toEqual([
			{
				sessionUpdate: "tool_call",
				toolCallId: "t",
				title: "List src",
				kind: "search",
				status: "in_progress",
				locations: [{ path: "/work/project/src" }],
				rawInput: { path: "src" },
			},
		]);
	});

	it("reports a running call's output while it runs, unless it runs in an editor terminal", () => {
		const terminals = new Map([["in-terminal", "term-1"]]);
		const translator = new SessionUpdateTranslator({ cwd: CWD, terminalOf: (id) => terminals.get(id) });
		const update = (id: string): AgentSessionEvent => ({
			type: "tool_execution_update",
			toolCallId: id,
			toolName: "bash",
			args: {},
			partialResult: { content: [{ type: "text", text: "line 1" }], details: undefined },
		});
		expect(translateAll(translator, [update("local"), update("in-terminal")])).toEqual([
			{
				sessionUpdate: "tool_call_update",
				toolCallId: "local",
				content: [{ type: "content", content: { type: "text", text: "line 1" } }],
			},
		]);
		translator.translate(toolStart("in-terminal", "bash"));
		expect(translator.translate(toolEnd("in-terminal", "bash"))).toEqual([
			{
				sessionUpdate: "tool_call_update",
				toolCallId: "in-terminal",
				status: "completed",
				content: [{ type: "terminal", terminalId: "term-1" }],
			},
		]);
	});

	it("knows which calls are running", () => {
		const translator = new SessionUpdateTranslator({ cwd: CWD });
		translateAll(translator, [toolStart("a", "read"), toolStart("b", "bash"), toolEnd("a", "read")]);
		expect(translator.runningToolCalls()).toEqual([{ toolCallId: "b", toolName: "bash" }]);
	});

	it("every update refers to a call announced before it, announced once, finished once", () => {
		const call = fc.record({
			streamed: fc.boolean(),
			failed: fc.boolean(),
			name: fc.constantFrom("read", "bash", "edit", "x"),
		});
		fc.assert(
			fc.property(
				fc.array(call, { minLength: 1, maxLength: 8 }),
				fc.array(fc.nat(), { maxLength: 8 }),
				(calls, order) => {
					const ids = calls.map((_, index) => `call-${index}`);
					const events: AgentSessionEvent[] = [];
					for (const [index, spec] of calls.entries()) {
						if (spec.streamed) events.push(toolCallEnd(ids[index] as string, spec.name, { path: "f" }));
					}
					for (const [index, spec] of calls.entries()) {
						events.push(toolStart(ids[index] as string, spec.name, { path: "f" }));
					}
					// Calls finish in any order.
					const pending = [...ids];
					const finishing: string[] = [];
					for (const pick of order) {
						if (pending.length === 0) break;
						finishing.push(...pending.splice(pick % pending.length, 1));
					}
					finishing.push(...pending);
					for (const id of finishing) {
						const spec = calls[ids.indexOf(id)] as (typeof calls)[number];
						events.push(toolEnd(id, spec.name, spec.failed));
					}
					const updates = translateAll(new SessionUpdateTranslator({ cwd: CWD }), events);
					const announced = new Set<string>();
					const finished = new Map<string, number>();
					for (const update of updates) {
						if (update.sessionUpdate === "tool_call") {
							expect(announced.has(update.toolCallId)).toBe(false);
							announced.add(update.toolCallId);
						} else if (update.sessionUpdate === "tool_call_update") {
							expect(announced.has(update.toolCallId)).toBe(true);
							if (update.status === "completed" || update.status === "failed") {
								finished.set(update.toolCallId, (finished.get(update.toolCallId) ?? 0) + 1);
								expect(update.status).toBe(
									calls[ids.indexOf(update.toolCallId)]?.failed ? "failed" : "completed",
								);
							}
						}
					}
					expect([...announced].sort()).toEqual([...ids].sort());
					expect(ids.every((id) => finished.get(id) === 1)).toBe(true);
				},
			),
		);
	});
});

describe("prompt content", () => {
	it("keeps text and links in order, adds embedded files as context, attaches images", () => {
		const input = toPromptInput([
			{ type: "text", text: "Compare " },
			{ type: "resource_link", uri: "file:///work/a%20b.ts", name: "a b.ts" },
			{ type: "text", text: " with the selection" },
			{ type: "resource", resource: { uri: "file:///work/c.ts", text: "const c = 1;" } },
			{ type: "image", data: "AAAA", mimeType: "image/png" },
			{ type: "resource", resource: { uri: "file:///work/d.png", blob: "BBBB", mimeType: "image/png" } },
		]);
		expect(input.text).toBe(
			'Compare @/work/a b.ts with the selection\n\n<context ref="/work/c.ts">\nconst c = 1;\n</context>',
		);
		expect(input.images).toEqual([
			{ type: "image", data: "AAAA", mimeType: "image/png" },
			{ type: "image", data: "BBBB", mimeType: "image/png" },
		]);
	});

	it("is the concatenation of its text blocks, whatever they hold", () => {
		fc.assert(
			fc.property(fc.array(fc.string(), { maxLength: 6 }), (texts) => {
				const blocks: ContentBlock[] = texts.map((text) => ({ type: "text", text }));
				expect(toPromptInput(blocks)).toEqual({ text: texts.join(""), images: [] });
			}),
		);
	});
});
