// Provider keys the agent reads from its environment do not reach the commands it runs (a model running
// `env`), unless the user lists them in shellEnvPassthrough; the first result that lost keys says so once.
import { PROVIDER_KEY_ENV_VARS } from "@agent/ai";
import { createBashTool, ShellEnvironment } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { environmentChanges } from "../../src/modes/acp/terminal-bash.js";
import { errorOf, run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-shell-env-");

const NOTICE =
	"Note: provider keys were removed from this command's environment (ANTHROPIC_API_KEY, OPENAI_API_KEY); list variables in shellEnvPassthrough in settings.json to pass them.";

function environmentWith(extra: NodeJS.ProcessEnv, options: { passthrough?: string[]; extraKeyNames?: string[] } = {}) {
	return new ShellEnvironment({
		baseEnv: () => ({ PATH: process.env.PATH, HOME: process.env.HOME, ...extra }),
		...(options.passthrough ? { passthrough: () => options.passthrough ?? [] } : {}),
		...(options.extraKeyNames ? { extraKeyNames: () => options.extraKeyNames ?? [] } : {}),
	});
}

describe("the environment commands get", () => {
	it("lists every provider key variable of @agent/ai, Bedrock's bearer token included", () => {
		expect(PROVIDER_KEY_ENV_VARS).toEqual(
			expect.arrayContaining(["ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "OPENAI_API_KEY", "GEMINI_API_KEY"]),
		);
		expect(PROVIDER_KEY_ENV_VARS).toContain("AWS_BEARER_TOKEN_BEDROCK");
		expect(PROVIDER_KEY_ENV_VARS).not.toContain("AWS_ACCESS_KEY_ID");
	});

	it("removes provider keys and names from models.json, keeps passthrough and everything else", () => {
		const environment = environmentWith(
			{ ANTHROPIC_API_KEY: "sk-ant", GROQ_API_KEY: "gsk", MY_GATEWAY_KEY: "gw", EDITOR: "vim", OPENAI_API_KEY: "" },
			{ passthrough: ["GROQ_API_KEY"], extraKeyNames: ["MY_GATEWAY_KEY"] },
		);
		const { env, removed } = environment.build();
		expect(removed).toEqual(["ANTHROPIC_API_KEY", "MY_GATEWAY_KEY"]);
		expect(env).toMatchObject({ GROQ_API_KEY: "gsk", EDITOR: "vim" });
		expect(Object.keys(env)).not.toContain("ANTHROPIC_API_KEY");
		expect(Object.keys(env)).not.toContain("MY_GATEWAY_KEY");
		// An empty variable is removed too, but is not worth a notice.
		expect(Object.keys(env)).not.toContain("OPENAI_API_KEY");
	});

	it("gives the notice once per audience", () => {
		const environment = environmentWith({});
		expect(environment.takeNotice("model", [])).toBeUndefined();
		expect(environment.takeNotice("model", ["ANTHROPIC_API_KEY"])).toContain("(ANTHROPIC_API_KEY)");
		expect(environment.takeNotice("model", ["ANTHROPIC_API_KEY"])).toBeUndefined();
		expect(environment.takeNotice("user", ["ANTHROPIC_API_KEY"])).toContain("(ANTHROPIC_API_KEY)");
	});
});

describe("the bash tool", () => {
	it("runs `env` without the keys, and says so on the first result only", async () => {
		const environment = environmentWith({ ANTHROPIC_API_KEY: "sk-ant-secret", OPENAI_API_KEY: "sk-oai-secret" });
		const tool = createBashTool(tempDir(), { environment });
		const first = textOf(await run(tool, { command: "env" }));
		expect(first).not.toContain("secret");
		expect(first.endsWith(`\n\n${NOTICE}`)).toBe(true);
		const second = textOf(await run(tool, { command: 'echo "[$ANTHROPIC_API_KEY]"' }));
		expect(second).toBe("[]\n");
	});

	it("puts the notice after the exit code when the first command fails", async () => {
		const environment = environmentWith({ ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "b" });
		const message = await errorOf(run(createBashTool(tempDir(), { environment }), { command: "echo hi; exit 3" }));
		expect(message).toBe(`hi\n\n\nCommand exited with code 3\n\n${NOTICE}`);
	});

	it("passes a key listed in shellEnvPassthrough, with no notice", async () => {
		const environment = environmentWith({ ANTHROPIC_API_KEY: "visible" }, { passthrough: ["ANTHROPIC_API_KEY"] });
		const text = textOf(
			await run(createBashTool(tempDir(), { environment }), { command: "echo $ANTHROPIC_API_KEY" }),
		);
		expect(text).toBe("visible\n");
	});

	it("removes provider keys from the process environment by default", async () => {
		const saved = process.env.XAI_API_KEY;
		process.env.XAI_API_KEY = "xai-secret";
		try {
			const text = textOf(await run(createBashTool(tempDir()), { command: 'echo "[$XAI_API_KEY]"' }));
			expect(text).toBe(
				"[]\n\n\nNote: provider keys were removed from this command's environment (XAI_API_KEY); list variables in shellEnvPassthrough in settings.json to pass them.",
			);
		} finally {
			if (saved === undefined) delete process.env.XAI_API_KEY;
			else process.env.XAI_API_KEY = saved;
		}
	});
});

describe("ACP editor terminals", () => {
	it("set removed variables empty, since ACP cannot unset what the editor's environment holds", () => {
		const saved = process.env.ANTHROPIC_API_KEY;
		process.env.ANTHROPIC_API_KEY = "from-editor";
		try {
			const { env } = new ShellEnvironment().build();
			expect(environmentChanges(env)).toContainEqual({ name: "ANTHROPIC_API_KEY", value: "" });
		} finally {
			if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
			else process.env.ANTHROPIC_API_KEY = saved;
		}
	});
});
