// Agent integration scenarios on the scripted faux provider. Parts that belong to other layers are noted where
// they occur: real-provider E2E runs live in @agent/ai's provider tests; retry, compaction and error classification live in the
// coding agent's session layer. Here each scenario checks what the agent core itself guarantees.
import { Agent, type AgentTool, SKIPPED_FOR_STEERING_TEXT } from "@agent/agent-core";
import {
	createFauxProvider,
	type FauxRequest,
	fauxText,
	fauxToolCall,
	type Message,
	type ToolResultMessage,
	Type,
} from "@agent/ai";
import { describe, expect, it } from "vitest";
import {
	createGatedTool,
	createHarness,
	createTool,
	deferred,
	expectWellPairedToolCalls,
	requestRoles,
	rolesOf,
	textOf,
	toolCallsReply,
	userMessage,
	waitForEvent,
} from "./helpers/harness.js";

/** read/edit tools over an in-memory file map: real enough to check that calls change state. */
function createFileTools(files: Map<string, string>): AgentTool[] {
	const read = createTool({
		name: "read",
		parameters: Type.Object({ path: Type.String() }),
		execute: async (_id, { path }) => {
			const content = files.get(path);
			if (content === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
			return { content: [{ type: "text", text: content }], details: { path } };
		},
	});
	const edit = createTool({
		name: "edit",
		parameters: Type.Object({ path: Type.String(), oldText: Type.String(), newText: Type.String() }),
		execute: async (_id, { path, oldText, newText }) => {
			const content = files.get(path) ?? "";
			if (!content.includes(oldText)) throw new Error(`Could not find the exact text in ${path}.`);
			files.set(path, content.replace(oldText, newText));
			return { content: [{ type: "text", text: `Successfully replaced text in ${path}.` }], details: {} };
		},
	});
	return [read, edit];
}

const lastToolResultText = (request: FauxRequest) => {
	const results = request.context.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
	return textOf(results.at(-1));
};

describe("1. pipeline", () => {
	it("1.1 smoke: a configured agent answers a text prompt without error", async () => {
		const { faux, agent } = createHarness({ tools: createFileTools(new Map()) });
		faux.enqueue(fauxText("Hello!"));
		await agent.prompt("Say hello");
		expect(textOf(agent.state.messages.at(-1))).toBe("Hello!");
		expect(agent.state.error).toBeUndefined();
	});

	it("1.2 single tool call: the model reads a file and its final answer contains the content", async () => {
		const files = new Map([["test.txt", "the secret is 42"]]);
		const { faux, agent } = createHarness({ tools: createFileTools(files) });
		faux.enqueue(fauxToolCall("read", { path: "test.txt" }), (request) =>
			fauxText(`test.txt contains: ${lastToolResultText(request)}`),
		);
		await agent.prompt("Read test.txt");
		expect(textOf(agent.state.messages.at(-1))).toBe("test.txt contains: the secret is 42");
	});

	it("1.3 consecutive tool calls: read, then edit, each executed correctly", async () => {
		const files = new Map([["app.ts", "const port = 3000;"]]);
		const { faux, agent } = createHarness({ tools: createFileTools(files) });
		faux.enqueue(
			fauxToolCall("read", { path: "app.ts" }),
			fauxToolCall("edit", { path: "app.ts", oldText: "3000", newText: "8080" }),
			fauxToolCall("read", { path: "app.ts" }),
			(request) => fauxText(`Now: ${lastToolResultText(request)}`),
		);
		await agent.prompt("Change the port to 8080");
		expect(files.get("app.ts")).toBe("const port = 8080;");
		expect(textOf(agent.state.messages.at(-1))).toBe("Now: const port = 8080;");
		const results = (agent.state.messages as Message[]).filter((m) => m.role === "toolResult");
		expect(results.every((r) => r.role === "toolResult" && !r.isError)).toBe(true);
	});

	it("1.4 steering: the running tool finishes, the remaining calls are skipped, the message comes next", async () => {
		// Steering does not kill the running tool (as in the reference); a mode that wants that calls abort() as well.
		const bash = createGatedTool("bash");
		const { faux, agent } = createHarness({ tools: [bash.tool], toolExecution: "sequential" });
		faux.enqueue(
			{
				content: [
					{ type: "toolCall", id: "sleep", name: "bash", arguments: { label: "sleep 30" } },
					{ type: "toolCall", id: "next", name: "bash", arguments: { label: "make" } },
				],
			},
			fauxText("Switching"),
		);
		const run = agent.prompt("Build it");
		await bash.whenStarted(1);
		agent.steer(userMessage("Stop, run the tests instead"));
		bash.release("sleep");
		await run;
		expect(bash.startedIds).toEqual(["sleep"]);
		expect(bash.signals.get("sleep")?.aborted).toBe(false);
		const results = (agent.state.messages as Message[]).filter(
			(m): m is ToolResultMessage => m.role === "toolResult",
		);
		expect(results.map((r) => [r.toolCallId, textOf(r)])).toEqual([
			["sleep", "bash done sleep"],
			["next", SKIPPED_FOR_STEERING_TEXT],
		]);
		expect(textOf(faux.requests[1].context.messages.at(-1))).toBe("Stop, run the tests instead");
	});

	it("1.5 follow-up: after a finished answer, a follow-up continues with the context kept", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("Paris"), fauxText("About 2 million"));
		await agent.prompt("Capital of France?");
		agent.followUp(userMessage("And its population?"));
		await agent.continue();
		expect(faux.requests[1].context.messages.map(textOf)).toEqual([
			"Capital of France?",
			"Paris",
			"And its population?",
		]);
		expect(textOf(agent.state.messages.at(-1))).toBe("About 2 million");
	});

	it("1.6 abort: every running tool is told to stop and cleans up", async () => {
		const cleanedUp = new Set<string>();
		const started = deferred();
		let running = 0;
		const process = createTool({
			name: "spawn",
			parameters: Type.Object({ name: Type.String() }),
			execute: (_id, { name }, signal) =>
				new Promise((_resolve, reject) => {
					if (++running === 2) started.resolve();
					signal?.addEventListener("abort", () => {
						cleanedUp.add(name);
						reject(new Error("Command aborted"));
					});
				}),
		});
		const { faux, agent } = createHarness({ tools: [process] });
		faux.enqueue({
			content: ["server", "watcher"].map((name) => ({
				type: "toolCall" as const,
				name: "spawn",
				arguments: { name },
			})),
		});
		const run = agent.prompt("Start both");
		await started.promise;
		agent.abort();
		await run;
		expect([...cleanedUp].sort()).toEqual(["server", "watcher"]);
		expect(agent.state.isStreaming).toBe(false);
	});

	it("1.7 concurrency lock: a second prompt while busy is rejected, not run alongside", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("one"));
		const first = agent.prompt("first");
		await expect(agent.prompt("second")).rejects.toThrow(/already processing/);
		await first;
		expect(faux.requests).toHaveLength(1);
	});

	it("1.8 context: a tool result from the first prompt is sent with the second", async () => {
		const files = new Map([["notes.md", "remember the milk"]]);
		const { faux, agent } = createHarness({ tools: createFileTools(files) });
		faux.enqueue(fauxToolCall("read", { path: "notes.md" }), fauxText("Read it"), fauxText("You need milk"));
		await agent.prompt("Read notes.md");
		await agent.prompt("What do I need to buy?");
		const sent = faux.requests[2].context.messages;
		expect(rolesOf(sent)).toEqual(["user", "assistant", "toolResult", "assistant", "user"]);
		expect(textOf(sent[2])).toBe("remember the milk");
	});
});

describe("2. end to end over the scripted provider (live Anthropic runs belong to @agent/ai)", () => {
	it("2.1 text prompt: the answer to 2+2 contains 4", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue((request) => fauxText(textOf(request.context.messages[0]).includes("2+2") ? "2+2 = 4" : "?"));
		await agent.prompt("What is 2+2?");
		expect(textOf(agent.state.messages.at(-1))).toContain("4");
	});

	it("2.2 tool call: arguments reach the tool and the result reaches the model", async () => {
		const received: unknown[] = [];
		const tool = createTool({
			name: "read",
			parameters: Type.Object({ path: Type.String(), offset: Type.Optional(Type.Number()) }),
			execute: async (_id, params) => {
				received.push(params);
				return { content: [{ type: "text", text: "line 10" }], details: {} };
			},
		});
		const { faux, agent } = createHarness({ tools: [tool] });
		faux.enqueue(fauxToolCall("read", { path: "/repo/a.ts", offset: 10 }, { id: "toolu_1" }), fauxText("ok"));
		await agent.prompt("Read");
		expect(received).toEqual([{ path: "/repo/a.ts", offset: 10 }]);
		expect(faux.requests[1].context.messages.at(-1)).toMatchObject({
			toolCallId: "toolu_1",
			content: [{ text: "line 10" }],
		});
	});

	it("2.3 streaming events: start, then text_start, deltas, text_end, then the final message", async () => {
		const { faux, agent, events } = createHarness();
		faux.enqueue(fauxText("streamed in several pieces", { chunkSize: 6 }));
		await agent.prompt("Stream");
		const assistantEvents = events
			.filter((e) => e.type.startsWith("message_") && "message" in e && e.message.role === "assistant")
			.map((e) => (e.type === "message_update" ? e.assistantMessageEvent.type : e.type));
		expect(assistantEvents[0]).toBe("message_start");
		expect(assistantEvents[1]).toBe("text_start");
		expect(assistantEvents.slice(2, -2).every((t) => t === "text_delta")).toBe(true);
		expect(assistantEvents.slice(2, -2).length).toBeGreaterThan(1);
		expect(assistantEvents.slice(-2)).toEqual(["text_end", "message_end"]);
	});

	it("2.4 multi-turn: the second prompt carries the first exchange", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("Nice to meet you, Ada"), (request) =>
			fauxText(textOf(request.context.messages[0]).includes("Ada") ? "Your name is Ada" : "I don't know"),
		);
		await agent.prompt("My name is Ada");
		await agent.prompt("What is my name?");
		expect(textOf(agent.state.messages.at(-1))).toBe("Your name is Ada");
	});
});

describe("3. routing", () => {
	it("3.1 without a stream function, calls go through the ai registry to the model's API", async () => {
		const faux = createFauxProvider({ api: "faux-routing-test", provider: "routed" });
		try {
			faux.enqueue(fauxText("routed reply"));
			const agent = new Agent({ initialState: { model: faux.model() } });
			await agent.prompt("hi");
			expect(faux.requests).toHaveLength(1);
			expect(agent.state.messages.at(-1)).toMatchObject({ provider: "routed", api: "faux-routing-test" });
		} finally {
			faux.unregister();
		}
	});
});

describe("4. reference bug regressions", () => {
	it("4.1 (#403) concurrent prompts: the second is rejected and the state is not corrupted", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("answer to first"), fauxText("unused"));
		const results = await Promise.allSettled([agent.prompt("first"), agent.prompt("second")]);
		expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
		expect(agent.state.messages.map(textOf)).toEqual(["first", "answer to first"]);
		expect(faux.pending).toBe(1);
	});

	it("4.2 (#1454/#1455) a call interrupted after its sibling finished still leaves a valid next request", async () => {
		const bash = createGatedTool("bash");
		const { faux, agent } = createHarness({ tools: [bash.tool] });
		faux.enqueue(toolCallsReply("bash", ["done", "cut"]), fauxText("ok"));
		const run = agent.prompt("Two commands");
		await bash.whenStarted(2);
		bash.release("done");
		await waitForEvent(agent, (e) => e.type === "tool_execution_end");
		agent.abort();
		await run;
		await agent.prompt("next");
		expect(expectWellPairedToolCalls(faux.requests[1].context.messages)).toEqual({ calls: 2, results: 2 });
	});

	it("4.2 a history with an orphaned tool result (e.g. a damaged session) is repaired before sending", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("ok"));
		agent.replaceMessages([
			userMessage("hi"),
			{ role: "toolResult", toolCallId: "ghost", toolName: "bash", content: [], isError: false, timestamp: 1 },
		]);
		await agent.prompt("next");
		expect(requestRoles(faux.requests[0])).toEqual(["user", "user"]);
	});

	it("4.3 (#1038) a 429 ends the run with the provider's error, once, leaving the history untouched", async () => {
		// Retry with backoff and the overflow-vs-rate-limit decision live in the coding agent's session layer.
		const { faux, agent } = createHarness();
		faux.enqueue({ errorMessage: "429 Too Many Requests: rate_limit_error" });
		agent.replaceMessages([userMessage("earlier"), userMessage("context")]);
		await agent.prompt("hi");
		expect(faux.requests).toHaveLength(1);
		expect(agent.state.error).toBe("429 Too Many Requests: rate_limit_error");
		expect(rolesOf(agent.state.messages)).toEqual(["user", "user", "user", "assistant"]);
	});

	it("4.4 (#1312) messages queued while the agent is busy are never lost", async () => {
		// Compaction itself is the coding agent's; the agent core's part is that queues survive any run end.
		const { faux, agent } = createHarness();
		faux.enqueue(
			() => {
				agent.followUp(userMessage("queued during the answer"));
				return fauxText("first");
			},
			fauxText("second"),
			{ errorMessage: "overloaded" },
		);
		await agent.prompt("start");
		expect(textOf(faux.requests[1].context.messages.at(-1))).toBe("queued during the answer");
		// Queued just as a run fails: kept for the next one.
		agent.followUp(userMessage("queued before a failing run"));
		await agent.prompt("this fails");
		expect(agent.state.error).toBe("overloaded");
		expect(agent.hasQueuedMessages()).toBe(true);
	});

	it("4.5 (#1434) string content in user and assistant messages does not crash the loop", async () => {
		const { faux, agent } = createHarness({
			streamFn: (model, context, options) => {
				const stream = faux.stream(model, context, options);
				return {
					[Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
					push: (event) => stream.push(event),
					end: (result) => stream.end(result),
					result: async () => ({ ...(await stream.result()), content: "a plain string reply" }) as never,
				};
			},
		});
		faux.enqueue({ content: [] });
		await agent.prompt({ role: "user", content: "string content", timestamp: 1 });
		expect(agent.state.messages.at(-1)).toMatchObject({ content: [{ type: "text", text: "a plain string reply" }] });
	});

	it("4.6 (#1446) three reads finishing in reverse order keep their own ids, in both modes", async () => {
		for (const mode of ["parallel", "sequential"] as const) {
			const read = createGatedTool("read");
			const { faux, agent } = createHarness({ tools: [read.tool], toolExecution: mode });
			faux.enqueue(
				{
					content: ["A", "B", "C"].map((f) => ({ type: "toolCall" as const, id: f, name: "read", arguments: {} })),
				},
				fauxText("ok"),
			);
			const run = agent.prompt("read A B C");
			if (mode === "parallel") {
				await read.whenStarted(3);
				for (const id of ["C", "B", "A"]) read.release(id, `content of ${id}`);
			} else {
				for (const [index, id] of ["A", "B", "C"].entries()) {
					await read.whenStarted(index + 1);
					read.release(id, `content of ${id}`);
				}
			}
			await run;
			const sent = faux.requests[1].context.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
			expect(sent.map((r) => `${r.toolCallId}=${textOf(r)}`)).toEqual([
				"A=content of A",
				"B=content of B",
				"C=content of C",
			]);
		}
	});

	it("4.7 (#1465) waiting for the agent resolves only after its tools and the final turn", async () => {
		const bash = createGatedTool("bash");
		const { faux, agent } = createHarness({ tools: [bash.tool] });
		faux.enqueue(fauxToolCall("bash", {}, { id: "t1" }), fauxText("finished"));
		const log: string[] = [];
		const run = agent.prompt("go");
		const idle = agent.waitForIdle().then(() => log.push("idle"));
		await bash.whenStarted(1);
		log.push("tool running");
		bash.release("t1");
		await idle;
		await run;
		expect(log).toEqual(["tool running", "idle"]);
		expect(textOf(agent.state.messages.at(-1))).toBe("finished");
	});
});

describe("5. error recovery and robustness", () => {
	it("5.1 a connection that drops after the third chunk ends the run with an error, without hanging", async () => {
		const { faux, agent, events } = createHarness();
		faux.enqueue(
			{
				content: [{ type: "text", text: "abcdefghi" }],
				chunkSize: 3,
				errorMessage: "terminated: other side closed",
			},
			fauxText("back"),
		);
		await agent.prompt("go");
		const deltas = events.filter((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta");
		expect(deltas).toHaveLength(3);
		expect(agent.state).toMatchObject({ isStreaming: false, error: "terminated: other side closed" });
		await agent.prompt("again");
		expect(textOf(agent.state.messages.at(-1))).toBe("back");
	});

	it("5.2 malformed tool arguments get a readable error and the next round works", async () => {
		const files = new Map([["a.txt", "A"]]);
		const { faux, agent } = createHarness({ tools: createFileTools(files) });
		// What a truncated JSON argument string parses to: an object missing the required field.
		faux.enqueue(fauxToolCall("read", { pa: "a.t" }), fauxToolCall("read", { path: "a.txt" }), fauxText("ok"));
		await agent.prompt("read");
		const results = (agent.state.messages as Message[]).filter(
			(m): m is ToolResultMessage => m.role === "toolResult",
		);
		expect(results[0].isError).toBe(true);
		expect(textOf(results[0])).toMatch(
			/^Validation failed for tool "read":\n {2}- path: must have required property 'path'/,
		);
		expect(textOf(results[1])).toBe("A");
		expect(textOf(agent.state.messages.at(-1))).toBe("ok");
	});

	it("5.3 provider errors are surfaced verbatim for the session layer to classify", async () => {
		const message = "invalid_request_error: thinking blocks must precede text blocks";
		const { faux, agent } = createHarness();
		faux.enqueue({ errorMessage: message });
		await agent.prompt("go");
		expect(agent.state.error).toBe(message);
		expect(faux.requests).toHaveLength(1);
	});

	it("5.4 a stalled stream is ended by abort (idle timeouts belong to the provider layer)", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue({ content: [{ type: "text", text: "started then" }], holdUntil: deferred().promise });
		const run = agent.prompt("go");
		await waitForEvent(agent, (e) => e.type === "message_update");
		agent.abort();
		await run;
		expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "aborted" });
	});

	it("5.5 a tool that throws is isolated: the error goes back to the model and the loop continues", async () => {
		const { faux, agent } = createHarness({ tools: createFileTools(new Map()) });
		faux.enqueue(fauxToolCall("read", { path: "gone.txt" }), fauxText("The file is missing"));
		await agent.prompt("read gone.txt");
		const result = (agent.state.messages as Message[]).find((m): m is ToolResultMessage => m.role === "toolResult");
		expect(result).toMatchObject({ isError: true });
		expect(textOf(result)).toBe("ENOENT: no such file or directory, open 'gone.txt'");
		expect(textOf(agent.state.messages.at(-1))).toBe("The file is missing");
	});

	it("5.6 an invalid API key surfaces the authentication error once, with no retry", async () => {
		const { faux, agent } = createHarness({ getApiKey: () => "sk-invalid" });
		faux.enqueue({ errorMessage: '401 {"type":"authentication_error","message":"invalid x-api-key"}' });
		await agent.prompt("hi");
		expect(faux.requests).toHaveLength(1);
		expect(faux.requests[0].options?.apiKey).toBe("sk-invalid");
		expect(agent.state.error).toContain("authentication_error");
	});
});
