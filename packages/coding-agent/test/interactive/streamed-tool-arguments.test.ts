import type { AssistantMessageEvent, ToolCall } from "@agent/ai";
import { stripAnsi } from "@agent/tui";
import { describe, expect, it } from "vitest";
import { StatusArea } from "../../src/modes/interactive/components/status-area.js";
import { ToolExecutionComponent } from "../../src/modes/interactive/components/tool-execution.js";
import { SessionEventRenderer } from "../../src/modes/interactive/event-renderer.js";
import { Transcript } from "../../src/modes/interactive/transcript.js";
import { assistantMessage, createDisplayState } from "../helpers/interactive-display.js";
import { waitFor } from "../helpers/interactive-terminal.js";

describe("a tool call being written", () => {
	it("reads the streamed arguments a few times, not once per fragment", async () => {
		const state = createDisplayState();
		const transcript = new Transcript(state);
		const renders: number[] = [];
		const renderer = new SessionEventRenderer({
			transcript,
			status: new StatusArea({ requestRender: () => {} }, state),
			state,
			workingMessage: () => "Working...",
			refreshPending: () => {},
			requestRender: () => renders.push(Date.now()),
			onIdle: () => {},
			isBusy: () => true,
			waitForIdle: () => new Promise(() => {}),
		});
		let reads = 0;
		let content = "";
		const block = { type: "toolCall", id: "call_1", name: "write" } as ToolCall;
		Object.defineProperty(block, "arguments", {
			enumerable: true,
			get: () => {
				reads++;
				return { path: "big.txt", content };
			},
		});
		const message = assistantMessage([block], { model: "m" });
		renderer.handle({ type: "message_start", message });
		const start: AssistantMessageEvent = { type: "toolcall_start", contentIndex: 0, partial: message };
		renderer.handle({ type: "message_update", message, assistantMessageEvent: start });
		for (let i = 0; i < 2000; i++) {
			content += "x";
			const delta: AssistantMessageEvent = { type: "toolcall_delta", contentIndex: 0, delta: "x", partial: message };
			renderer.handle({ type: "message_update", message, assistantMessageEvent: delta });
		}
		expect(reads).toBeLessThanOrEqual(2);
		// The latest arguments are shown once the refresh interval has passed.
		const tool = transcript.children.find(
			(child) => child instanceof ToolExecutionComponent,
		) as ToolExecutionComponent;
		await waitFor(() => reads >= 2, "the deferred read");
		expect(stripAnsi(tool.render(100).join("\n"))).toContain("write big.txt");
		const end: AssistantMessageEvent = {
			type: "toolcall_end",
			contentIndex: 0,
			toolCall: { type: "toolCall", id: "call_1", name: "write", arguments: { path: "big.txt", content } },
			partial: message,
		};
		renderer.handle({ type: "message_update", message, assistantMessageEvent: end });
		expect(stripAnsi(tool.render(100).join("\n"))).toContain("write big.txt (1 line)");
	});
});
