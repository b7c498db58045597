// The permission check inside a running session: after the `tool_call` handlers, before the tool, every decision
// in the session file (a tree node the model never sees), and extensions' rules through `pi.permissions`.
import { fauxText, fauxToolCall } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import type { ExtensionAPI } from "../../src/core/extensions/types.js";
import { describeEntry, isEntryShown } from "../../src/modes/interactive/selectors/tree-model.js";
import { type ExtensionSession, startExtensionSession } from "../helpers/extension-harness.js";
import { messageText } from "../helpers/message-text.js";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";
import { TestHooks } from "../helpers/runtime-hooks.js";
import { createCountingTool } from "../helpers/runtime-tools.js";

let harness: RuntimeHarness | undefined;
let extensionSession: ExtensionSession | undefined;
afterEach(() => {
	harness?.dispose();
	harness = undefined;
	extensionSession?.dispose();
	extensionSession = undefined;
});

function toolResults(h: RuntimeHarness): { text: string; isError: boolean }[] {
	return h.session.messages.flatMap((message) =>
		message.role === "toolResult" ? [{ text: messageText(message), isError: message.isError }] : [],
	);
}

describe("the permission check in a session", () => {
	it("refuses a denied call, records the decision between the call and its result, and keeps it from the model", async () => {
		harness = await createRuntimeHarness({ permissions: { deny: ["Bash(rm:*)"] } });
		harness.faux.enqueue(fauxToolCall("bash", { command: "echo start && rm -rf build" }), fauxText("ok"));
		await harness.session.prompt("clean up");
		expect(toolResults(harness)).toEqual([
			{
				text: "Permission denied: rm -rf build is refused by the deny rule Bash(rm:*) (command line). It was not run. Do not try to get around the rule; if it is needed, tell the user why.",
				isError: true,
			},
		]);
		const branch = harness.sessionManager
			.getBranch()
			.filter((entry) => entry.type === "message" || entry.type === "permission_decision");
		const types = branch.map((entry) => (entry.type === "message" ? entry.message.role : entry.type));
		expect(types).toEqual(["user", "assistant", "permission_decision", "toolResult", "assistant"]);
		const decision = branch[2];
		expect(decision).toMatchObject({ type: "permission_decision", decision: "deny", rule: "Bash(rm:*)" });
		expect(harness.sessionManager.buildSessionContext().messages.map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
		]);
		// /tree shows refusals (and answers), not the calls that simply ran.
		if (decision?.type !== "permission_decision") throw new Error("no decision");
		expect(describeEntry(decision)).toBe("[permission: deny rm -rf build — rule Bash(rm:*)]");
		expect(isEntryShown(decision, "default", undefined)).toBe(true);
		expect(isEntryShown(decision, "no-tools", undefined)).toBe(false);
		expect(isEntryShown({ ...decision, decision: "allow", decidedBy: "mode" }, "default", undefined)).toBe(false);
	});

	it("judges the arguments as the tool_call handlers left them, and a handler's block still wins", async () => {
		const hooks = new TestHooks({
			emitToolCall: async (event) => {
				if (event.input.command === "ls") event.input.command = "rm -rf /";
				if (event.input.command === "blocked") return { block: true, reason: "the extension said no" };
				return undefined;
			},
		});
		harness = await createRuntimeHarness({ hooks, permissions: { deny: ["Bash(rm:*)"] } });
		harness.faux.enqueue(
			fauxToolCall("bash", { command: "ls" }),
			fauxToolCall("bash", { command: "blocked" }),
			fauxText("ok"),
		);
		await harness.session.prompt("list");
		expect(toolResults(harness).map((result) => result.text)).toEqual([
			expect.stringContaining("rm -rf / is refused by the deny rule Bash(rm:*)"),
			"the extension said no",
		]);
		const decisions = harness.sessionManager.getEntries().filter((entry) => entry.type === "permission_decision");
		expect(decisions).toHaveLength(1);
	});

	it("an MCP-style tool and the mcp tool's inner calls are judged by the inner tool's name", async () => {
		const deleteRepo = createCountingTool("mcp__github__delete_repo");
		const mcp = createCountingTool("mcp");
		harness = await createRuntimeHarness({ customTools: [deleteRepo, mcp], permissions: { deny: ["mcp__github"] } });
		harness.faux.enqueue(
			fauxToolCall("mcp__github__delete_repo", {}),
			fauxToolCall("mcp", { tool: "mcp__github__delete_repo", arguments: {} }),
			fauxToolCall("mcp", { query: "repos" }),
			fauxText("ok"),
		);
		await harness.session.prompt("go");
		expect(deleteRepo.executions).toHaveLength(0);
		expect(mcp.executions).toHaveLength(1);
		expect(toolResults(harness).map((result) => result.isError)).toEqual([true, true, false]);
	});
});

describe("extensions", () => {
	it("add rules through pi.permissions while loading, read and switch the mode, and check calls", async () => {
		const seen: unknown[] = [];
		const guard = (pi: ExtensionAPI) => {
			pi.permissions.addRules({ deny: ["Bash(curl:*)"] });
			pi.on("session_start", async (_event, ctx) => {
				seen.push(ctx.permissions.getMode());
				ctx.permissions.setMode("acceptEdits");
				seen.push(await ctx.permissions.check("bash", { command: "curl x" }));
				seen.push(pi.permissions.getRules().filter((rule) => rule.source.startsWith("extension")));
			});
		};
		extensionSession = await startExtensionSession({ extensions: {}, factories: [guard] });
		const { harness: session } = extensionSession;
		expect(seen).toEqual([
			"default",
			{
				behavior: "deny",
				reason: "deny rule Bash(curl:*) (extension <inline:1>)",
				suggestedRules: ["Bash(curl x)"],
			},
			[{ list: "deny", rule: "Bash(curl:*)", source: "extension <inline:1>" }],
		]);
		expect(session.session.permissions.mode).toBe("acceptEdits");
		session.faux.enqueue(fauxToolCall("bash", { command: "curl -s example.invalid" }), fauxText("ok"));
		await session.session.prompt("fetch");
		expect(toolResults(session)[0]?.text).toContain("(extension <inline:1>)");
	});
});
