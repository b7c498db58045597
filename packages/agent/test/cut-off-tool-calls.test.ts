import { CUT_OFF_AT_LENGTH_TEXT, invalidArgumentsText, SIBLING_INVALID_TEXT } from "@agent/agent-core";
import { fauxText } from "@agent/ai";
import { describe, expect, it, vi } from "vitest";
import { createEchoTool, createGatedTool, createHarness, textOf, toolResultsOf } from "./helpers/harness.js";

function spiedEchoTool() {
	const echo = createEchoTool();
	vi.spyOn(echo, "execute");
	return echo;
}

// Ours: the reference runs the calls of any reply that did not fail, with whatever partial JSON parsing
// recovered. Only a reply that ended normally, with arguments that arrived complete, has its calls executed.
describe("calls of a reply that did not end normally never run", () => {
	it("refuses every call of a reply that stopped at the output limit, and tells the model how to retry", async () => {
		const echo = spiedEchoTool();
		const { faux, agent, events } = createHarness({ tools: [echo] });
		faux.enqueue(
			{
				content: [
					{ type: "toolCall", id: "complete", name: "echo", arguments: { text: "rm -rf keep/tmp" } },
					{ type: "toolCall", id: "cut", name: "echo", arguments: { text: "rm -rf keep/" } },
				],
				stopReason: "length",
			},
			fauxText("Retrying in parts"),
		);
		await agent.prompt("Clean up");

		const results = toolResultsOf(agent.state.messages);
		expect(results.map((result) => [result.toolCallId, result.isError, textOf(result)])).toEqual([
			["complete", true, CUT_OFF_AT_LENGTH_TEXT],
			["cut", true, CUT_OFF_AT_LENGTH_TEXT],
		]);
		expect(echo.execute).not.toHaveBeenCalled();
		// Every call is still reported to the UI as started and ended, and the model gets to try again.
		expect(events.filter((event) => event.type === "tool_execution_start")).toHaveLength(2);
		expect(faux.requests).toHaveLength(2);
		expect(textOf(agent.state.messages.at(-1))).toBe("Retrying in parts");
	});

	it("refuses a call whose arguments did not arrive complete, and the other calls of the same reply", async () => {
		const echo = spiedEchoTool();
		const { faux, agent } = createHarness({ tools: [echo] });
		faux.enqueue(
			{
				content: [
					{ type: "toolCall", id: "fine", name: "echo", arguments: { text: "mkdir out" } },
					{
						type: "toolCall",
						id: "broken",
						name: "echo",
						arguments: { text: "partial" },
						invalidArguments: "arguments are not valid JSON: Unexpected end of JSON input",
					},
				],
				stopReason: "toolUse",
			},
			fauxText("ok"),
		);
		await agent.prompt("Go");

		const [fine, broken] = toolResultsOf(agent.state.messages);
		expect(textOf(broken)).toBe(invalidArgumentsText("arguments are not valid JSON: Unexpected end of JSON input"));
		expect(textOf(fine)).toBe(SIBLING_INVALID_TEXT);
		expect([fine.isError, broken.isError]).toEqual([true, true]);
		expect(echo.execute).not.toHaveBeenCalled();
	});

	it("never asks the beforeToolCall gate about a call it refuses", async () => {
		const echo = spiedEchoTool();
		const asked: string[] = [];
		const { faux, agent } = createHarness({
			tools: [echo],
			beforeToolCall: async ({ toolCall }) => {
				asked.push(toolCall.id);
				return undefined;
			},
		});
		faux.enqueue(
			{ content: [{ type: "toolCall", id: "c1", name: "echo", arguments: { text: "x" } }], stopReason: "length" },
			fauxText("ok"),
		);
		await agent.prompt("Go");
		expect(asked).toEqual([]);
	});

	it("runs the calls of a reply that ended normally", async () => {
		const echo = spiedEchoTool();
		const { faux, agent } = createHarness({ tools: [echo] });
		faux.enqueue(
			{ content: [{ type: "toolCall", id: "c1", name: "echo", arguments: { text: "hi" } }], stopReason: "toolUse" },
			fauxText("done"),
		);
		await agent.prompt("Go");
		expect(echo.execute).toHaveBeenCalledTimes(1);
		expect(toolResultsOf(agent.state.messages)[0].isError).toBe(false);
	});
});

describe("parallel tool calls are bounded", () => {
	const callsOf = (count: number) =>
		Array.from({ length: count }, (_, index) => ({
			type: "toolCall" as const,
			id: `call_${index}`,
			name: "read",
			arguments: { label: String(index) },
		}));

	it("starts at most maxParallelToolCalls at once; the rest start as earlier ones finish, in order", async () => {
		const gated = createGatedTool("read");
		const { faux, agent } = createHarness({ tools: [gated.tool], maxParallelToolCalls: 3 });
		faux.enqueue({ content: callsOf(7) }, fauxText("all read"));
		const run = agent.prompt("Read them all");

		await gated.whenStarted(3);
		// Let the loop run everything it can: nothing beyond the three running calls may start.
		await new Promise<void>((resolve) => setImmediate(resolve));
		expect(gated.startedIds).toEqual(["call_0", "call_1", "call_2"]);

		gated.release("call_1", "one");
		await gated.whenStarted(4);
		expect(gated.startedIds[3]).toBe("call_3");
		for (const id of ["call_0", "call_2", "call_3", "call_4", "call_5", "call_6"]) gated.release(id, id);
		await run;
		expect(gated.startedIds).toEqual(callsOf(7).map((call) => call.id));
		const results = toolResultsOf(agent.state.messages);
		expect(results.map((result) => result.toolCallId)).toEqual(callsOf(7).map((call) => call.id));
		expect(results.every((result) => !result.isError)).toBe(true);
	});

	it("defaults to eight at once", async () => {
		const gated = createGatedTool("read");
		const { faux, agent } = createHarness({ tools: [gated.tool] });
		faux.enqueue({ content: callsOf(10) }, fauxText("all read"));
		const run = agent.prompt("Read them all");
		await gated.whenStarted(8);
		await new Promise<void>((resolve) => setImmediate(resolve));
		expect(gated.startedIds).toHaveLength(8);
		agent.abort();
		await run;
		// Calls still queued when the run was aborted never start.
		expect(gated.startedIds).toHaveLength(8);
		const results = toolResultsOf(agent.state.messages);
		expect(results).toHaveLength(10);
		expect(results.every((result) => result.isError)).toBe(true);
	});
});
