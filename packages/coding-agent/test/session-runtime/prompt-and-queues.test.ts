import { existsSync, readFileSync } from "node:fs";
import { fauxText } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { STREAMING_WITHOUT_BEHAVIOR_TEXT } from "../../src/core/agent-session.js";
import { deferred } from "../helpers/deferred.js";
import { messageText } from "../helpers/message-text.js";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";

let harness: RuntimeHarness | undefined;
afterEach(() => {
	harness?.dispose();
	harness = undefined;
});

function userTexts(h: RuntimeHarness): string[][] {
	return h.faux.requests.map((request) =>
		request.context.messages.filter((message) => message.role === "user").map(messageText),
	);
}

describe("a prompt on an idle session", () => {
	it("runs the model, emits the run's events and persists model, thinking level and messages", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxText("Hello there"));
		await harness.session.prompt("Say hi");

		expect(harness.eventTypes()).toEqual([
			"agent_start",
			"turn_start",
			"message_start",
			"message_end",
			"message_start",
			"message_update",
			"message_update",
			"message_update",
			"message_end",
			"turn_end",
			"agent_end",
		]);
		const entries = harness.sessionManager.getEntries();
		expect(entries.map((entry) => entry.type)).toEqual([
			"model_change",
			"thinking_level_change",
			"message",
			"message",
		]);
		const file = harness.session.sessionFile as string;
		expect(existsSync(file)).toBe(true);
		const lines = readFileSync(file, "utf8").trim().split("\n");
		expect(lines).toHaveLength(5);
		expect(harness.session.getLastAssistantText()).toBe("Hello there");
		expect(harness.session.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
	});

	it("sends the base system prompt with the active tools", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxText("ok"));
		await harness.session.prompt("hi");
		const request = harness.faux.requests[0];
		expect(request?.context.tools.map((tool) => tool.name)).toEqual(["read", "bash", "edit", "write"]);
		expect(request?.context.systemPrompt).toContain("- read: Read file contents");
		expect(request?.context.systemPrompt).toContain(`Current working directory: ${harness.cwd}`);
	});

	it("expands prompt templates and skills before sending", async () => {
		harness = await createRuntimeHarness({
			files: {
				".agent/prompts/review.md": "---\ndescription: Review\n---\nReview $1 carefully",
				".agent/skills/lint/SKILL.md": "---\nname: lint\ndescription: Lints code\n---\nRun the linter.",
			},
		});
		harness.faux.enqueue(fauxText("a"), fauxText("b"));
		await harness.session.prompt("/review src/app.ts");
		await harness.session.prompt("/skill:lint now");
		const texts = userTexts(harness);
		expect(texts[0]).toEqual(["Review src/app.ts carefully"]);
		expect(texts[1]?.[1]).toMatch(/^<skill name="lint" location="[^"]+SKILL\.md">\nReferences are relative to /);
		expect(texts[1]?.[1]).toContain("Run the linter.\n</skill>\n\nnow");
	});
});

describe("prompting while the agent streams", () => {
	it("rejects a prompt without streamingBehavior with the exact error, leaving the run untouched", async () => {
		harness = await createRuntimeHarness();
		const release = deferred();
		harness.faux.enqueue(fauxText("working", { holdUntil: release.promise }));
		const running = harness.session.prompt("first");
		await harness.nextEvent("message_update");
		await expect(harness.session.prompt("second")).rejects.toThrow(STREAMING_WITHOUT_BEHAVIOR_TEXT);
		release.resolve();
		await running;
		expect(harness.faux.requests).toHaveLength(1);
	});

	it("queues steering and follow-up messages, counts them, and delivers each in its place", async () => {
		harness = await createRuntimeHarness();
		const release = deferred();
		harness.faux.enqueue(
			fauxText("first answer", { holdUntil: release.promise }),
			fauxText("steered"),
			fauxText("followed"),
		);
		const running = harness.session.prompt("first");
		await harness.nextEvent("message_update");
		await harness.session.prompt("change course", { streamingBehavior: "steer" });
		await harness.session.followUp("and then this");
		expect(harness.session.pendingMessageCount).toBe(2);
		expect(harness.session.getSteeringMessages()).toEqual(["change course"]);
		expect(harness.session.getFollowUpMessages()).toEqual(["and then this"]);
		release.resolve();
		await running;
		expect(harness.session.pendingMessageCount).toBe(0);
		expect(userTexts(harness)).toEqual([
			["first"],
			["first", "change course"],
			["first", "change course", "and then this"],
		]);
	});

	it("queues a second prompt sent before the first one's run has started", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxText("first"), fauxText("second"));
		const first = harness.session.prompt("one");
		await expect(harness.session.prompt("two")).rejects.toThrow(STREAMING_WITHOUT_BEHAVIOR_TEXT);
		await harness.session.prompt("two", { streamingBehavior: "followUp" });
		await first;
		expect(userTexts(harness)).toEqual([["one"], ["one", "two"]]);
	});

	it("keeps a steering message queued while idle and injects it after the next prompt", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxText("done"));
		await harness.session.steer("remember tabs");
		expect(harness.session.pendingMessageCount).toBe(1);
		await harness.session.prompt("format the file");
		expect(userTexts(harness)[0]).toEqual(["format the file", "remember tabs"]);
		expect(harness.session.pendingMessageCount).toBe(0);
	});

	it("clearQueue returns the queued texts and nothing is delivered", async () => {
		harness = await createRuntimeHarness();
		await harness.session.steer("a");
		await harness.session.followUp("b");
		expect(harness.session.clearQueue()).toEqual({ steering: ["a"], followUp: ["b"] });
		harness.faux.enqueue(fauxText("ok"));
		await harness.session.prompt("only this");
		expect(userTexts(harness)).toEqual([["only this"]]);
	});
});

describe("tools and extension messages", () => {
	it("rebuilds the system prompt and the tool list when the active tools change", async () => {
		harness = await createRuntimeHarness();
		harness.session.setActiveToolsByName(["read", "grep", "nonexistent"]);
		expect(harness.session.getActiveToolNames()).toEqual(["read", "grep"]);
		harness.faux.enqueue(fauxText("ok"));
		await harness.session.prompt("hi");
		const request = harness.faux.requests[0];
		expect(request?.context.tools.map((tool) => tool.name)).toEqual(["read", "grep"]);
		expect(request?.context.systemPrompt).toContain("- grep: Search file contents");
		expect(request?.context.systemPrompt).not.toContain("- bash:");
	});

	it("delivers extension messages next turn, as a turn of their own, or silently into the context", async () => {
		harness = await createRuntimeHarness();
		await harness.session.sendCustomMessage(
			{ customType: "note", content: "for next turn", display: true },
			{ deliverAs: "nextTurn" },
		);
		expect(harness.session.messages).toEqual([]);
		harness.faux.enqueue(fauxText("one"), fauxText("two"));
		await harness.session.prompt("first");
		expect(userTexts(harness)[0]).toEqual(["first", "for next turn"]);

		await harness.session.sendCustomMessage({ customType: "note", content: "quiet", display: false });
		expect(harness.faux.requests).toHaveLength(1);
		expect(harness.eventTypes().slice(-2)).toEqual(["message_start", "message_end"]);
		await harness.session.sendCustomMessage(
			{ customType: "note", content: "go on", display: true },
			{ triggerTurn: true },
		);
		expect(userTexts(harness)[1]).toEqual(["first", "for next turn", "quiet", "go on"]);
		const stored = harness.sessionManager.getEntries().filter((entry) => entry.type === "custom_message");
		expect(stored).toHaveLength(3);
	});

	it("treats a running compaction as busy: prompts must be queued until it is done", async () => {
		harness = await createRuntimeHarness({ settings: { compaction: { keepRecentTokens: 10 } } });
		const gate = deferred();
		harness.faux.enqueue(fauxText("one"), fauxText("two"), fauxText("Summary", { holdUntil: gate.promise }));
		await harness.session.prompt("x".repeat(200));
		await harness.session.prompt("y".repeat(200));
		const compacting = harness.session.compact();
		while (!harness.session.isCompacting) await new Promise((resolve) => setImmediate(resolve));
		await expect(harness.session.prompt("now")).rejects.toThrow(STREAMING_WITHOUT_BEHAVIOR_TEXT);
		gate.resolve();
		await compacting;
		expect(harness.session.isCompacting).toBe(false);
	});
});
