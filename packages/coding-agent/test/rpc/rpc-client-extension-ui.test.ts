// The extension-UI sub-protocol (docs/rpc.md "Extension UI") through RpcClient and the agent-side bridge, over real pipes.
// Loading an extension that calls ctx.ui is the extension system's end-to-end test; here a stand-in agent
// (helpers/cli-ui-echo-agent.mjs) drives the same bridge the RPC mode uses.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { RpcEvent, RpcExtensionUiRequest } from "../../src/modes/rpc/protocol.js";
import { RpcClient } from "../../src/modes/rpc/rpc-client.js";

const ECHO_AGENT = fileURLToPath(new URL("../helpers/cli-ui-echo-agent.mjs", import.meta.url));

let client: RpcClient | undefined;

afterEach(async () => {
	await client?.stop();
	client = undefined;
});

async function startEchoAgent(): Promise<RpcClient> {
	client = new RpcClient({ cliPath: ECHO_AGENT });
	await client.start();
	return client;
}

interface UiResult {
	type: "ui_result";
	method: string;
	result: unknown;
}

/** Sends `prompt <method>` and resolves with the agent's report of what the dialog returned. */
async function ask(agent: RpcClient, method: string): Promise<unknown> {
	const result = agent.waitForEvent((event) => (event as unknown as UiResult).type === "ui_result");
	await agent.prompt(method);
	return ((await result) as unknown as UiResult).result;
}

describe("dialogs answered by the client", () => {
	it("a handler's answer is sent back with the request's id", async () => {
		const agent = await startEchoAgent();
		const requests: RpcExtensionUiRequest[] = [];
		agent.onExtensionUiRequest((request) => {
			requests.push(request);
			if (request.method === "select") return { value: request.options[1]! };
			if (request.method === "confirm") return { confirmed: true };
			if (request.method === "input") return { value: "Ada" };
			if (request.method === "editor") return { value: `${request.prefill ?? ""} edited` };
			return undefined;
		});
		expect(await ask(agent, "select")).toBe("b");
		expect(await ask(agent, "confirm")).toBe(true);
		expect(await ask(agent, "input")).toBe("Ada");
		expect(await ask(agent, "editor")).toBe("draft edited");
		expect(requests[0]).toMatchObject({
			type: "extension_ui_request",
			method: "select",
			title: "Pick one",
			options: ["a", "b"],
		});
		expect(requests[2]).toMatchObject({ method: "input", placeholder: "your name" });
	});

	it("an answer can come later through respondToExtensionUi", async () => {
		const agent = await startEchoAgent();
		let pending: RpcExtensionUiRequest | undefined;
		const seen = new Promise<void>((resolve) => {
			agent.onExtensionUiRequest((request) => {
				pending = request;
				resolve();
				return undefined;
			});
		});
		const result = ask(agent, "confirm");
		await seen;
		agent.respondToExtensionUi(pending!.id, { confirmed: true });
		expect(await result).toBe(true);
	});

	it("a cancelled dialog resolves the extension's default", async () => {
		const agent = await startEchoAgent();
		agent.onExtensionUiRequest(() => ({ cancelled: true }));
		expect(await ask(agent, "select")).toBeNull();
		expect(await ask(agent, "confirm")).toBe(false);
	});

	it("an unanswered dialog times out agent-side with its default; the timeout is sent to the client", async () => {
		const agent = await startEchoAgent();
		const requests: RpcExtensionUiRequest[] = [];
		agent.onExtensionUiRequest((request) => {
			requests.push(request);
			return undefined;
		});
		expect(await ask(agent, "select-timeout")).toBeNull();
		expect(requests[0]).toMatchObject({ method: "select", timeout: 50 });
		// A late answer is ignored: the agent keeps serving.
		agent.respondToExtensionUi(requests[0]!.id, { value: "a" });
		expect(await agent.send({ id: "after", type: "get_state" })).toMatchObject({ id: "after", success: true });
	});
});

describe("fire-and-forget requests", () => {
	it("notify reaches the handler and is never answered", async () => {
		const agent = await startEchoAgent();
		const events: RpcEvent[] = [];
		agent.onEvent((event) => events.push(event));
		const notified = new Promise<RpcExtensionUiRequest>((resolve) => {
			agent.onExtensionUiRequest((request) => {
				resolve(request);
				return { value: "a client must not answer this" };
			});
		});
		expect(await ask(agent, "notify")).toBe("sent");
		expect(await notified).toMatchObject({ method: "notify", message: "heads up", notifyType: "warning" });
		await agent.send({ type: "get_state" });
		expect(events.some((event) => (event as { type: string }).type === "unexpected_response")).toBe(false);
	});
});
