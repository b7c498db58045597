// Asking editors: over RPC through the extension-UI sub-protocol (`select`, then `input` for a reason), over ACP
// through `session/request_permission`; the mode through RPC commands and ACP session modes. Built binary, fake
// model server.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { RpcExtensionUiRequest } from "../../src/modes/rpc/protocol.js";
import type { RpcClient } from "../../src/modes/rpc/rpc-client.js";
import { AcpTestClient } from "../acp/acp-test-client.js";
import { type CliSandbox, createCliSandbox, startRpcAgent } from "../helpers/cli-sandbox.js";
import {
	type RecordedModelRequest,
	startFakeModelServerForFile,
	textReply,
	toolCallReply,
} from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox | undefined;
let rpc: RpcClient | undefined;
let acp: AcpTestClient | undefined;
afterEach(async () => {
	if (rpc) await rpc.stop();
	rpc = undefined;
	acp?.kill();
	acp = undefined;
	sandbox?.cleanup();
	sandbox = undefined;
});

function newSandbox(): CliSandbox {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	return sandbox;
}

function toolResultsOf(request: RecordedModelRequest | undefined): string[] {
	return (request?.body.messages ?? [])
		.filter((message) => message.role === "tool")
		.map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content)));
}

function userSettings(box: CliSandbox): Record<string, unknown> {
	return JSON.parse(readFileSync(join(box.agentDir, "settings.json"), "utf8")) as Record<string, unknown>;
}

describe("RPC", () => {
	it("asks with an extension-UI select naming the call and why; each answer does what it says", async () => {
		const box = newSandbox();
		rpc = await startRpcAgent(box, ["--permission-mode", "ask"]);
		const selects: RpcExtensionUiRequest[] = [];
		const answers: string[] = [
			"Allow once",
			"Deny with a reason…",
			"Always allow: Bash(touch c.txt) (saved in user settings)",
		];
		rpc.onExtensionUiRequest((request) => {
			if (request.method === "select") {
				selects.push(request);
				return { value: answers.shift() as string };
			}
			if (request.method === "input") return { value: "not that file" };
			return undefined;
		});
		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "touch a.txt" } }]),
			toolCallReply([{ name: "bash", arguments: { command: "touch b.txt" } }]),
			toolCallReply([{ name: "bash", arguments: { command: "touch c.txt" } }]),
			toolCallReply([{ name: "bash", arguments: { command: "touch c.txt" } }]),
			textReply("done"),
		);
		await rpc.prompt("make files");
		await rpc.waitForIdle();

		expect(selects).toHaveLength(3);
		expect(selects[0]).toMatchObject({
			method: "select",
			title: 'Permission needed: bash: touch a.txt\nAsk mode asks before commands no rule allows ("touch a.txt")',
			options: [
				"Allow once",
				"Allow for this session: Bash(touch a.txt)",
				"Always allow: Bash(touch a.txt) (saved in user settings)",
				"Deny",
				"Deny with a reason…",
			],
		});
		expect(existsSync(join(box.cwd, "a.txt"))).toBe(true);
		expect(existsSync(join(box.cwd, "b.txt"))).toBe(false);
		expect(toolResultsOf(server.requests[2]).at(-1)).toBe(
			"The user denied this call; it was not run. The user's reason: not that file",
		);
		expect(existsSync(join(box.cwd, "c.txt"))).toBe(true);
		// Settings are written in the background; stopping the agent waits for the write.
		await rpc.stop(30_000);
		rpc = undefined;
		expect(userSettings(box).permissions).toEqual({ allow: ["Bash(touch c.txt)"] });
	});

	it("get_permission_mode and set_permission_mode switch the mode for the session", async () => {
		rpc = await startRpcAgent(newSandbox());
		expect(await rpc.getPermissionMode()).toEqual({
			mode: "default",
			availableModes: ["default", "acceptEdits", "plan", "ask", "yolo"],
		});
		expect((await rpc.setPermissionMode("plan")).mode).toBe("plan");
		const bad = await rpc.send({ id: "m", type: "set_permission_mode", mode: "fast" as never });
		expect(bad).toMatchObject({
			id: "m",
			success: false,
			error: 'Invalid permission mode "fast". Valid values: default, acceptEdits, plan, ask, yolo',
		});
		server.enqueue(toolCallReply([{ name: "write", arguments: { path: "x.txt", content: "x" } }]), textReply("ok"));
		await rpc.prompt("write");
		await rpc.waitForIdle();
		expect(existsSync(join(sandbox?.cwd ?? "", "x.txt"))).toBe(false);
	});
});

describe("ACP", () => {
	async function startAcp(onPermission?: (request: RequestPermissionRequest) => string) {
		const box = newSandbox();
		acp = await AcpTestClient.start(box, {
			args: ["--permission-mode", "ask"],
			...(onPermission
				? {
						onPermission: async (request) => ({
							outcome: { outcome: "selected", optionId: onPermission(request) },
						}),
					}
				: {}),
		});
		await acp.initialize();
		const { sessionId, modes } = await acp.agent.request("session/new", { cwd: box.cwd, mcpServers: [] });
		return { box, client: acp, sessionId, modes };
	}

	it("asks with session/request_permission about the tool call, with the four kinds of answer", async () => {
		const answers = ["allow_always", "reject_once"];
		const { box, client, sessionId, modes } = await startAcp(() => answers.shift() as string);
		expect(modes?.currentModeId).toBe("ask");
		server.enqueue(
			toolCallReply([{ name: "bash", arguments: { command: "touch one.txt" }, id: "call_one" }]),
			toolCallReply([{ name: "bash", arguments: { command: "touch one.txt" } }]),
			toolCallReply([{ name: "bash", arguments: { command: "touch two.txt" } }]),
			textReply("done"),
		);
		await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		// Asked twice: the second `touch one.txt` ran by the saved rule.
		expect(client.permissionRequests).toHaveLength(2);
		const [first] = client.permissionRequests;
		expect(first?.toolCall.toolCallId).toBe("call_one");
		expect(first?.options.map((option) => [option.optionId, option.kind, option.name])).toEqual([
			["allow_once", "allow_once", "Allow once"],
			["allow_always", "allow_always", "Always allow: Bash(touch one.txt) (saved in user settings)"],
			["reject_once", "reject_once", "Deny"],
			["reject_always", "reject_always", "Always deny: Bash(touch one.txt) (saved in user settings)"],
		]);
		expect(existsSync(join(box.cwd, "one.txt"))).toBe(true);
		expect(existsSync(join(box.cwd, "two.txt"))).toBe(false);
		// Settings are written in the background; ending the session waits for the write.
		expect(await client.stop()).toBe(0);
		expect(userSettings(box).permissions).toEqual({ allow: ["Bash(touch one.txt)"] });
	});

	it("offers the permission modes as session modes; plan refuses writes without asking", async () => {
		const { box, client, sessionId, modes } = await startAcp();
		expect(modes?.availableModes.map((mode) => mode.id)).toEqual([
			"default",
			"acceptEdits",
			"plan",
			"ask",
			"yolo",
			"read-only",
		]);
		await client.agent.request("session/set_mode", { sessionId, modeId: "plan" });
		await client.waitForUpdate(
			(n) => n.update.sessionUpdate === "current_mode_update" && n.update.currentModeId === "plan",
		);
		server.enqueue(toolCallReply([{ name: "write", arguments: { path: "p.txt", content: "x" } }]), textReply("ok"));
		await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		expect(client.permissionRequests).toHaveLength(0);
		expect(existsSync(join(box.cwd, "p.txt"))).toBe(false);
		expect(toolResultsOf(server.requests[1])[0]).toContain("plan mode is read-only");
	});
});
