import {
	type AgentEvent,
	agentLoop,
	defaultConvertToLlm,
	STREAM_ENDED_WITHOUT_RESULT_TEXT,
	type StreamFn,
} from "@agent/agent-core";
import {
	type AssistantMessage,
	createAssistantMessageEventStream,
	createAssistantOutput,
	FauxProvider,
	fauxText,
	type Model,
} from "@agent/ai";
import { describe, expect, it } from "vitest";
import { createHarness, eventLabels, textOf, userMessage } from "./helpers/harness.js";

/** A stream function that plays a fixed script of pushes against a fresh stream. */
function scriptedStream(
	play: (stream: ReturnType<typeof createAssistantMessageEventStream>, model: Model) => void,
): StreamFn {
	return (model) => {
		const stream = createAssistantMessageEventStream();
		setImmediate(() => play(stream, model));
		return stream;
	};
}

describe("malformed replies", () => {
	it("tolerates a final message whose content is a plain string", async () => {
		const { agent } = createHarness({
			streamFn: scriptedStream((stream, model) => {
				const message = {
					...createAssistantOutput(model),
					content: "just a string",
				} as unknown as AssistantMessage;
				stream.push({ type: "done", reason: "stop", message });
			}),
		});
		await agent.prompt("hi");
		const last = agent.state.messages.at(-1) as AssistantMessage;
		expect(last.content).toEqual([{ type: "text", text: "just a string" }]);
		expect(agent.state.error).toBeUndefined();
	});

	it("tolerates a final message without content", async () => {
		const { agent } = createHarness({
			streamFn: scriptedStream((stream, model) => {
				const message = { ...createAssistantOutput(model), content: undefined } as unknown as AssistantMessage;
				stream.push({ type: "done", reason: "stop", message });
			}),
		});
		await agent.prompt("hi");
		expect((agent.state.messages.at(-1) as AssistantMessage).content).toEqual([]);
	});

	it("emits message_start for a stream that never sends `start`", async () => {
		const { agent, events } = createHarness({
			streamFn: scriptedStream((stream, model) => {
				const message = { ...createAssistantOutput(model), content: [{ type: "text" as const, text: "hi" }] };
				stream.push({ type: "text_start", contentIndex: 0, partial: message });
				stream.push({ type: "done", reason: "stop", message });
			}),
		});
		await agent.prompt("hi");
		expect(eventLabels(events, { updates: true }).slice(4, 7)).toEqual([
			"message_start:assistant",
			"message_update:assistant",
			"message_end:assistant",
		]);
	});

	it("accepts a stream function that returns a promise", async () => {
		const faux = new FauxProvider();
		faux.enqueue(fauxText("async hello"));
		const { agent } = createHarness({ streamFn: async (...args) => faux.stream(...args) });
		await agent.prompt("hi");
		expect(textOf(agent.state.messages.at(-1))).toBe("async hello");
	});
});

describe("streams that end without a terminal event", () => {
	it("use the result given to end()", async () => {
		const { agent } = createHarness({
			streamFn: scriptedStream((stream, model) => {
				stream.end({ ...createAssistantOutput(model), content: [{ type: "text", text: "ended" }] });
			}),
		});
		await agent.prompt("hi");
		expect(textOf(agent.state.messages.at(-1))).toBe("ended");
	});

	it("end the turn with an error instead of hanging when there is no result at all", async () => {
		const { agent } = createHarness({
			streamFn: scriptedStream((stream, model) => {
				const partial = { ...createAssistantOutput(model), content: [{ type: "text" as const, text: "half" }] };
				stream.push({ type: "start", partial });
				stream.end();
			}),
		});
		await agent.prompt("hi");
		expect(agent.state.messages.at(-1)).toMatchObject({
			role: "assistant",
			stopReason: "error",
			errorMessage: STREAM_ENDED_WITHOUT_RESULT_TEXT,
			content: [{ type: "text", text: "half" }],
		});
		expect(agent.state.isStreaming).toBe(false);
	});
});

describe("a reply that breaks mid-stream", () => {
	it("keeps what was streamed, ends the run with the error, and the next prompt works", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(
			{ content: [{ type: "text", text: "Partial answer before the connection" }], errorMessage: "socket hang up" },
			fauxText("Second try worked"),
		);
		await agent.prompt("first");
		expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "error", errorMessage: "socket hang up" });
		expect(agent.state.error).toBe("socket hang up");
		await agent.prompt("again");
		expect(textOf(agent.state.messages.at(-1))).toBe("Second try worked");
	});
});

describe("agentLoop when a hook throws", () => {
	it("still ends its stream with agent_end, reporting the failure as an error message", async () => {
		const faux = new FauxProvider();
		const stream = agentLoop(
			[userMessage("hi")],
			{ systemPrompt: "", messages: [] },
			{
				model: faux.model(),
				convertToLlm: defaultConvertToLlm,
				transformContext: async () => {
					throw new Error("context store offline");
				},
			},
			undefined,
			faux.stream,
		);
		const events: AgentEvent[] = [];
		for await (const event of stream) events.push(event);
		expect(eventLabels(events).slice(-3)).toEqual(["message_start:assistant", "message_end:assistant", "agent_end"]);
		const added = await stream.result();
		expect(added.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(added[1]).toMatchObject({ stopReason: "error", errorMessage: "context store offline" });
	});
});
