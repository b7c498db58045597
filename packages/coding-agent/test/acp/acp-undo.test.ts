// `/undo` over ACP (docs/checkpoints.md): the files the last turn changed go back; a file changed outside the agent
// is asked about with a permission request showing the diff.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";
import { AcpTestClient, chunkText } from "./acp-test-client.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox | undefined;
let client: AcpTestClient | undefined;

afterEach(() => {
	client?.kill();
	client = undefined;
	sandbox?.cleanup();
	sandbox = undefined;
});

async function startSession(
	onPermission?: (request: RequestPermissionRequest) => RequestPermissionResponse,
): Promise<{ agent: AcpTestClient; sessionId: string; cwd: string }> {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	client = await AcpTestClient.start(sandbox, onPermission ? { onPermission } : {});
	await client.initialize();
	const { sessionId } = await client.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
	await client.waitForUpdate((n) => n.update.sessionUpdate === "available_commands_update");
	return { agent: client, sessionId, cwd: sandbox.cwd };
}

async function prompt(agent: AcpTestClient, sessionId: string, text: string): Promise<string> {
	const response = await agent.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
	return response.stopReason;
}

/** The agent's text since the `from`-th update of the session. */
function textSince(agent: AcpTestClient, sessionId: string, from: number): string {
	return chunkText(agent.updatesOf(sessionId).slice(from), "agent_message_chunk");
}

async function writeTurn(agent: AcpTestClient, sessionId: string): Promise<void> {
	server.enqueue(
		toolCallReply([{ name: "write", arguments: { path: "a.txt", content: "agent\n" } }]),
		textReply("Wrote it."),
	);
	expect(await prompt(agent, sessionId, "write a.txt")).toBe("end_turn");
}

describe("/undo over ACP", () => {
	it("restores the files of the last turn without asking the model, and says when there is nothing left", async () => {
		const { agent, sessionId, cwd } = await startSession();
		await writeTurn(agent, sessionId);
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("agent\n");
		const requests = server.requests.length;

		let from = agent.updatesOf(sessionId).length;
		expect(await prompt(agent, sessionId, "/undo")).toBe("end_turn");
		expect(existsSync(join(cwd, "a.txt"))).toBe(false);
		expect(textSince(agent, sessionId, from)).toBe("Deleted a.txt");

		from = agent.updatesOf(sessionId).length;
		expect(await prompt(agent, sessionId, "/undo")).toBe("end_turn");
		expect(textSince(agent, sessionId, from)).toBe("Nothing to undo: no turn of this branch changed files.");
		expect(server.requests.length).toBe(requests);
		expect(agent.permissionRequests).toEqual([]);
	});

	it("asks before overwriting a file changed outside the agent; keeping it writes nothing", async () => {
		const { agent, sessionId, cwd } = await startSession(() => ({
			outcome: { outcome: "selected", optionId: "keep" },
		}));
		await writeTurn(agent, sessionId);
		writeFileSync(join(cwd, "a.txt"), "mine\n");

		const from = agent.updatesOf(sessionId).length;
		expect(await prompt(agent, sessionId, "/undo")).toBe("end_turn");
		expect(agent.permissionRequests).toHaveLength(1);
		// The question is a tool call of its own, whose content shows what changed in the file.
		const question = agent.permissionRequests[0]?.toolCall.toolCallId;
		const shown = agent
			.updatesOf(sessionId)
			.find((update) => update.sessionUpdate === "tool_call" && update.toolCallId === question);
		expect(JSON.stringify(shown)).toMatch(/a\.txt[\s\S]*-1 agent[\s\S]*\+1 mine/);
		expect(agent.permissionRequests[0]?.options.map((option) => option.optionId)).toEqual(["overwrite", "keep"]);
		expect(textSince(agent, sessionId, from)).toBe("Nothing was restored.");
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("mine\n");
	});

	it("overwrites it when the user allows", async () => {
		const { agent, sessionId, cwd } = await startSession(() => ({
			outcome: { outcome: "selected", optionId: "overwrite" },
		}));
		await writeTurn(agent, sessionId);
		writeFileSync(join(cwd, "a.txt"), "mine\n");
		expect(await prompt(agent, sessionId, "/undo")).toBe("end_turn");
		expect(agent.permissionRequests).toHaveLength(1);
		expect(existsSync(join(cwd, "a.txt"))).toBe(false);
	});
});
