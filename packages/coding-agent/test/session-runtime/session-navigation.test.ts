import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fauxError, fauxText } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { BRANCH_SUMMARY_PREAMBLE, BRANCH_SUMMARY_PROMPT } from "../../src/core/compaction/prompts.js";
import type { SessionEntry } from "../../src/core/session/entries.js";
import { messageTextsOf } from "../helpers/message-text.js";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";

let harness: RuntimeHarness | undefined;
afterEach(() => {
	harness?.dispose();
	harness = undefined;
});

async function twoTurns(h: RuntimeHarness): Promise<SessionEntry[]> {
	h.faux.enqueue(fauxText("answer one"), fauxText("answer two"));
	await h.session.prompt("question one");
	await h.session.prompt("question two");
	return h.sessionManager.getEntries().filter((entry) => entry.type === "message");
}

function userTexts(h: RuntimeHarness): string[] {
	return messageTextsOf(h.faux.requests.at(-1));
}

describe("new session", () => {
	it("starts an empty session with the same model, records the thinking level, and leaves the old file alone", async () => {
		harness = await createRuntimeHarness();
		await twoTurns(harness);
		const previousFile = harness.session.sessionFile as string;
		const previousId = harness.session.sessionId;
		const before = readFileSync(previousFile, "utf8");

		expect(await harness.session.newSession({ parentSession: previousFile })).toBe(true);
		expect(harness.session.sessionId).not.toBe(previousId);
		expect(harness.session.messages).toEqual([]);
		expect(harness.sessionManager.getEntries().map((entry) => entry.type)).toEqual(["thinking_level_change"]);
		expect(harness.sessionManager.getHeader().parentSession).toBe(previousFile);
		expect(harness.session.model?.id).toBe("faux-1");
		expect(readFileSync(previousFile, "utf8")).toBe(before);
	});
});

describe("switching sessions", () => {
	it("restores the other session's context, model and thinking level", async () => {
		harness = await createRuntimeHarness({ models: [{ id: "faux-1" }, { id: "faux-2" }] });
		harness.session.setThinkingLevel("low");
		await twoTurns(harness);
		const firstFile = harness.session.sessionFile as string;

		await harness.session.newSession();
		await harness.session.setModel(harness.modelRegistry.find("faux", "faux-2")!);
		harness.session.setThinkingLevel("high");
		harness.faux.enqueue(fauxText("other"));
		await harness.session.prompt("other session");

		expect(await harness.session.switchSession(firstFile)).toBe(true);
		expect(harness.session.sessionFile).toBe(firstFile);
		expect(harness.session.messages.map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"user",
			"assistant",
		]);
		expect(harness.session.model?.id).toBe("faux-1");
		expect(harness.session.thinkingLevel).toBe("low");
	});

	it("turns a path that does not exist into a new session written there later", async () => {
		harness = await createRuntimeHarness();
		const target = join(harness.root, "elsewhere", "new.jsonl");
		expect(await harness.session.switchSession(target)).toBe(true);
		expect(harness.session.messages).toEqual([]);
		expect(harness.sessionManager.getEntries().map((entry) => entry.type)).toEqual(["thinking_level_change"]);
		harness.faux.enqueue(fauxText("hello"));
		await harness.session.prompt("hi");
		expect(existsSync(target)).toBe(true);
	});
});

describe("forking", () => {
	it("copies the path before the chosen user message into a new file and returns the message's text", async () => {
		harness = await createRuntimeHarness();
		const [, , secondUser] = await twoTurns(harness);
		const previousFile = harness.session.sessionFile as string;

		const result = await harness.session.fork(secondUser!.id);
		expect(result).toEqual({ selectedText: "question two", cancelled: false });
		expect(harness.session.sessionFile).not.toBe(previousFile);
		expect(harness.sessionManager.getHeader().parentSession).toBe(previousFile);
		expect(harness.session.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(existsSync(harness.session.sessionFile as string)).toBe(true);
	});

	it("rejects an entry that is not a user message", async () => {
		harness = await createRuntimeHarness();
		const [, firstAssistant] = await twoTurns(harness);
		await expect(harness.session.fork(firstAssistant!.id)).rejects.toThrow("Invalid entry ID for forking");
		await expect(harness.session.fork("nope")).rejects.toThrow("Invalid entry ID for forking");
	});

	it("lists every user message of the file, on all branches, for a fork picker", async () => {
		harness = await createRuntimeHarness();
		const [firstUser] = await twoTurns(harness);
		await harness.session.navigateTree(firstUser!.id);
		harness.faux.enqueue(fauxText("alt"));
		await harness.session.prompt("question one, again");
		expect(harness.session.getUserMessagesForForking().map((message) => message.text)).toEqual([
			"question one",
			"question two",
			"question one, again",
		]);
	});
});

describe("tree navigation", () => {
	it("moves before a selected user message and offers its text; selecting a reply keeps it", async () => {
		harness = await createRuntimeHarness();
		const [firstUser, firstAssistant] = await twoTurns(harness);
		const toUser = await harness.session.navigateTree(firstUser!.id);
		expect(toUser).toEqual({ cancelled: false, editorText: "question one" });
		expect(harness.session.messages).toEqual([]);
		expect(harness.sessionManager.getLeafId()).toBe(firstUser!.parentId);

		await harness.session.navigateTree(firstAssistant!.id, { label: "checkpoint" });
		expect(harness.session.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(harness.sessionManager.getLabel(firstAssistant!.id)).toBe("checkpoint");
	});

	it("summarizes the branch left behind and attaches the summary at the new position", async () => {
		harness = await createRuntimeHarness();
		const [, firstAssistant] = await twoTurns(harness);
		harness.faux.enqueue(fauxText("## Goal\nExplored question two"));
		const result = await harness.session.navigateTree(firstAssistant!.id, {
			summarize: true,
			customInstructions: "mention the answer",
		});

		const summaryRequest = harness.faux.requests.at(-1);
		expect(summaryRequest?.options?.maxTokens).toBe(2048);
		expect(userTexts(harness)[0]).toBe(
			`<conversation>\n[User]: question two\n\n[Assistant]: answer two\n</conversation>\n\n${BRANCH_SUMMARY_PROMPT}\n\nAdditional focus: mention the answer`,
		);
		expect(result.summaryEntry).toMatchObject({
			type: "branch_summary",
			parentId: firstAssistant!.id,
			fromId: firstAssistant!.id,
			summary: `${BRANCH_SUMMARY_PREAMBLE}## Goal\nExplored question two`,
			fromHook: false,
		});
		expect(harness.session.messages.map((message) => message.role)).toEqual(["user", "assistant", "branchSummary"]);

		harness.faux.enqueue(fauxText("continuing"));
		await harness.session.prompt("new direction");
		expect(userTexts(harness)[2]).toBe(
			`The following is a summary of a branch that this conversation came back from:\n\n<summary>\n${BRANCH_SUMMARY_PREAMBLE}## Goal\nExplored question two</summary>`,
		);
	});

	it("throws the summarizer's error and leaves the position unchanged", async () => {
		harness = await createRuntimeHarness();
		const [, firstAssistant] = await twoTurns(harness);
		const leaf = harness.sessionManager.getLeafId();
		harness.faux.enqueue(fauxError("500 internal error"));
		await expect(harness.session.navigateTree(firstAssistant!.id, { summarize: true })).rejects.toThrow(
			"500 internal error",
		);
		expect(harness.sessionManager.getLeafId()).toBe(leaf);
	});

	it("rejects an unknown entry and does nothing for the current leaf", async () => {
		harness = await createRuntimeHarness();
		await twoTurns(harness);
		await expect(harness.session.navigateTree("missing")).rejects.toThrow("Entry missing not found");
		const leaf = harness.sessionManager.getLeafId() as string;
		expect(await harness.session.navigateTree(leaf)).toEqual({ cancelled: false });
	});
});
