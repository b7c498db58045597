// A session's commands (the model's bash tool and the user's !cmd): provider keys — including variables
// models.json names — stay out of their environment unless listed in shellEnvPassthrough, each audience is
// told once, and full-output files live as long as the session.
import { existsSync } from "node:fs";
import { fauxText, fauxToolCall } from "@agent/ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRuntimeHarness, type RuntimeHarness } from "../helpers/runtime-harness.js";

let harness: RuntimeHarness | undefined;
const saved: Record<string, string | undefined> = {};
const SECRETS = { ANTHROPIC_API_KEY: "sk-ant-session-secret", MY_GATEWAY_KEY: "gw-session-secret" };

beforeEach(() => {
	for (const [name, value] of Object.entries(SECRETS)) {
		saved[name] = process.env[name];
		process.env[name] = value;
	}
});

afterEach(() => {
	harness?.dispose();
	harness = undefined;
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

const modelsJson = JSON.stringify({
	providers: {
		gateway: {
			baseUrl: "http://gateway.invalid/v1",
			api: "openai-completions",
			apiKey: "MY_GATEWAY_KEY",
			models: [{ id: "gw-model" }],
		},
	},
});

/** Text of the tool results the session recorded, in order. */
function toolResults(h: RuntimeHarness): string[] {
	return h.session.messages.flatMap((message) =>
		message.role === "toolResult"
			? [message.content.map((part) => (part.type === "text" ? part.text : "")).join("")]
			: [],
	);
}

const NOTICE =
	"Note: provider keys were removed from this command's environment (ANTHROPIC_API_KEY, MY_GATEWAY_KEY); list variables in shellEnvPassthrough in settings.json to pass them.";

describe("environment of the session's commands", () => {
	it("keeps provider keys and models.json key variables from the bash tool, telling the model once", async () => {
		harness = await createRuntimeHarness({ modelsJson });
		harness.faux.enqueue(
			fauxToolCall("bash", { command: "env" }),
			fauxToolCall("bash", { command: 'echo "[$MY_GATEWAY_KEY]"' }),
			fauxText("done"),
		);
		await harness.session.prompt("show the environment");
		const [first, second] = toolResults(harness);
		expect(first).not.toContain("session-secret");
		expect(first?.endsWith(`\n\n${NOTICE}`)).toBe(true);
		expect(second).toBe("[]\n");
	});

	it("does the same for !cmd, telling the user once as well", async () => {
		harness = await createRuntimeHarness({ modelsJson });
		const first = await harness.session.executeBash('echo "[$ANTHROPIC_API_KEY]"');
		expect(first.output).toBe(`[]\n\n\n${NOTICE}`);
		const second = await harness.session.executeBash('echo "[$MY_GATEWAY_KEY]"');
		expect(second.output).toBe("[]\n");
	});

	it("passes the variables listed in shellEnvPassthrough", async () => {
		harness = await createRuntimeHarness({
			modelsJson,
			settings: { shellEnvPassthrough: ["ANTHROPIC_API_KEY", "MY_GATEWAY_KEY"] },
		});
		const result = await harness.session.executeBash('echo "$ANTHROPIC_API_KEY $MY_GATEWAY_KEY"');
		expect(result.output).toBe("sk-ant-session-secret gw-session-secret\n");
	});
});

describe("full-output files", () => {
	it("stay readable during the session and are removed when it is disposed", async () => {
		harness = await createRuntimeHarness();
		harness.faux.enqueue(fauxToolCall("bash", { command: "seq 1 30000" }), fauxText("done"));
		await harness.session.prompt("count");
		const toolPath = /Full output: (\S+)\]/.exec(toolResults(harness)[0] ?? "")?.[1];
		const userPath = (await harness.session.executeBash("seq 1 30000")).fullOutputPath;
		expect(toolPath).toMatch(/agent-bash-\d+\.\d+-[0-9a-f]{16}\.log$/);
		expect(userPath).toMatch(/agent-bash-\d+\.\d+-[0-9a-f]{16}\.log$/);
		expect(existsSync(toolPath as string)).toBe(true);
		expect(existsSync(userPath as string)).toBe(true);
		harness.session.dispose();
		expect(existsSync(toolPath as string)).toBe(false);
		expect(existsSync(userPath as string)).toBe(false);
	});
});
