import { FauxProvider, fauxError, fauxText } from "@agent/ai";
import { describe, expect, it } from "vitest";
import { compact, prepareCompaction } from "../../src/core/compaction/compaction.js";
import { computeFileLists, formatFileOperations } from "../../src/core/compaction/file-operations.js";
import {
	SUMMARIZATION_PROMPT,
	SUMMARIZATION_SYSTEM_PROMPT,
	TURN_PREFIX_SUMMARIZATION_PROMPT,
	UPDATE_SUMMARIZATION_PROMPT,
} from "../../src/core/compaction/prompts.js";
import { serializeConversation } from "../../src/core/compaction/serialization.js";
import { DEFAULT_COMPACTION_SETTINGS } from "../../src/core/compaction/token-estimation.js";
import { messageTextsOf } from "../helpers/message-text.js";
import {
	assistant,
	chain,
	compactionEntry,
	messageEntry,
	text,
	toolCall,
	toolResult,
	user,
} from "../helpers/runtime-entries.js";

const SMALL = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 150 };

function firstText(request: FauxProvider["requests"][number]): string {
	return messageTextsOf(request)[0] ?? "";
}

describe("serializeConversation", () => {
	it("flattens roles into labelled blocks and cuts long tool results at 2000 characters", () => {
		const call = toolCall("edit", { path: "a.ts", oldText: "x" });
		const thinking = assistant("Done.", { toolCalls: [call] });
		thinking.content.unshift({ type: "thinking", thinking: "let me think" });
		const serialized = serializeConversation([
			user("Fix it"),
			thinking,
			toolResult(call, text(2500, "r")),
			{
				role: "bashExecution",
				command: "ls",
				output: "a",
				exitCode: 0,
				cancelled: false,
				truncated: false,
				timestamp: 0,
			},
		]);
		expect(serialized).toBe(
			[
				"[User]: Fix it",
				"[Assistant thinking]: let me think",
				"[Assistant]: Done.",
				'[Assistant tool calls]: edit(path="a.ts", oldText="x")',
				`[Tool result]: ${text(2000, "r")}\n\n[... 500 more characters truncated]`,
				"[User]: Ran `ls`\n```\na\n```",
			].join("\n\n"),
		);
	});
});

describe("file operation lists", () => {
	it("sorts modified files (edited and written) and leaves them out of the read list", () => {
		const lists = computeFileLists({
			read: new Set(["b.ts", "a.ts", "c.ts"]),
			written: new Set(["c.ts"]),
			edited: new Set(["z.ts"]),
		});
		expect(lists).toEqual({ readFiles: ["a.ts", "b.ts"], modifiedFiles: ["c.ts", "z.ts"] });
		expect(formatFileOperations(lists.readFiles, lists.modifiedFiles)).toBe(
			"\n\n<read-files>\na.ts\nb.ts\n</read-files>\n\n<modified-files>\nc.ts\nz.ts\n</modified-files>",
		);
		expect(formatFileOperations([], [])).toBe("");
	});
});

describe("prepareCompaction", () => {
	it("summarizes the history before the kept turn and collects the files it touched", () => {
		const read = toolCall("read", { path: "src/a.ts" });
		const write = toolCall("write", { path: "src/b.ts", content: "x" });
		const branch = chain([
			messageEntry(user(text(400))),
			messageEntry(assistant("", { toolCalls: [read, write] })),
			messageEntry(toolResult(read, "a")),
			messageEntry(toolResult(write, "ok")),
			messageEntry(assistant(text(400))),
			messageEntry(user(text(400))),
			messageEntry(assistant(text(400))),
		]);
		const preparation = prepareCompaction(branch, SMALL);
		expect(preparation?.firstKeptEntryId).toBe(branch[5]?.id);
		expect(preparation?.isSplitTurn).toBe(false);
		expect(preparation?.messagesToSummarize.map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"assistant",
		]);
		expect(preparation?.turnPrefixMessages).toEqual([]);
		expect(computeFileLists(preparation!.fileOps)).toEqual({ readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] });
	});

	it("returns undefined when the branch already ends with a compaction, or nothing would be summarized", () => {
		const small = chain([messageEntry(user("hi")), messageEntry(assistant("hello"))]);
		expect(prepareCompaction(small, DEFAULT_COMPACTION_SETTINGS)).toBeUndefined();
		const compacted = chain([...small, compactionEntry("summary", small[0]!.id)]);
		expect(prepareCompaction(compacted, SMALL)).toBeUndefined();
	});

	it("updates the previous summary and carries its file lists forward, unless an extension wrote it", () => {
		const first = chain([messageEntry(user(text(400))), messageEntry(assistant(text(400)))]);
		const details = { readFiles: ["old-read.ts"], modifiedFiles: ["old-edit.ts"] };
		const later = [messageEntry(user(text(400))), messageEntry(assistant(text(400))), messageEntry(user(text(400)))];
		const branch = chain([...first, compactionEntry("previous summary", first[1]!.id, details), ...later]);
		const preparation = prepareCompaction(branch, SMALL);
		expect(preparation?.previousSummary).toBe("previous summary");
		expect(computeFileLists(preparation!.fileOps)).toEqual({
			readFiles: ["old-read.ts"],
			modifiedFiles: ["old-edit.ts"],
		});

		const fromHook = chain([...first, compactionEntry("ext summary", first[1]!.id, details, true), ...later]);
		expect(computeFileLists(prepareCompaction(fromHook, SMALL)!.fileOps)).toEqual({
			readFiles: [],
			modifiedFiles: [],
		});
	});

	it("splits a turn too large to keep whole into history and turn prefix", () => {
		const calls = [toolCall("read", { path: "1" }), toolCall("read", { path: "2" })];
		const branch = chain([
			messageEntry(user("old question")),
			messageEntry(assistant("old answer")),
			messageEntry(user("big task")),
			messageEntry(assistant("", { toolCalls: [calls[0]!] })),
			messageEntry(toolResult(calls[0]!, text(2000))),
			messageEntry(assistant("", { toolCalls: [calls[1]!] })),
			messageEntry(toolResult(calls[1]!, text(2000))),
			messageEntry(assistant("done")),
		]);
		const preparation = prepareCompaction(branch, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 600 });
		expect(preparation?.isSplitTurn).toBe(true);
		expect(preparation?.firstKeptEntryId).toBe(branch[5]?.id);
		expect(preparation?.messagesToSummarize.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(preparation?.turnPrefixMessages.map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
		]);
	});
});

describe("compact", () => {
	const model = new FauxProvider().model({ reasoning: true });

	it("sends the transcript and the structured prompt, with 80% of reserveTokens as its budget and reasoning on", async () => {
		const faux = new FauxProvider();
		faux.enqueue(fauxText("## Goal\nShip it"));
		const branch = chain([
			messageEntry(user(text(400))),
			messageEntry(assistant(text(400), { toolCalls: [toolCall("edit", { path: "x.ts" })] })),
			messageEntry(user(text(400))),
			messageEntry(assistant(text(400))),
		]);
		const preparation = prepareCompaction(branch, SMALL)!;
		const result = await compact(preparation, model, "key", "focus on tests", undefined, { streamFn: faux.stream });

		const request = faux.requests[0]!;
		expect(request.context.systemPrompt).toBe(SUMMARIZATION_SYSTEM_PROMPT);
		expect(request.options?.maxTokens).toBe(13107);
		expect(request.options?.reasoning).toBe("high");
		const body = firstText(request);
		expect(body.startsWith(`<conversation>\n[User]: ${text(400)}`)).toBe(true);
		expect(body.endsWith(`</conversation>\n\n${SUMMARIZATION_PROMPT}\n\nAdditional focus: focus on tests`)).toBe(
			true,
		);
		expect(result).toEqual({
			summary: "## Goal\nShip it\n\n<modified-files>\nx.ts\n</modified-files>",
			firstKeptEntryId: branch[2]!.id,
			tokensBefore: preparation.tokensBefore,
			details: { readFiles: [], modifiedFiles: ["x.ts"] },
		});
	});

	it("merges into the previous summary with the update prompt", async () => {
		const faux = new FauxProvider();
		faux.enqueue(fauxText("updated"));
		const first = chain([messageEntry(user(text(400))), messageEntry(assistant(text(400)))]);
		const branch = chain([
			...first,
			compactionEntry("old summary", first[1]!.id),
			messageEntry(user(text(400))),
			messageEntry(assistant(text(400))),
			messageEntry(user(text(400))),
		]);
		const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 100 };
		await compact(prepareCompaction(branch, settings)!, model, "key", undefined, undefined, {
			streamFn: faux.stream,
		});
		const body = firstText(faux.requests[0]!);
		expect(body).toContain("</conversation>\n\n<previous-summary>\nold summary\n</previous-summary>\n\n");
		expect(body.endsWith(UPDATE_SUMMARIZATION_PROMPT)).toBe(true);
	});

	it("summarizes a split turn's prefix in a parallel request and joins both parts", async () => {
		const faux = new FauxProvider();
		faux.enqueue((request) =>
			fauxText(firstText(request).endsWith(TURN_PREFIX_SUMMARIZATION_PROMPT) ? "PREFIX" : "HISTORY"),
		);
		faux.enqueue((request) =>
			fauxText(firstText(request).endsWith(TURN_PREFIX_SUMMARIZATION_PROMPT) ? "PREFIX" : "HISTORY"),
		);
		const call = toolCall("read", { path: "1" });
		const branch = chain([
			messageEntry(user("old question")),
			messageEntry(assistant("old answer")),
			messageEntry(user("big task")),
			messageEntry(assistant("", { toolCalls: [call] })),
			messageEntry(toolResult(call, text(4000))),
			messageEntry(assistant("done")),
		]);
		const preparation = prepareCompaction(branch, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 100 })!;
		const result = await compact(preparation, model, "key", undefined, undefined, { streamFn: faux.stream });
		expect(faux.requests).toHaveLength(2);
		const prefixRequest = faux.requests.find((request) =>
			firstText(request).endsWith(TURN_PREFIX_SUMMARIZATION_PROMPT),
		);
		expect(prefixRequest?.options?.maxTokens).toBe(8192);
		expect(prefixRequest?.options?.reasoning).toBeUndefined();
		expect(result.summary.startsWith("HISTORY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX")).toBe(true);
	});

	it("throws 'Summarization failed: <reason>' when the model call fails, and refuses an empty summary", async () => {
		const faux = new FauxProvider();
		faux.enqueue(fauxError("400 prompt is too long"), fauxText("   "));
		const branch = chain([
			messageEntry(user(text(400))),
			messageEntry(assistant(text(400))),
			messageEntry(user(text(400))),
			messageEntry(assistant(text(400))),
		]);
		const preparation = prepareCompaction(branch, SMALL)!;
		await expect(compact(preparation, model, "key", undefined, undefined, { streamFn: faux.stream })).rejects.toThrow(
			"Summarization failed: 400 prompt is too long",
		);
		await expect(compact(preparation, model, "key", undefined, undefined, { streamFn: faux.stream })).rejects.toThrow(
			"Summarization failed: the model returned an empty summary",
		);
	});
});
