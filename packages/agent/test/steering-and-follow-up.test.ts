import { SKIPPED_FOR_STEERING_TEXT } from "@agent/agent-core";
import { fauxText, fauxToolCall } from "@agent/ai";
import { describe, expect, it } from "vitest";
import {
	createEchoTool,
	createGatedTool,
	createHarness,
	eventLabels,
	expectWellPairedToolCalls,
	textOf,
	toolCallsReply,
	toolResultsOf,
	userMessage,
} from "./helpers/harness.js";

describe("steering during sequential tools", () => {
	it("skips the remaining calls with the skip result and delivers the message before the next model call", async () => {
		const gated = createGatedTool("slow");
		const { faux, agent, events } = createHarness({ tools: [gated.tool], toolExecution: "sequential" });
		faux.enqueue(toolCallsReply("slow", ["a", "b", "c"]), fauxText("Switching to the new request"));
		const run = agent.prompt("Do three things");
		await gated.whenStarted(1);
		agent.steer(userMessage("Stop, do this instead"));
		gated.release("a");
		await run;

		expect(gated.startedIds).toEqual(["a"]);
		const toolResults = toolResultsOf(agent.state.messages);
		expect(toolResults.map((r) => [r.toolCallId, textOf(r), r.isError])).toEqual([
			["a", "slow done a", false],
			["b", SKIPPED_FOR_STEERING_TEXT, true],
			["c", SKIPPED_FOR_STEERING_TEXT, true],
		]);
		expect(SKIPPED_FOR_STEERING_TEXT).toBe("Skipped due to queued user message.");
		expect(eventLabels(events).slice(-19)).toEqual([
			"tool_execution_end:a",
			"message_start:toolResult:a",
			"message_end:toolResult:a",
			"tool_execution_start:b",
			"tool_execution_end:b",
			"message_start:toolResult:b",
			"message_end:toolResult:b",
			"tool_execution_start:c",
			"tool_execution_end:c",
			"message_start:toolResult:c",
			"message_end:toolResult:c",
			"turn_end",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		const second = faux.requests[1].context.messages;
		expect(second.map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"toolResult",
			"user",
		]);
		expect(textOf(second.at(-1))).toBe("Stop, do this instead");
		expectWellPairedToolCalls(second);
	});
});

describe("steering during parallel tools", () => {
	it("found during preflight, skips every call without running any, and starts each call only once", async () => {
		const gated = createGatedTool("slow");
		let steered = false;
		const { faux, agent, events } = createHarness({
			tools: [gated.tool],
			beforeToolCall: async () => {
				if (!steered) agent.steer(userMessage("Actually, stop"));
				steered = true;
				return undefined;
			},
		});
		faux.enqueue(toolCallsReply("slow", ["a", "b", "c"]), fauxText("Stopped"));
		await agent.prompt("Go");

		expect(gated.startedIds).toEqual([]);
		expect(eventLabels(events).filter((l) => l.startsWith("tool_execution"))).toEqual([
			"tool_execution_start:a",
			"tool_execution_end:a",
			"tool_execution_start:b",
			"tool_execution_end:b",
			"tool_execution_start:c",
			"tool_execution_end:c",
		]);
		expect(
			toolResultsOf(agent.state.messages).every((r) => textOf(r) === SKIPPED_FOR_STEERING_TEXT && r.isError),
		).toBe(true);
		expect(textOf(faux.requests[1].context.messages.at(-1))).toBe("Actually, stop");
	});

	it("queued while the calls run, lets them all finish and is delivered next", async () => {
		const gated = createGatedTool("slow");
		const { faux, agent } = createHarness({ tools: [gated.tool] });
		faux.enqueue(toolCallsReply("slow", ["a", "b"]), fauxText("Noted"));
		const run = agent.prompt("Go");
		await gated.whenStarted(2);
		agent.steer(userMessage("Also check the tests"));
		gated.release("b");
		gated.release("a");
		await run;

		expect(toolResultsOf(agent.state.messages).map((r) => [r.toolCallId, r.isError])).toEqual([
			["a", false],
			["b", false],
		]);
		expect(faux.requests[1].context.messages.map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"user",
		]);
	});
});

describe("steering delivery", () => {
	it("one-at-a-time delivers one queued message per turn, in order", async () => {
		const { faux, agent } = createHarness({ tools: [createEchoTool()] });
		faux.enqueue(
			(request) => {
				agent.steer(userMessage("first steer"));
				agent.steer(userMessage("second steer"));
				return fauxToolCall("echo", {}, { id: `c${request.context.messages.length}` });
			},
			fauxText("Answering the first"),
			fauxText("Answering the second"),
		);
		await agent.prompt("Start");
		expect(faux.requests.map((r) => textOf(r.context.messages.at(-1)))).toEqual([
			"Start",
			"first steer",
			"second steer",
		]);
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	it("all mode delivers every queued message in one turn", async () => {
		const { faux, agent } = createHarness({ tools: [createEchoTool()], steeringMode: "all" });
		faux.enqueue(() => {
			agent.steer(userMessage("first steer"));
			agent.steer(userMessage("second steer"));
			return fauxToolCall("echo", {}, { id: "c1" });
		}, fauxText("Both answered"));
		await agent.prompt("Start");
		expect(faux.requests).toHaveLength(2);
		expect(faux.requests[1].context.messages.slice(-2).map(textOf)).toEqual(["first steer", "second steer"]);
	});

	it("a message steered during the final answer starts another turn", async () => {
		const { faux, agent, events } = createHarness();
		faux.enqueue(() => {
			agent.steer(userMessage("one more thing"));
			return fauxText("Here you go");
		}, fauxText("And the other thing"));
		await agent.prompt("Question");
		expect(eventLabels(events).filter((l) => l.startsWith("turn_"))).toEqual([
			"turn_start",
			"turn_end",
			"turn_start",
			"turn_end",
		]);
		expect(textOf(agent.state.messages.at(-1))).toBe("And the other thing");
	});
});

describe("follow-up messages", () => {
	it("are delivered only after the agent would stop, continuing the same run with its context", async () => {
		const { faux, agent, events } = createHarness({ tools: [createEchoTool()] });
		faux.enqueue(
			() => {
				agent.followUp(userMessage("Now summarise"));
				return fauxToolCall("echo", { n: 1 }, { id: "c1" });
			},
			fauxText("Echoed"),
			fauxText("Summary"),
		);
		await agent.prompt("Echo something");

		expect(faux.requests).toHaveLength(3);
		// Not delivered while tool calls were still being answered.
		expect(textOf(faux.requests[1].context.messages.at(-1))).toBe('echo: {"n":1}');
		expect(faux.requests[2].context.messages.map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
			"user",
		]);
		expect(eventLabels(events).filter((l) => l === "agent_start" || l === "agent_end")).toEqual([
			"agent_start",
			"agent_end",
		]);
		expect(textOf(agent.state.messages.at(-1))).toBe("Summary");
	});

	it("one-at-a-time runs a turn per follow-up; all mode runs them together", async () => {
		for (const [mode, expectedRequests] of [
			["one-at-a-time", 3],
			["all", 2],
		] as const) {
			const { faux, agent } = createHarness({ followUpMode: mode });
			faux.enqueue(
				() => {
					agent.followUp(userMessage("f1"));
					agent.followUp(userMessage("f2"));
					return fauxText("first");
				},
				fauxText("second"),
				fauxText("third"),
			);
			await agent.prompt("Start");
			expect(faux.requests).toHaveLength(expectedRequests);
			expect(agent.getFollowUpMode()).toBe(mode);
		}
	});

	it("steering takes precedence over follow-ups", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(
			() => {
				agent.followUp(userMessage("follow-up"));
				agent.steer(userMessage("steer"));
				return fauxText("first");
			},
			fauxText("second"),
			fauxText("third"),
		);
		await agent.prompt("Start");
		expect(faux.requests.map((r) => textOf(r.context.messages.at(-1)))).toEqual(["Start", "steer", "follow-up"]);
	});
});

describe("queues", () => {
	it("can be cleared separately or together, and report whether anything is queued", () => {
		const { agent } = createHarness();
		expect(agent.hasQueuedMessages()).toBe(false);
		agent.steer(userMessage("s"));
		agent.followUp(userMessage("f"));
		agent.clearSteeringQueue();
		expect(agent.hasQueuedMessages()).toBe(true);
		agent.clearFollowUpQueue();
		expect(agent.hasQueuedMessages()).toBe(false);
		agent.steer(userMessage("s"));
		agent.followUp(userMessage("f"));
		agent.clearAllQueues();
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	it("default to one-at-a-time and switch modes", () => {
		const { agent } = createHarness();
		expect([agent.getSteeringMode(), agent.getFollowUpMode()]).toEqual(["one-at-a-time", "one-at-a-time"]);
		agent.setSteeringMode("all");
		agent.setFollowUpMode("all");
		expect([agent.getSteeringMode(), agent.getFollowUpMode()]).toEqual(["all", "all"]);
	});
});

describe("continue() after an assistant message", () => {
	it("runs queued steering as the prompt without polling that queue again before the first call", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("First answer"), fauxText("To steer one"), fauxText("To steer two"));
		await agent.prompt("Hello");
		agent.steer(userMessage("steer one"));
		agent.steer(userMessage("steer two"));
		await agent.continue();
		expect(faux.requests.slice(1).map((r) => r.context.messages.slice(2).map(textOf))).toEqual([
			["steer one"],
			["steer one", "To steer one", "steer two"],
		]);
	});

	it("runs queued follow-ups when no steering is queued, and otherwise refuses", async () => {
		const { faux, agent } = createHarness();
		faux.enqueue(fauxText("First answer"), fauxText("Followed up"));
		await agent.prompt("Hello");
		await expect(agent.continue()).rejects.toThrow("Cannot continue from message role: assistant");
		agent.followUp(userMessage("and then?"));
		await agent.continue();
		expect(textOf(faux.requests[1].context.messages.at(-1))).toBe("and then?");
		expect(textOf(agent.state.messages.at(-1))).toBe("Followed up");
	});
});
