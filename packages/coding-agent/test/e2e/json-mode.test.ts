import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox, parseJsonLines, runCli } from "../helpers/cli-sandbox.js";
import { errorReply, startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;

afterEach(() => {
	sandbox?.cleanup();
});

describe("the event stream", () => {
	it("starts with the session header, then every event of the run, one JSON object per line", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		server.enqueue(textReply("Hi there\u2028friend"));
		const result = await runCli(sandbox, ["--mode", "json", "Say hi"]);
		expect(result.code).toBe(0);
		expect(result.stdout.endsWith("\n")).toBe(true);
		const records = parseJsonLines(result.stdout);

		expect(records[0]).toMatchObject({ type: "session", version: 3, cwd: sandbox.cwd });
		expect(typeof records[0]!.id).toBe("string");
		const types = records.slice(1).map((record) => record.type);
		expect(types[0]).toBe("agent_start");
		expect(types.at(-1)).toBe("agent_end");
		expect(types).toContain("message_update");
		// Outside the updates, the run's skeleton is exactly this (docs/json.md "Turns and runs").
		expect(types.filter((type) => type !== "message_update")).toEqual([
			"agent_start",
			"turn_start",
			"message_start",
			"message_end",
			"message_start",
			"message_end",
			"turn_end",
			"agent_end",
		]);
		for (const record of records.slice(1)) expect(record).not.toHaveProperty("id");

		const deltas = records
			.filter((r) => r.type === "message_update")
			.map((r) => (r.assistantMessageEvent as { type: string; delta?: string }) ?? {})
			.filter((e) => e.type === "text_delta")
			.map((e) => e.delta)
			.join("");
		// U+2028 travels inside a JSON string on one line.
		expect(deltas).toBe("Hi there\u2028friend");
		const agentEnd = records.at(-1) as { messages: { role: string }[] };
		expect(agentEnd.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
	});

	it("includes tool execution events and the tool result messages", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		server.enqueue(toolCallReply([{ name: "bash", arguments: { command: "echo from-bash" } }]), textReply("done"));
		const result = await runCli(sandbox, ["--mode", "json", "run it"]);
		expect(result.code).toBe(0);
		const records = parseJsonLines(result.stdout);
		const end = records.find((r) => r.type === "tool_execution_end") as {
			toolName: string;
			isError: boolean;
			result: { content: { text: string }[] };
		};
		expect(end.toolName).toBe("bash");
		expect(end.isError).toBe(false);
		expect(end.result.content[0]!.text).toContain("from-bash");
		expect(records.filter((r) => r.type === "turn_start")).toHaveLength(2);
		expect(records.at(-1)!.type).toBe("agent_end");
	});

	it("exits 0 even when the model fails, and reports retries as events", async () => {
		sandbox = createCliSandbox({
			modelServerUrl: server.baseUrl,
			settings: { retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 } },
		});
		server.setFallback(errorReply(503, "service unavailable"));
		const result = await runCli(sandbox, ["--mode", "json", "hi"]);
		expect(result.code).toBe(0);
		const records = parseJsonLines(result.stdout);
		const types = records.map((r) => r.type);
		expect(types.filter((t) => t === "agent_start")).toHaveLength(2);
		expect(types.filter((t) => t === "agent_end")).toHaveLength(2);
		expect(records.find((r) => r.type === "auto_retry_start")).toMatchObject({ attempt: 1, maxAttempts: 1 });
		// Giving up is announced after the last attempt's agent_end (docs/json.md "Automatic retry: auto_retry_*").
		expect(types.slice(-2)).toEqual(["agent_end", "auto_retry_end"]);
		expect(records.at(-1)).toMatchObject({ success: false, attempt: 1 });
	});
});
