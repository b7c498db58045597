// `session/load` replay of stored entries, and extension dialogs as editor questions (pure parts).
import type { PermissionOption } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../../src/core/session/entries.js";
import { type AcpDialogs, createAcpUIContext, type TextRequest } from "../../src/modes/acp/extension-ui.js";
import { replayBranch } from "../../src/modes/acp/replay.js";

const CWD = "/work/project";
let nextId = 0;

function entry(fields: Record<string, unknown>): SessionEntry {
	nextId++;
	return { id: `e${nextId}`, parentId: null, timestamp: "2025-01-01T00:00:00.000Z", ...fields } as SessionEntry;
}

function assistant(content: unknown[]): SessionEntry {
	return entry({
		type: "message",
		message: {
			role: "assistant",
			content,
			stopReason: "toolUse",
			timestamp: 0,
			usage: {},
			api: "x",
			provider: "x",
			model: "x",
		},
	});
}

describe("replay", () => {
	it("turns the stored conversation into the updates a live turn sends", () => {
		const branch = [
			entry({ type: "model_change", provider: "p", modelId: "m" }),
			entry({ type: "message", message: { role: "user", content: "fix it", timestamp: 0 } }),
			assistant([
				{ type: "thinking", thinking: "where?" },
				{ type: "thinking", thinking: "secret", redacted: true },
				{ type: "text", text: "On it." },
				{ type: "toolCall", id: "c1", name: "edit", arguments: { path: "a.ts", oldText: "x", newText: "y" } },
			]),
			entry({
				type: "message",
				message: {
					role: "toolResult",
					toolCallId: "c1",
					toolName: "edit",
					content: [{ type: "text", text: "Successfully replaced text in a.ts." }],
					details: { diff: "", firstChangedLine: 7 },
					isError: false,
					timestamp: 0,
				},
			}),
			entry({ type: "custom_message", customType: "note", content: "shown", display: true }),
			entry({ type: "custom_message", customType: "note", content: "hidden", display: false }),
			entry({
				type: "message",
				message: {
					role: "bashExecution",
					command: "ls",
					output: "a.ts",
					cancelled: false,
					truncated: false,
					timestamp: 0,
				},
			}),
		];
		expect(replayBranch(branch, CWD)).toEqual([
			{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "fix it" } },
			{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "where?" } },
			{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "On it." } },
			{
				sessionUpdate: "tool_call",
				toolCallId: "c1",
				title: "Edit a.ts",
				kind: "edit",
				status: "pending",
				locations: [{ path: "/work/project/a.ts" }],
				rawInput: { path: "a.ts", oldText: "x", newText: "y" },
			},
			{
				sessionUpdate: "tool_call_update",
				toolCallId: "c1",
				status: "completed",
				content: [{ type: "diff", path: "/work/project/a.ts", oldText: "x", newText: "y" }],
				locations: [{ path: "/work/project/a.ts", line: 7 }],
			},
			{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "shown" } },
			{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "!ls" } },
			{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "```\na.ts\n```" } },
		]);
	});
});

interface Asked {
	title: string;
	detail: string | undefined;
	options: PermissionOption[];
}

function fakeDialogs(answer: (options: PermissionOption[]) => string | undefined): {
	dialogs: AcpDialogs;
	asked: Asked[];
	notices: string[];
	texts: TextRequest[];
} {
	const asked: Asked[] = [];
	const notices: string[] = [];
	const texts: TextRequest[] = [];
	return {
		asked,
		notices,
		texts,
		dialogs: {
			requestPermission: async (title, detail, options) => {
				asked.push({ title, detail, options });
				return answer(options);
			},
			askText: async (request) => {
				texts.push(request);
				return "typed";
			},
			notify: (message, type) => notices.push(`${type}: ${message}`),
		},
	};
}

describe("extension dialogs", () => {
	it("confirm asks a yes/no permission question and is true only for yes", async () => {
		const yes = fakeDialogs((options) => options[0]?.optionId);
		expect(await createAcpUIContext(yes.dialogs).confirm("Delete?", "3 files")).toBe(true);
		expect(yes.asked[0]).toMatchObject({ title: "Delete?", detail: "3 files" });
		expect(yes.asked[0]?.options.map((option) => option.kind)).toEqual(["allow_once", "reject_once"]);
		const dismissed = fakeDialogs(() => undefined);
		expect(await createAcpUIContext(dismissed.dialogs).confirm("Delete?", "3 files")).toBe(false);
	});

	it("select offers each choice, refusals styled as such, and returns the chosen label", async () => {
		const pick = fakeDialogs((options) => options[2]?.optionId);
		const choice = await createAcpUIContext(pick.dialogs).select("Allow?", ["Yes", "Always allow", "Deny", "Never"]);
		expect(choice).toBe("Deny");
		expect(pick.asked[0]?.options.map((option) => [option.name, option.kind])).toEqual([
			["Yes", "allow_once"],
			["Always allow", "allow_always"],
			["Deny", "reject_once"],
			["Never", "reject_always"],
		]);
		expect(await createAcpUIContext(fakeDialogs(() => undefined).dialogs).select("Allow?", ["a"])).toBeUndefined();
	});

	it("input and editor become text requests; notify and custom UI reach the user as notices", async () => {
		const probe = fakeDialogs(() => undefined);
		const ui = createAcpUIContext(probe.dialogs);
		expect(await ui.input("Name?", "your name")).toBe("typed");
		expect(await ui.editor("Message", "draft")).toBe("typed");
		expect(probe.texts).toEqual([
			{ title: "Name?", placeholder: "your name" },
			{ title: "Message", prefill: "draft" },
		]);
		ui.notify("saved");
		expect(await ui.custom(() => ({ render: () => [], invalidate: () => {} }))).toBeUndefined();
		expect(probe.notices[0]).toBe("info: saved");
		expect(probe.notices[1]).toMatch(/^warning: An extension requested a custom UI component/);
		expect(ui.setTheme("dark")).toEqual({ success: false, error: "Theme switching not supported in ACP mode" });
	});
});
