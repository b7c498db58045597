import { existsSync, readFileSync } from "node:fs";
import { fauxText } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { parseUserBashCommand } from "../../src/core/session-runtime/prompt-input.js";
import { sanitizeCommandOutput } from "../../src/core/session-runtime/user-bash.js";
import { deferred } from "../helpers/deferred.js";
import { messageText } from "../helpers/message-text.js";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";

let harness: RuntimeHarness | undefined;
afterEach(() => {
	harness?.dispose();
	harness = undefined;
});

function lastUserText(h: RuntimeHarness): string[] {
	const request = h.faux.requests.at(-1);
	return (request?.context.messages ?? []).filter((message) => message.role === "user").map(messageText);
}

describe("parsing ! commands", () => {
	it("tells !cmd (into context) from !!cmd (kept out) and ignores empty commands", () => {
		expect(parseUserBashCommand("!ls -la")).toEqual({ command: "ls -la", excludeFromContext: false });
		expect(parseUserBashCommand("!! git status ")).toEqual({ command: "git status", excludeFromContext: true });
		expect(parseUserBashCommand("!")).toBeUndefined();
		expect(parseUserBashCommand("hello")).toBeUndefined();
	});

	it("strips escape sequences and control characters from output", () => {
		expect(sanitizeCommandOutput("\u001b[31mred\u001b[0m\r\nline\u0007\tend\u001b]0;title\u0007")).toBe(
			"red\nline\tend",
		);
	});
});

describe("executeBash while idle", () => {
	it("returns the result and records a bashExecution message the model sees on the next call", async () => {
		harness = await createRuntimeHarness();
		const chunks: string[] = [];
		const result = await harness.session.executeBash("printf 'a\\nb'; exit 2", (chunk) => chunks.push(chunk));
		expect(result).toEqual({ output: "a\nb", exitCode: 2, cancelled: false, truncated: false });
		expect(chunks.join("")).toBe("a\nb");
		expect(harness.session.messages.at(-1)).toMatchObject({
			role: "bashExecution",
			command: "printf 'a\\nb'; exit 2",
		});
		// Nothing is written before the first assistant message (lazy flush), but the entry exists.
		expect(harness.sessionManager.getEntries().at(-1)).toMatchObject({
			type: "message",
			message: { role: "bashExecution" },
		});

		harness.faux.enqueue(fauxText("seen"));
		await harness.session.prompt("what happened?");
		expect(lastUserText(harness)).toEqual([
			"Ran `printf 'a\\nb'; exit 2`\n```\na\nb\n```\n\nCommand exited with code 2",
			"what happened?",
		]);
	});

	it("keeps !! output out of the model's context", async () => {
		harness = await createRuntimeHarness();
		await harness.session.executeBash("echo secret", undefined, { excludeFromContext: true });
		harness.faux.enqueue(fauxText("ok"));
		await harness.session.prompt("hi");
		expect(lastUserText(harness)).toEqual(["hi"]);
		expect(harness.session.messages[0]).toMatchObject({ role: "bashExecution", excludeFromContext: true });
	});

	it("keeps the tail of long output and writes all of it to a temp file", async () => {
		harness = await createRuntimeHarness();
		const result = await harness.session.executeBash("seq 1 3000");
		expect(result.truncated).toBe(true);
		// 2000 lines from the end, the empty one after the final newline included.
		expect(result.output.split("\n")[0]).toBe("1002");
		expect(result.fullOutputPath).toMatch(/agent-bash-\d+\.\d+-[0-9a-f]{16}\.log$/);
		expect(existsSync(result.fullOutputPath!)).toBe(true);
		expect(readFileSync(result.fullOutputPath!, "utf8").split("\n")[0]).toBe("1");
	});

	it("abortBash kills the command and the result comes back cancelled without an exit code", async () => {
		harness = await createRuntimeHarness();
		const running = harness.session.executeBash("echo started; sleep 30", (chunk) => {
			if (chunk.includes("started")) harness?.session.abortBash();
		});
		const result = await running;
		expect(result.cancelled).toBe(true);
		expect(result.exitCode).toBeUndefined();
		expect(result.output).toBe("started\n");
		expect(harness.session.isBashRunning).toBe(false);
	});
});

describe("executeBash while the agent streams", () => {
	it("holds the message until the next prompt, so it never lands inside the running turn", async () => {
		harness = await createRuntimeHarness();
		const release = deferred();
		harness.faux.enqueue(fauxText("busy", { holdUntil: release.promise }), fauxText("after"));
		const running = harness.session.prompt("long task");
		await harness.nextEvent("message_update");
		await harness.session.executeBash("echo side-note");
		expect(harness.session.messages.some((message) => message.role === "bashExecution")).toBe(false);
		release.resolve();
		await running;
		expect(harness.session.messages.some((message) => message.role === "bashExecution")).toBe(false);

		await harness.session.prompt("next");
		expect(harness.session.messages.map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"bashExecution",
			"user",
			"assistant",
		]);
		const roles = harness.sessionManager
			.getEntries()
			.flatMap((entry) => (entry.type === "message" ? [entry.message.role] : []));
		expect(roles).toEqual(["user", "assistant", "bashExecution", "user", "assistant"]);
	});
});
