import { describe, expect, it } from "vitest";
import {
	type BashExecutionMessage,
	convertToLlm,
	createBranchSummaryMessage,
	createCompactionSummaryMessage,
	createCustomMessage,
} from "../../src/core/session/index.js";
import { assistantMessage, toolResultMessage, userMessage } from "../helpers/session-fixtures.js";

function bash(fields: Partial<BashExecutionMessage>): BashExecutionMessage {
	return {
		role: "bashExecution",
		command: "ls",
		output: "",
		cancelled: false,
		truncated: false,
		timestamp: 5,
		...fields,
	};
}

function textOf(message: ReturnType<typeof convertToLlm>[number] | undefined): string {
	if (message?.role !== "user" || typeof message.content === "string") throw new Error("expected user blocks");
	expect(message.content).toHaveLength(1);
	const block = message.content[0];
	if (block?.type !== "text") throw new Error("expected a text block");
	return block.text;
}

describe("convertToLlm passes provider messages through", () => {
	it("keeps user, assistant and tool results unchanged", () => {
		const messages = [userMessage("q"), assistantMessage("a"), toolResultMessage("r")];
		expect(convertToLlm(messages)).toEqual(messages);
	});
});

describe("convertToLlm of bash executions", () => {
	it("turns ls with exit code 2 into the model-facing text byte for byte", () => {
		const [message] = convertToLlm([bash({ command: "ls", output: "a\nb", exitCode: 2 })]);
		expect(textOf(message)).toBe("Ran `ls`\n```\na\nb\n```\n\nCommand exited with code 2");
		expect(message?.timestamp).toBe(5);
	});

	it("says (no output) for empty output and nothing for exit code 0", () => {
		expect(textOf(convertToLlm([bash({ exitCode: 0 })])[0])).toBe("Ran `ls`\n(no output)");
	});

	it("reports cancellation instead of the exit code", () => {
		expect(textOf(convertToLlm([bash({ output: "x", cancelled: true, exitCode: 1 })])[0])).toBe(
			"Ran `ls`\n```\nx\n```\n\n(command cancelled)",
		);
	});

	it("points at the full output when truncated", () => {
		expect(
			textOf(
				convertToLlm([
					bash({ output: "x", exitCode: 0, truncated: true, fullOutputPath: "/tmp/agent-bash-1.log" }),
				])[0],
			),
		).toBe("Ran `ls`\n```\nx\n```\n\n[Output truncated. Full output: /tmp/agent-bash-1.log]");
	});

	it("drops !! commands (excludeFromContext)", () => {
		expect(convertToLlm([bash({ excludeFromContext: true })])).toEqual([]);
	});
});

describe("convertToLlm of summaries and custom messages", () => {
	it("wraps a compaction summary", () => {
		expect(textOf(convertToLlm([createCompactionSummaryMessage("S", 10, 1)])[0])).toBe(
			"The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>",
		);
	});

	it("wraps a branch summary with no newline before the closing tag", () => {
		expect(textOf(convertToLlm([createBranchSummaryMessage("B", "abcd1234", 1)])[0])).toBe(
			"The following is a summary of a branch that this conversation came back from:\n\n<summary>\nB</summary>",
		);
	});

	it("sends custom messages as user messages even when hidden, string content as one text block", () => {
		const [message] = convertToLlm([createCustomMessage("ext", "hello", false, undefined, 7)]);
		expect(message).toEqual({ role: "user", content: [{ type: "text", text: "hello" }], timestamp: 7 });
		const blocks = [{ type: "image" as const, data: "AAAA", mimeType: "image/png" }];
		expect(convertToLlm([createCustomMessage("ext", blocks, true, undefined, 7)])[0]).toEqual({
			role: "user",
			content: blocks,
			timestamp: 7,
		});
	});
});

describe("convertToLlm with images blocked", () => {
	it("replaces images in user and tool results with one notice per run of images", () => {
		const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
		const user = {
			role: "user" as const,
			content: [{ type: "text" as const, text: "see" }, image, image],
			timestamp: 1,
		};
		const tool = { ...toolResultMessage("r"), content: [image, { type: "text" as const, text: "t" }, image] };
		const [u, t] = convertToLlm([user, tool], { blockImages: true });
		expect(u).toMatchObject({
			content: [
				{ type: "text", text: "see" },
				{ type: "text", text: "Image reading is disabled." },
			],
		});
		expect(t).toMatchObject({
			content: [
				{ type: "text", text: "Image reading is disabled." },
				{ type: "text", text: "t" },
				{ type: "text", text: "Image reading is disabled." },
			],
		});
		expect(user.content).toHaveLength(3);
	});
});

describe("convertToLlm over repeated calls", () => {
	it("returns the same converted object for a bash run or summary on every call", () => {
		const history = [bash({ output: "x" }), createCompactionSummaryMessage("s", 10, 3)];
		const first = convertToLlm(history);
		const second = convertToLlm(history);
		expect(second[0]).toBe(first[0]);
		expect(second[1]).toBe(first[1]);
	});

	it("converts a replaced message anew", () => {
		const history = [bash({ output: "before" })];
		expect(textOf(convertToLlm(history)[0])).toContain("before");
		history[0] = bash({ output: "after" });
		expect(textOf(convertToLlm(history)[0])).toContain("after");
	});

	it("follows the images setting when it changes between calls", () => {
		const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
		const history = [{ role: "user" as const, content: [image], timestamp: 1 }];
		expect(convertToLlm(history)[0]).toBe(history[0]);
		expect(convertToLlm(history, { blockImages: true })[0]).toMatchObject({
			content: [{ type: "text", text: "Image reading is disabled." }],
		});
		expect(convertToLlm(history)[0]).toBe(history[0]);
		expect(convertToLlm(history, { blockImages: true })[0]).toMatchObject({
			content: [{ type: "text", text: "Image reading is disabled." }],
		});
	});
});
