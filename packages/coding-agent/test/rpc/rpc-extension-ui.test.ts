// An extension's ctx.ui dialogs over RPC (docs/rpc.md "Extension UI"), end to end: the extension is loaded with -e, its command
// runs from a prompt, its dialogs reach the client as extension_ui_request records and the answers come back.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RpcExtensionUiRequest } from "../../src/modes/rpc/protocol.js";
import type { RpcClient } from "../../src/modes/rpc/rpc-client.js";
import { type CliSandbox, createCliSandbox, runCli, startRpcAgent } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply } from "../helpers/fake-model-server.js";

const EXTENSION = `
export default function (pi: any) {
	pi.registerFlag("greeting", { type: "string", default: "hello" });
	pi.on("session_start", () => console.log("extension started"));
	pi.registerCommand("ask", {
		description: "Ask the user two things",
		async handler(args: string, ctx: any) {
			console.log("asking for a color");
			const color = await ctx.ui.select("Pick a color", ["red", "green"]);
			const sure = await ctx.ui.confirm("Sure?", "You picked " + color, args ? { timeout: Number(args) } : undefined);
			ctx.ui.notify(pi.getFlag("greeting") + ": " + color + " " + sure, "info");
		},
	});
}
`;

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
let client: RpcClient | undefined;

afterEach(async () => {
	if (client) await client.stop();
	client = undefined;
	sandbox?.cleanup();
});

function sandboxWithExtension(): CliSandbox {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	writeFileSync(join(sandbox.cwd, "ask.ts"), EXTENSION);
	return sandbox;
}

function nextNotify(agent: RpcClient, requests: RpcExtensionUiRequest[]): Promise<RpcExtensionUiRequest> {
	return new Promise((resolve) => {
		agent.onExtensionUiRequest((request) => {
			requests.push(request);
			if (request.method === "notify") resolve(request);
			if (request.method === "select") return { value: "green" };
			if (request.method === "confirm" && request.timeout === undefined) return { confirmed: true };
			return undefined;
		});
	});
}

describe("dialogs of an extension command", () => {
	it("reach the client, and its answers reach the extension", async () => {
		client = await startRpcAgent(sandboxWithExtension(), ["-e", "ask.ts", "--greeting", "hi"]);
		const requests: RpcExtensionUiRequest[] = [];
		const notified = nextNotify(client, requests);
		expect(await client.send({ id: "c", type: "prompt", message: "/ask" })).toMatchObject({ id: "c", success: true });
		expect(await notified).toMatchObject({ method: "notify", message: "hi: green true", notifyType: "info" });
		expect(requests.map((r) => r.method)).toEqual(["select", "confirm", "notify"]);
		expect(requests[0]).toMatchObject({ title: "Pick a color", options: ["red", "green"] });
		expect(new Set(requests.map((r) => r.id)).size).toBe(3);
		// The command ran in the extension: nothing was sent to the model.
		expect(server.requests).toHaveLength(0);
		expect((await client.getCommands()).map((c) => c.name)).toContain("ask");
		// The extension's console.log went to stderr; stdout carried only protocol records.
		expect(client.invalidLines).toEqual([]);
		expect(client.stderr).toContain("asking for a color");
	});

	it("an unanswered dialog with a timeout resolves to its default agent-side", async () => {
		client = await startRpcAgent(sandboxWithExtension(), ["-e", "ask.ts"]);
		const requests: RpcExtensionUiRequest[] = [];
		const notified = nextNotify(client, requests);
		await client.prompt("/ask 50");
		expect(await notified).toMatchObject({ message: "hello: green false" });
		expect(requests[1]).toMatchObject({ method: "confirm", timeout: 50 });
	});
});

describe("extension flags on the command line", () => {
	it("are accepted once the extension that registers them is loaded", async () => {
		sandboxWithExtension();
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, ["-e", "ask.ts", "--greeting", "yo", "-p", "hi"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("ok\n");
		expect(result.stderr).toBe("extension started\n");
	});

	it("do not make other unknown flags acceptable", async () => {
		sandboxWithExtension();
		const result = await runCli(sandbox, ["-e", "ask.ts", "--greetings", "yo", "-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("Error: Unknown option: --greetings");
		expect(server.requests).toHaveLength(0);
	});
});
