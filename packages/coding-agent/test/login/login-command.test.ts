// `agent login` / `agent logout` and signing in through AuthStorage: what is stored, where, and how.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { getModels, type OAuthProviderInterface } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { LOGIN_NEEDS_TERMINAL_TEXT, runLoginCommand } from "../../src/cli/login-command.js";
import { AuthStorage, CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT } from "../../src/core/config/auth-storage.js";
import { ModelRegistry } from "../../src/core/config/model-registry.js";
import { type CliSandbox, createCliSandbox, runCli } from "../helpers/cli-sandbox.js";
import { useTempDirs } from "../helpers/session-fixtures.js";

const tempDir = useTempDirs("agent-login-cmd-");

function capture() {
	let stdout = "";
	let stderr = "";
	const sink = (append: (text: string) => void) =>
		({
			write: (text: string) => {
				append(text);
				return true;
			},
		}) as unknown as NodeJS.WritableStream;
	const io = {
		stdout: sink((text) => {
			stdout += text;
		}),
		stderr: sink((text) => {
			stderr += text;
		}),
	};
	return { io, out: () => stdout, err: () => stderr };
}

/** A sign-in that asks one question and returns fixed credentials (stands in for a real flow). */
function fakeProvider(prompts: string[]): OAuthProviderInterface {
	return {
		id: "github-copilot",
		name: "GitHub Copilot",
		async login(callbacks) {
			callbacks.onAuth({ url: "https://example.test/device", instructions: "Enter code: XYZ" });
			prompts.push(await callbacks.onPrompt({ message: "Domain" }));
			return { access: "tid=1;proxy-ep=proxy.acme.example", refresh: "ghu_1", expires: Date.now() + 60_000 };
		},
		refreshToken: async (credentials) => credentials,
		getApiKey: (credentials) => credentials.access,
		modifyModels: (models) => models.map((model) => ({ ...model, baseUrl: "https://api.acme.example" })),
	};
}

describe("agent login", () => {
	it("--help prints the usage and the providers, and touches no auth.json", async () => {
		const path = join(tempDir(), "auth.json");
		const { io, out } = capture();
		expect(await runLoginCommand("login", "--help", { io, authPath: path, isTerminal: false })).toBe(0);
		expect(out()).toContain("Usage: agent login [provider]");
		expect(out()).toContain("(github-copilot)");
		expect(existsSync(path)).toBe(false);
		expect(await runLoginCommand("logout", "-h", { io, authPath: path, isTerminal: false })).toBe(0);
		expect(out()).toContain("Usage: agent logout [provider]");
	});

	it("without a terminal explains what to do instead, and stores nothing", async () => {
		const path = join(tempDir(), "auth.json");
		const { io, err } = capture();
		const code = await runLoginCommand("login", undefined, { io, authPath: path, isTerminal: false });
		expect(code).toBe(1);
		expect(err()).toContain(LOGIN_NEEDS_TERMINAL_TEXT);
		expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({});
	});

	it("says Claude subscriptions are not supported", async () => {
		const { io, err } = capture();
		const code = await runLoginCommand("login", "anthropic", {
			io,
			authPath: join(tempDir(), "auth.json"),
			isTerminal: true,
		});
		expect(code).toBe(1);
		expect(err()).toContain(CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT);
	});

	it("shows the sign-in page, asks in the terminal and saves the credentials to auth.json with mode 0600", async () => {
		const path = join(tempDir(), "auth.json");
		const storage = AuthStorage.create(path, {});
		const prompts: string[] = [];
		storage.registerOAuthProvider(fakeProvider(prompts));
		const input = new PassThrough();
		const { io, out } = capture();
		const done = runLoginCommand("login", "github-copilot", { io, authPath: path, isTerminal: true, input, storage });
		input.write("company.ghe.com\n");
		expect(await done).toBe(0);
		expect(prompts).toEqual(["company.ghe.com"]);
		expect(out()).toContain("https://example.test/device");
		expect(out()).toContain("Enter code: XYZ");
		expect(out()).toContain(`Signed in to GitHub Copilot. Credentials saved to ${path}.`);
		expect(JSON.parse(readFileSync(path, "utf8"))["github-copilot"]).toMatchObject({
			type: "oauth",
			refresh: "ghu_1",
		});
		expect(statSync(path).mode & 0o777).toBe(0o600);
	});

	it("names the providers when asked for one it does not know", async () => {
		const { io, err } = capture();
		const code = await runLoginCommand("login", "nope", {
			io,
			authPath: join(tempDir(), "auth.json"),
			isTerminal: true,
			input: new PassThrough(),
		});
		expect(code).toBe(1);
		expect(err()).toMatch(
			/Unknown login provider "nope". Available: openai-codex, github-copilot, google-gemini-cli, google-antigravity/,
		);
	});
});

describe("agent logout", () => {
	it("removes only that provider's sign-in, without needing a terminal", async () => {
		const path = join(tempDir(), "auth.json");
		writeFileSync(
			path,
			JSON.stringify({
				"openai-codex": { type: "oauth", access: "a", refresh: "r", expires: 1 },
				openai: { type: "api_key", key: "sk" },
			}),
		);
		const { io, out } = capture();
		expect(await runLoginCommand("logout", undefined, { io, authPath: path, isTerminal: false })).toBe(0);
		expect(out()).toContain("Logged out of openai-codex");
		expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ openai: { type: "api_key", key: "sk" } });
	});
});

describe("a signed-in provider's models", () => {
	it("become available, at the endpoint the sign-in names, and go away on logout", async () => {
		const path = join(tempDir(), "auth.json");
		const storage = AuthStorage.create(path, {});
		storage.registerOAuthProvider(fakeProvider([]));
		const registry = new ModelRegistry(storage, undefined, {});
		const copilot = () => registry.getAvailable().filter((model) => model.provider === "github-copilot");
		expect(copilot()).toEqual([]);
		await storage.login("github-copilot", {
			onAuth: () => undefined,
			onPrompt: async () => "",
		});
		registry.refresh();
		expect(copilot()).toHaveLength(getModels("github-copilot").length);
		expect(new Set(copilot().map((model) => model.baseUrl))).toEqual(new Set(["https://api.acme.example"]));
		storage.logout("github-copilot");
		registry.refresh();
		expect(copilot()).toEqual([]);
	});

	it("a failed refresh keeps the sign-in and says why", async () => {
		const storage = AuthStorage.inMemory(
			{ "openai-codex": { type: "oauth", access: "a", refresh: "r", expires: 1 } },
			{},
		);
		storage.registerOAuthProvider({
			id: "openai-codex",
			name: "ChatGPT",
			login: () => Promise.reject(new Error("unused")),
			refreshToken: () => Promise.reject(new Error("Failed to refresh OpenAI Codex token: 400 invalid_grant")),
			getApiKey: (credentials) => credentials.access,
		});
		expect(await storage.getApiKey("openai-codex")).toBeUndefined();
		expect(storage.getRefreshError("openai-codex")).toContain("invalid_grant");
		expect(storage.listOAuth()).toEqual(["openai-codex"]);
	});
});

describe("the agent binary", () => {
	let sandbox: CliSandbox | undefined;
	afterEach(() => sandbox?.cleanup());

	it("`agent login` with stdin not a terminal exits 1 with the explanation", async () => {
		sandbox = createCliSandbox();
		const result = await runCli(sandbox, ["login", "openai-codex"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("login needs a terminal");
		expect(result.stderr).toContain("/login in the interactive mode");
	});
});
