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
			"Allow for this session: Bash(touch d.txt)",
			"Deny",
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
			toolCallReply([{ name: "bash", arguments: { command: "touch d.txt" } }]),
			toolCallReply([{ name: "bash", arguments: { command: "touch d.txt" } }]),
			toolCallReply([{ name: "bash", arguments: { command: "touch e.txt" } }]),
			textReply("done"),
		);
		await rpc.prompt("make files");
		await rpc.waitForIdle();

		// The second `touch c.txt` ran by the saved rule, the second `touch d.txt` by the session's.
		expect(selects).toHaveLength(5);
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
		expect(existsSync(join(box.cwd, "d.txt"))).toBe(true);
		expect(existsSync(join(box.cwd, "e.txt"))).toBe(false);
		expect(toolResultsOf(server.requests[7]).at(-1)).toBe(
			"The user denied this call; it was not run. Ask the user how to proceed if it is needed.",
		);
		// Settings are written in the background; stopping the agent waits for the write. Only "always" is saved.
		await rpc.stop(30_000);
		rpc = undefined;
		expect(userSettings(box).permissions).toEqual({ allow: ["Bash(touch c.txt)"] });
	});

	it("get_permission_mode and set_permission_mode switch the mode for the session", async () => {
		const box = newSandbox();
		rpc = await startRpcAgent(box, ["--deny", "Bash(touch denied.txt)"]);
		const questions: RpcExtensionUiRequest[] = [];
		rpc.onExtensionUiRequest((request) => {
			questions.push(request);
			return request.method === "select" ? { value: "Deny" } : undefined;
		});
		expect(await rpc.getPermissionMode()).toEqual({
			mode: "default",
			availableModes: ["default", "acceptEdits", "plan", "ask", "yolo"],
		});
		const bad = await rpc.send({ id: "m", type: "set_permission_mode", mode: "fast" as never });
		expect(bad).toMatchObject({
			id: "m",
			success: false,
			error: 'Invalid permission mode "fast". Valid values: default, acceptEdits, plan, ask, yolo',
		});
		const run = async (mode: string, call: { name: string; arguments: Record<string, unknown> }) => {
			expect((await rpc?.setPermissionMode(mode as never))?.mode).toBe(mode);
			server.enqueue(toolCallReply([call]), textReply("ok"));
			await rpc?.prompt(`in ${mode} mode`);
			await rpc?.waitForIdle();
		};
		const exists = (file: string) => existsSync(join(box.cwd, file));

		await run("plan", { name: "write", arguments: { path: "plan.txt", content: "x" } });
		expect(exists("plan.txt")).toBe(false);
		await run("acceptEdits", { name: "write", arguments: { path: "edits.txt", content: "x" } });
		expect(exists("edits.txt")).toBe(true);
		await run("default", { name: "bash", arguments: { command: "touch default.txt" } });
		expect(exists("default.txt")).toBe(true);
		await run("default", { name: "bash", arguments: { command: "touch denied.txt" } });
		expect(exists("denied.txt")).toBe(false);
		await run("yolo", { name: "bash", arguments: { command: "touch denied.txt" } });
		expect(exists("denied.txt")).toBe(true);
		// None of these asks: plan refuses, acceptEdits runs edits, default and yolo run what no rule refuses.
		expect(questions).toEqual([]);
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
		const answers = ["allow_once", "allow_always", "reject_once", "reject_always"];
		const { box, client, sessionId, modes } = await startAcp(() => answers.shift() as string);
		expect(modes?.currentModeId).toBe("ask");
		const touch = (file: string, id?: string) =>
			toolCallReply([{ name: "bash", arguments: { command: `touch ${file}` }, ...(id ? { id } : {}) }]);
		server.enqueue(
			touch("one.txt", "call_one"),
			touch("one.txt"),
			touch("one.txt"),
			touch("two.txt"),
			touch("three.txt"),
			touch("three.txt"),
			textReply("done"),
		);
		await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
		// Asked four times: the third `touch one.txt` ran by the saved allow rule, the second `touch three.txt` was
		// refused by the saved deny rule.
		expect(client.permissionRequests).toHaveLength(4);
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
		expect(existsSync(join(box.cwd, "three.txt"))).toBe(false);
		expect(toolResultsOf(server.requests[6]).slice(-4)).toEqual([
			"(no output)",
			"The user denied this call; it was not run. Ask the user how to proceed if it is needed.",
			"The user denied this call; it was not run. Ask the user how to proceed if it is needed.",
			expect.stringContaining("touch three.txt is refused by the deny rule Bash(touch three.txt)"),
		]);
		// Settings are written in the background; ending the session waits for the write.
		expect(await client.stop()).toBe(0);
		expect(userSettings(box).permissions).toEqual({
			allow: ["Bash(touch one.txt)"],
			deny: ["Bash(touch three.txt)"],
		});
	});

	it("offers the permission modes as session modes; each decides without asking what it should", async () => {
		const { box, client, sessionId, modes } = await startAcp();
		expect(modes?.availableModes.map((mode) => mode.id)).toEqual([
			"default",
			"acceptEdits",
			"plan",
			"ask",
			"yolo",
			"read-only",
		]);
		const run = async (modeId: string, call: { name: string; arguments: Record<string, unknown> }) => {
			await client.agent.request("session/set_mode", { sessionId, modeId });
			await client.waitForUpdate(
				(n) => n.update.sessionUpdate === "current_mode_update" && n.update.currentModeId === modeId,
			);
			server.enqueue(toolCallReply([call]), textReply("ok"));
			await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: modeId }] });
		};
		const exists = (file: string) => existsSync(join(box.cwd, file));

		await run("plan", { name: "write", arguments: { path: "p.txt", content: "x" } });
		expect(exists("p.txt")).toBe(false);
		expect(toolResultsOf(server.requests[1])[0]).toContain("plan mode is read-only");
		await run("acceptEdits", { name: "write", arguments: { path: "edits.txt", content: "x" } });
		expect(exists("edits.txt")).toBe(true);
		await run("default", { name: "bash", arguments: { command: "touch default.txt" } });
		expect(exists("default.txt")).toBe(true);
		await run("yolo", { name: "bash", arguments: { command: "touch yolo.txt" } });
		expect(exists("yolo.txt")).toBe(true);
		expect(client.permissionRequests).toHaveLength(0);
	});
});
