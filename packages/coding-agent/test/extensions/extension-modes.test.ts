// Extensions in the built binary: the RPC extension-UI round trip in raw JSON Lines, the print mode's no-op UI,
// a provider registered by an extension, payload rewriting, project trust, and how failures are reported.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { getTrustedProjectsPath } from "../../src/core/config/project-trust.js";
import { RPC_CUSTOM_UI_UNAVAILABLE_TEXT, RPC_THEME_UNSUPPORTED_TEXT } from "../../src/modes/rpc/rpc-ui-context.js";
import { type CliSandbox, createCliSandbox, FAKE_MODEL, FAKE_PROVIDER, runCli } from "../helpers/cli-sandbox.js";
import { type RawRpcAgent, startRawRpcAgent } from "../helpers/extension-cli.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/extensions/", import.meta.url));
const PERMISSION_GATE = join(EXAMPLES, "permission-gate.ts");
const MODEL_ARGS = ["--model", `${FAKE_PROVIDER}/${FAKE_MODEL}`];

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
let agent: RawRpcAgent | undefined;

afterEach(async () => {
	await agent?.stop();
	agent = undefined;
	sandbox?.cleanup();
});

function newSandbox(files: Record<string, string> = {}): CliSandbox {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	for (const [path, content] of Object.entries(files)) {
		const target = join(sandbox.cwd, path);
		mkdirSync(join(target, ".."), { recursive: true });
		writeFileSync(target, content);
	}
	return sandbox;
}

/** The text of the tool result the model received in its second request. */
function toolResultSentToModel(): string {
	const messages = server.requests[1]?.body.messages ?? [];
	const tool = messages.find((message) => message.role === "tool");
	return typeof tool?.content === "string" ? tool.content : JSON.stringify(tool?.content);
}

describe("RPC mode", () => {
	it("a tool_call gate's ctx.ui.confirm goes to the client, and the client's answer decides", async () => {
		newSandbox();
		server.enqueue(toolCallReply([{ name: "bash", arguments: { command: "rm -rf build" } }]), textReply("stopped"));
		agent = startRawRpcAgent(sandbox, ["-e", PERMISSION_GATE, ...MODEL_ARGS]);
		agent.send({ id: "p1", type: "prompt", message: "clean the build" });
		const request = await agent.next((record) => record.type === "extension_ui_request");
		expect(request).toEqual({
			type: "extension_ui_request",
			id: expect.any(String),
			method: "confirm",
			title: "Allow a dangerous command? (recursive or forced delete)",
			message: "rm -rf build",
			timeout: 60_000,
		});
		agent.send({ type: "extension_ui_response", id: request.id, confirmed: false });
		await agent.next((record) => record.type === "agent_end");
		expect(toolResultSentToModel()).toBe("The user did not allow this command (recursive or forced delete).");
		const end = agent.records.find((record) => record.type === "tool_execution_end");
		expect(end).toMatchObject({ toolName: "bash", isError: true });
		// Answers never produce response records; the prompt's own response came once.
		expect(agent.records.filter((record) => record.type === "response")).toEqual([
			{ id: "p1", type: "response", command: "prompt", success: true },
		]);
	});

	it("tells the client when an extension asks for UI that RPC cannot show; hasUI is true", async () => {
		newSandbox({
			"ui.ts": `export default (pi: any) => {
				pi.registerCommand("probe", { handler: async (_args: string, ctx: any) => {
					const custom = await ctx.ui.custom(() => ({ render: () => [], invalidate() {} }));
					const theme = ctx.ui.setTheme("dark");
					ctx.ui.setStatus("probe", "checked");
					ctx.ui.notify(JSON.stringify({ hasUI: ctx.hasUI, custom: custom ?? null, theme, editor: ctx.ui.getEditorText() }));
				} });
			};`,
		});
		agent = startRawRpcAgent(sandbox, ["-e", "ui.ts", ...MODEL_ARGS]);
		agent.send({ id: "c", type: "prompt", message: "/probe" });
		const report = await agent.next((record) => record.method === "notify" && record.notifyType === undefined);
		expect(JSON.parse(report.message as string)).toEqual({
			hasUI: true,
			custom: null,
			theme: { success: false, error: RPC_THEME_UNSUPPORTED_TEXT },
			editor: "",
		});
		const requests = agent.records.filter((record) => record.type === "extension_ui_request");
		expect(requests.map((record) => [record.method, record.message ?? record.statusText])).toEqual([
			["notify", RPC_CUSTOM_UI_UNAVAILABLE_TEXT],
			["setStatus", "checked"],
			["notify", report.message],
		]);
		expect(requests[0]?.notifyType).toBe("warning");
	});
});

describe("print mode", () => {
	it("has no UI: dialogs return their defaults at once and the permission gate blocks instead of asking", async () => {
		newSandbox({
			"ask.ts": `export default (pi: any) => {
				pi.on("session_start", async (_event: any, ctx: any) => {
					const answers = {
						hasUI: ctx.hasUI,
						confirm: await ctx.ui.confirm("Proceed?", "really"),
						select: (await ctx.ui.select("Pick", ["a", "b"])) ?? null,
						input: (await ctx.ui.input("Name?")) ?? null,
					};
					ctx.ui.notify("invisible");
					process.stderr.write("ANSWERS " + JSON.stringify(answers) + "\\n");
				});
			};`,
		});
		server.enqueue(toolCallReply([{ name: "bash", arguments: { command: "sudo rm -rf /tmp/x" } }]), textReply("ok"));
		const result = await runCli(sandbox, ["-e", "ask.ts", "-e", PERMISSION_GATE, ...MODEL_ARGS, "-p", "clean"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("ok\n");
		expect(result.stderr).toContain('ANSWERS {"hasUI":false,"confirm":false,"select":null,"input":null}');
		expect(toolResultSentToModel()).toBe(
			"Blocked a dangerous command (recursive or forced delete); no user is here to allow it.",
		);
	});

	it("gets the running copy of the package: the bundle's classes, not a second copy loaded by name", async () => {
		newSandbox({
			"identity.ts": `import { SessionManager } from "@mariozechner/pi-coding-agent";
				import { SessionManager as Ours } from "@agent/coding-agent";
				export default (pi: any) => {
					pi.on("session_start", async (_event: any, ctx: any) => {
						const same = ctx.sessionManager instanceof SessionManager && SessionManager === Ours;
						process.stderr.write("SAME " + same + "\\n");
					});
				};`,
		});
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, ["-e", "identity.ts", ...MODEL_ARGS, "-p", "hi"]);
		expect(result.stdout).toBe("ok\n");
		expect(result.stderr).toContain("SAME true");
	});

	it("gets TypeBox's Type from the AI package under both names, though the bin's own start never loads TypeBox", async () => {
		newSandbox({
			"schema.ts": `import { Type } from "@mariozechner/pi-ai";
				import { Type as Ours } from "@agent/ai";
				import { Type as Direct } from "@sinclair/typebox";
				export default (pi: any) => {
					const schema = Type.Object({ name: Type.String() });
					process.stderr.write("TYPE " + JSON.stringify(schema) + " " + (Type === Ours && Ours === Direct) + "\\n");
				};`,
		});
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, ["-e", "schema.ts", ...MODEL_ARGS, "-p", "hi"]);
		expect(result.stdout).toBe("ok\n");
		expect(result.stderr).toContain(
			'TYPE {"type":"object","required":["name"],"properties":{"name":{"type":"string"}}} true',
		);
	});

	it("reports a handler failure with the extension's path and its stack on stderr, and carries on", async () => {
		newSandbox({
			"broken.ts": `function explode(): never { throw new Error("handler exploded"); }
				export default (pi: any) => { pi.on("agent_start", () => explode()); };`,
		});
		server.enqueue(textReply("still answered"));
		const result = await runCli(sandbox, ["-e", "broken.ts", ...MODEL_ARGS, "-p", "hi"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("still answered\n");
		expect(result.stderr).toContain(`Extension error (${join(sandbox.cwd, "broken.ts")}): handler exploded`);
		expect(result.stderr).toMatch(/Error: handler exploded\n\s+at explode \(.*broken\.ts/);
	});

	it("reports a failing session_start handler too (the mode listens before extensions are bound)", async () => {
		newSandbox({
			"starts-badly.ts": `export default (pi: any) => { pi.on("session_start", () => { throw new Error("start failed"); }); };`,
		});
		server.enqueue(textReply("answered anyway"));
		const result = await runCli(sandbox, ["-e", "starts-badly.ts", ...MODEL_ARGS, "-p", "hi"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("answered anyway\n");
		expect(result.stderr).toContain(`Extension error (${join(sandbox.cwd, "starts-badly.ts")}): start failed`);
	});

	it("reports an extension that fails to load on stderr and runs without it", async () => {
		newSandbox({ "bad.ts": "export default 'not a function';" });
		server.enqueue(textReply("fine"));
		const result = await runCli(sandbox, ["-e", "bad.ts", ...MODEL_ARGS, "-p", "hi"]);
		const path = join(sandbox.cwd, "bad.ts");
		expect(result.stderr).toContain(
			`Failed to load extension "${path}": Extension does not export a valid factory function: ${path}`,
		);
		expect(result.stdout).toBe("fine\n");
	});
});

describe("providers and payloads", () => {
	it("the custom-provider example registers a provider the command line can select", async () => {
		newSandbox();
		server.enqueue(textReply("from my own server"));
		const result = await runCli(
			sandbox,
			["-e", join(EXAMPLES, "custom-provider.ts"), "--model", "my-llm/local-model", "-p", "hello"],
			{ env: { MY_LLM_BASE_URL: server.baseUrl, MY_LLM_MODELS: "local-model", MY_LLM_API_KEY: "local-secret" } },
		);
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("from my own server\n");
		expect(server.requests[0]?.body.model).toBe("local-model");
		expect(server.requests[0]?.headers.authorization).toBe("Bearer local-secret");
	});

	it("before_provider_request handlers chain their changes to the request body", async () => {
		newSandbox({
			"payload.ts": `export default (pi: any) => {
				pi.on("before_provider_request", (event: any) => ({ ...event.payload, temperature: 0.25 }));
				pi.on("before_provider_request", (event: any) => ({ ...event.payload, user: "team-" + event.payload.temperature }));
			};`,
		});
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, ["-e", "payload.ts", ...MODEL_ARGS, "-p", "hi"]);
		expect(result.code).toBe(0);
		expect(server.requests[0]?.body).toMatchObject({ temperature: 0.25, user: "team-0.25" });
	});
});

describe("project trust", () => {
	const PROJECT_EXTENSION = {
		".agent/extensions/project.ts": `export default (pi: any) => {
			pi.on("session_start", () => { process.stderr.write("PROJECT EXTENSION RAN\\n"); });
		};`,
	};

	it("skips a project's extensions until it is trusted; --trust-project trusts it and is remembered", async () => {
		newSandbox(PROJECT_EXTENSION);
		server.setFallback(textReply("ok"));
		const untrusted = await runCli(sandbox, [...MODEL_ARGS, "-p", "hi"]);
		expect(untrusted.code).toBe(0);
		expect(untrusted.stderr).not.toContain("PROJECT EXTENSION RAN");
		expect(untrusted.stderr).toContain(
			`Ignored because ${sandbox.cwd} is not a trusted project:\n  project extension .agent/extensions/project.ts\n`,
		);
		expect(untrusted.stderr).toContain("--trust-project");
		expect(existsSync(getTrustedProjectsPath(sandbox.agentDir))).toBe(false);

		const trusting = await runCli(sandbox, ["--trust-project", ...MODEL_ARGS, "-p", "hi"]);
		expect(trusting.stderr).toContain("PROJECT EXTENSION RAN");
		expect(JSON.parse(readFileSync(getTrustedProjectsPath(sandbox.agentDir), "utf8"))).toEqual({
			trusted: [sandbox.cwd],
		});

		const later = await runCli(sandbox, [...MODEL_ARGS, "-p", "hi"]);
		expect(later.stderr).toContain("PROJECT EXTENSION RAN");
		expect(later.stderr).not.toContain("not a trusted project");
	});

	it("loads the user's own extensions without asking", async () => {
		newSandbox();
		mkdirSync(join(sandbox.agentDir, "extensions"), { recursive: true });
		writeFileSync(
			join(sandbox.agentDir, "extensions", "mine.ts"),
			`export default (pi: any) => { pi.on("session_start", () => { process.stderr.write("USER EXTENSION RAN\\n"); }); };`,
		);
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, [...MODEL_ARGS, "-p", "hi"]);
		expect(result.stderr).toBe("USER EXTENSION RAN\n");
	});
});
