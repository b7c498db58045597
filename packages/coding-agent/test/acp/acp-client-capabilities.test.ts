// What the editor offers is used, end to end: its buffers for read/edit/write (`fs/*`), its terminals for bash
// (`terminal/*`), and its permission prompt for an extension's confirmation (`session/request_permission`).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox } from "../helpers/cli-sandbox.js";
import {
	type RecordedModelRequest,
	startFakeModelServerForFile,
	textReply,
	toolCallReply,
} from "../helpers/fake-model-server.js";
import { AcpTestClient, type AcpTestClientOptions } from "./acp-test-client.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
let client: AcpTestClient | undefined;

afterEach(async () => {
	client?.kill();
	client = undefined;
	sandbox?.cleanup();
});

async function startSession(
	options: Omit<AcpTestClientOptions, "files"> & { files?: (cwd: string) => Record<string, string> },
): Promise<{ agent: AcpTestClient; sessionId: string }> {
	client = await AcpTestClient.start(sandbox, { ...options, files: options.files?.(sandbox.cwd) ?? {} });
	await client.initialize(options.capabilities);
	const { sessionId } = await client.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
	return { agent: client, sessionId };
}

/** The text of the tool results the model was sent in a request. */
function toolResultsOf(request: RecordedModelRequest | undefined): string[] {
	return (request?.body.messages ?? [])
		.filter((message) => message.role === "tool")
		.map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content)));
}

describe("editor file access", () => {
	it("read returns the editor's buffer, edit writes to the editor, and the file on disk does not change", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const file = join(sandbox.cwd, "draft.md");
		writeFileSync(file, "saved on disk\n");
		const { agent, sessionId } = await startSession({
			capabilities: { fs: { readTextFile: true, writeTextFile: true } },
			files: (cwd) => ({ [join(cwd, "draft.md")]: "unsaved in the editor\nsecond line\n" }),
		});
		server.enqueue(
			toolCallReply([{ name: "read", id: "r", arguments: { path: "draft.md" } }]),
			toolCallReply([
				{ name: "edit", id: "e", arguments: { path: "draft.md", oldText: "second line", newText: "2nd line" } },
			]),
			textReply("Edited."),
		);

		const response = await agent.agent.request("session/prompt", {
			sessionId,
			prompt: [{ type: "text", text: "tidy the draft" }],
		});

		expect(response.stopReason).toBe("end_turn");
		expect(toolResultsOf(server.requests[1])).toEqual(["unsaved in the editor\nsecond line\n"]);
		expect(agent.files.get(file)).toBe("unsaved in the editor\n2nd line\n");
		expect(readFileSync(file, "utf8")).toBe("saved on disk\n");
		expect(agent.clientCalls.map((call) => call.method)).toEqual([
			"fs/read_text_file",
			"fs/read_text_file",
			"fs/write_text_file",
		]);
		expect(agent.clientCalls[2]?.params).toEqual({
			sessionId,
			path: file,
			content: "unsaved in the editor\n2nd line\n",
		});
		expect(agent.updatesOf(sessionId)).toContainEqual(
			expect.objectContaining({
				sessionUpdate: "tool_call_update",
				toolCallId: "e",
				content: [
					{
						type: "diff",
						path: file,
						oldText: "unsaved in the editor\nsecond line\n",
						newText: "unsaved in the editor\n2nd line\n",
					},
				],
			}),
		);
	});

	it("write goes to the editor and shows the whole new file as the diff", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const { agent, sessionId } = await startSession({
			capabilities: { fs: { readTextFile: true, writeTextFile: true } },
		});
		server.enqueue(
			toolCallReply([{ name: "write", id: "w", arguments: { path: "new.txt", content: "fresh\n" } }]),
			textReply("Written."),
		);
		await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write it" }] });
		const file = join(sandbox.cwd, "new.txt");
		expect(agent.files.get(file)).toBe("fresh\n");
		expect(agent.updatesOf(sessionId)).toContainEqual(
			expect.objectContaining({
				toolCallId: "w",
				status: "completed",
				content: [{ type: "diff", path: file, oldText: null, newText: "fresh\n" }],
			}),
		);
	});

	it("without the capability, tools use the local file system", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFileSync(join(sandbox.cwd, "local.txt"), "on disk\n");
		const { agent, sessionId } = await startSession({ capabilities: {} });
		server.enqueue(toolCallReply([{ name: "read", id: "r", arguments: { path: "local.txt" } }]), textReply("ok"));
		await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "read" }] });
		expect(toolResultsOf(server.requests[1])).toEqual(["on disk\n"]);
		expect(agent.clientCalls).toEqual([]);
	});
});

describe("editor terminals", () => {
	it("bash runs in a client terminal shown in the tool call, and the model gets its output", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const { agent, sessionId } = await startSession({ capabilities: { terminal: true } });
		server.enqueue(
			toolCallReply([{ name: "bash", id: "b", arguments: { command: "echo from the terminal" } }]),
			textReply("ran"),
		);
		await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run" }] });

		const create = agent.clientCalls.find((call) => call.method === "terminal/create");
		expect(create?.params).toMatchObject({ sessionId, cwd: sandbox.cwd });
		expect((create?.params.args as string[] | undefined)?.at(-1)).toBe("echo from the terminal");
		expect(agent.clientCalls.map((call) => call.method)).toContain("terminal/release");
		const shown = agent
			.updatesOf(sessionId)
			.filter(
				(update) => update.sessionUpdate === "tool_call_update" && update.toolCallId === "b" && update.content,
			);
		expect(shown.every((update) => JSON.stringify(update).includes('"type":"terminal"'))).toBe(true);
		expect(shown.at(-1)).toMatchObject({ status: "completed" });
		expect(toolResultsOf(server.requests[1])).toEqual(["from the terminal\n"]);
	});
});

const CONFIRM_EXTENSION = `
export default function (pi: any) {
	pi.on("tool_call", async (event: any, ctx: any) => {
		if (event.toolName !== "bash") return;
		const ok = await ctx.ui.confirm("Run this command?", event.input.command);
		if (!ok) return { block: true, reason: "The user declined." };
	});
}
`;

describe("permission requests", () => {
	it("an extension's confirmation asks the editor about the running tool call; a rejection blocks it", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFileSync(join(sandbox.cwd, "gate.ts"), CONFIRM_EXTENSION);
		const { agent, sessionId } = await startSession({
			args: ["-e", "gate.ts"],
			onPermission: (request) => {
				const reject = request.options.find((option) => option.kind === "reject_once");
				return { outcome: { outcome: "selected", optionId: reject?.optionId ?? "" } };
			},
		});
		server.enqueue(
			toolCallReply([{ name: "bash", id: "danger", arguments: { command: "touch boom" } }]),
			textReply("ok"),
		);
		await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "do it" }] });

		expect(agent.permissionRequests).toHaveLength(1);
		const request = agent.permissionRequests[0];
		expect(request?.sessionId).toBe(sessionId);
		expect(request?.toolCall.toolCallId).toBe("danger");
		expect(JSON.stringify(request?.toolCall.content)).toContain("Run this command?");
		expect(request?.options.map((option) => option.kind)).toEqual(["allow_once", "reject_once"]);
		expect(agent.updatesOf(sessionId)).toContainEqual(
			expect.objectContaining({ sessionUpdate: "tool_call_update", toolCallId: "danger", status: "failed" }),
		);
		expect(toolResultsOf(server.requests[1]).join("")).toContain("The user declined.");
	});

	it("session/cancel withdraws an unanswered question, and the prompt answers cancelled", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFileSync(join(sandbox.cwd, "gate.ts"), CONFIRM_EXTENSION);
		let withdrawn = false;
		let asked: () => void = () => {};
		const questionAsked = new Promise<void>((resolve) => {
			asked = resolve;
		});
		const { agent, sessionId } = await startSession({
			args: ["-e", "gate.ts"],
			// An editor that never answers on its own: only the agent's withdrawal ends the question.
			onPermission: (_request, signal) => {
				asked();
				return new Promise((resolve) =>
					signal.addEventListener("abort", () => {
						withdrawn = true;
						resolve({ outcome: { outcome: "cancelled" } });
					}),
				);
			},
		});
		server.enqueue(toolCallReply([{ name: "bash", id: "held", arguments: { command: "echo no" } }]));
		const prompt = agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		await questionAsked;
		await agent.agent.notify("session/cancel", { sessionId });
		expect((await prompt).stopReason).toBe("cancelled");
		expect(withdrawn).toBe(true);
		expect(server.requests).toHaveLength(1);
	});

	it("an allowed call runs", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFileSync(join(sandbox.cwd, "gate.ts"), CONFIRM_EXTENSION);
		const { agent, sessionId } = await startSession({ args: ["-e", "gate.ts"] });
		server.enqueue(
			toolCallReply([{ name: "bash", id: "fine", arguments: { command: "echo allowed" } }]),
			textReply("ok"),
		);
		await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "do it" }] });
		expect(agent.permissionRequests).toHaveLength(1);
		expect(toolResultsOf(server.requests[1])).toEqual(["allowed\n"]);
	});
});
