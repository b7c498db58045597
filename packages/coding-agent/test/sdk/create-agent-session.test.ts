import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FauxProvider, fauxText, getModel } from "@agent/ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { noApiKeyFoundText, noModelSelectedPromptText } from "../../src/core/agent-session.js";
import { AuthStorage } from "../../src/core/config/auth-storage.js";
import { getTrustedProjectsPath } from "../../src/core/config/project-trust.js";
import { createAgentSession } from "../../src/core/sdk.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { getDefaultSessionDir } from "../../src/core/session/session-paths.js";

let root: string;
let cwd: string;
let agentDir: string;
beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "agent-sdk-")));
	cwd = join(root, "project");
	agentDir = join(root, "agent-home");
	mkdirSync(cwd);
	mkdirSync(agentDir);
});
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

describe("createAgentSession defaults", () => {
	it("needs only a stream function: settings, credentials, model, tools, resources and session file come from the dirs", async () => {
		writeFileSync(
			join(agentDir, "settings.json"),
			JSON.stringify({
				defaultProvider: "anthropic",
				defaultModel: "claude-sonnet-4-5",
				defaultThinkingLevel: "low",
			}),
		);
		writeFileSync(join(cwd, "AGENTS.md"), "Use tabs.");
		const faux = new FauxProvider();
		faux.enqueue(fauxText("Hello from the SDK"));
		const { session, modelFallbackMessage } = await createAgentSession({
			cwd,
			agentDir,
			authStorage: AuthStorage.inMemory({ anthropic: { type: "api_key", key: "sk-test" } }, {}),
			streamFn: faux.stream,
		});
		try {
			expect(modelFallbackMessage).toBeUndefined();
			expect(session.model).toMatchObject({ provider: "anthropic", id: "claude-sonnet-4-5" });
			expect(session.thinkingLevel).toBe("low");
			expect(session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);

			await session.prompt("hi");
			const request = faux.requests[0];
			expect(request?.options?.apiKey).toBe("sk-test");
			expect(request?.context.systemPrompt).toContain("Use tabs.");
			expect(session.getLastAssistantText()).toBe("Hello from the SDK");
			expect(session.sessionFile?.startsWith(getDefaultSessionDir(cwd, agentDir))).toBe(true);
			expect(existsSync(session.sessionFile as string)).toBe(true);
		} finally {
			session.dispose();
			session.sessionManager.close();
		}
	});

	it("restores the model recorded in a continued session, and says why when it cannot", async () => {
		const sessionDir = join(root, "sessions");
		const faux = new FauxProvider({ provider: "anthropic", api: "anthropic-messages" });
		faux.enqueue(fauxText("first"));
		const authStorage = AuthStorage.inMemory({ anthropic: { type: "api_key", key: "sk-test" } }, {});
		const first = await createAgentSession({
			cwd,
			agentDir,
			authStorage,
			sessionManager: SessionManager.create(cwd, sessionDir),
			model: getModel("anthropic", "claude-haiku-4-5"),
			streamFn: faux.stream,
		});
		await first.session.prompt("hi");
		const file = first.session.sessionFile as string;
		first.session.dispose();
		first.session.sessionManager.close();

		const resumed = await createAgentSession({
			cwd,
			agentDir,
			authStorage,
			sessionManager: SessionManager.open(file),
			streamFn: faux.stream,
		});
		expect(resumed.session.model?.id).toBe("claude-haiku-4-5");
		expect(resumed.session.messages).toHaveLength(2);
		resumed.session.dispose();
		resumed.session.sessionManager.close();

		const withoutKey = await createAgentSession({
			cwd,
			agentDir,
			authStorage: AuthStorage.inMemory({}, {}),
			sessionManager: SessionManager.open(file),
			streamFn: faux.stream,
		});
		expect(withoutKey.modelFallbackMessage).toBe("Could not restore model anthropic/claude-haiku-4-5");
		withoutKey.session.dispose();
		withoutKey.session.sessionManager.close();
	});
});

describe("prompting without a usable model", () => {
	it("explains how to set up a model when none is available", async () => {
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			authStorage: AuthStorage.inMemory({}, {}),
			sessionManager: SessionManager.inMemory(cwd),
		});
		expect(session.model).toBeUndefined();
		await expect(session.prompt("hi")).rejects.toThrow(noModelSelectedPromptText());
		expect(noModelSelectedPromptText("/docs")).toBe(
			"No model selected.\n\nUse /login or set an API key environment variable. See /docs/providers.md\n\nThen use /model to select a model.",
		);
	});

	it("names the provider whose key is missing", async () => {
		writeFileSync(
			join(agentDir, "settings.json"),
			JSON.stringify({ defaultProvider: "anthropic", defaultModel: "claude-sonnet-4-5" }),
		);
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			authStorage: AuthStorage.inMemory({}, {}),
			sessionManager: SessionManager.inMemory(cwd),
		});
		const failure = session.prompt("hi");
		await expect(failure).rejects.toThrow(/^No API key found for anthropic\.\n\n/);
		await expect(failure).rejects.toThrow(`"anthropic" to ${join(agentDir, "models.json")}`);
		expect(noApiKeyFoundText("anthropic", "/docs", "/home/u/.agent/models.json")).toBe(
			[
				"No API key found for anthropic.",
				"",
				"To use anthropic, do one of these:",
				"  - set ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY",
				"  - pass --api-key <key> on the command line (this run only)",
				'  - add an "apiKey" for "anthropic" to /home/u/.agent/models.json',
				"See /docs/providers.md",
			].join("\n"),
		);
		// A subscription provider is signed in to, from the terminal UI or a shell.
		expect(noApiKeyFoundText("openai-codex", "/docs")).toContain(
			"  - sign in to ChatGPT Plus/Pro (Codex Subscription): /login openai-codex in the interactive mode, or agent login openai-codex",
		);
	});
});

describe("limits from settings", () => {
	it("passes the reply caps to every model call and bounds the tool calls that run at once", async () => {
		writeFileSync(
			join(agentDir, "settings.json"),
			JSON.stringify({
				defaultProvider: "anthropic",
				defaultModel: "claude-sonnet-4-5",
				limits: { replyMaxBytes: 1234, replyTimeoutMs: 5678, parallelToolCalls: 2 },
			}),
		);
		const faux = new FauxProvider();
		faux.enqueue(fauxText("ok"));
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			authStorage: AuthStorage.inMemory({ anthropic: { type: "api_key", key: "sk-test" } }, {}),
			streamFn: faux.stream,
		});
		try {
			await session.prompt("hi");
			expect(faux.requests[0]?.options).toMatchObject({ maxReplyBytes: 1234, replyTimeoutMs: 5678 });
			expect(session.agent.maxParallelToolCalls).toBe(2);
		} finally {
			session.dispose();
			session.sessionManager.close();
		}
	});
});

describe("project trust", () => {
	/** A project whose settings prefix every command with a script that leaves a marker; returns the marker. */
	function projectWithShellPrefix(): string {
		const marker = join(root, "prefix-ran");
		mkdirSync(join(cwd, ".agent"));
		writeFileSync(join(cwd, ".agent", "settings.json"), JSON.stringify({ shellCommandPrefix: `touch '${marker}'` }));
		return marker;
	}

	async function runBash(options: { trustProject?: boolean } = {}) {
		const result = await createAgentSession({
			cwd,
			agentDir,
			authStorage: AuthStorage.inMemory({}, {}),
			sessionManager: SessionManager.inMemory(cwd),
			...options,
		});
		const bash = await result.session.executeBash("echo ran");
		result.session.dispose();
		return { ...result, bash };
	}

	it("ignores an untrusted project's settings that run code and reports it in projectTrust", async () => {
		const marker = projectWithShellPrefix();
		const { bash, projectTrust } = await runBash();
		expect(bash.output).toBe("ran\n");
		expect(existsSync(marker)).toBe(false);
		expect(projectTrust.trusted).toBe(false);
		expect(projectTrust.ignored.settings).toEqual([{ key: "shellCommandPrefix", value: `touch '${marker}'` }]);
		expect(projectTrust.notice).toContain(`Ignored because ${cwd} is not a trusted project:`);
	});

	it("keeps the decision across reload(), either way", async () => {
		const marker = projectWithShellPrefix();
		const untrusted = await createAgentSession({ cwd, agentDir, sessionManager: SessionManager.inMemory(cwd) });
		await untrusted.session.reload();
		await untrusted.session.executeBash("echo ran");
		expect(existsSync(marker)).toBe(false);
		untrusted.session.dispose();

		const trusted = await createAgentSession({
			cwd,
			agentDir,
			sessionManager: SessionManager.inMemory(cwd),
			trustProject: true,
		});
		rmSync(getTrustedProjectsPath(agentDir));
		await trusted.session.reload();
		await trusted.session.executeBash("echo ran");
		expect(existsSync(marker)).toBe(true);
		trusted.session.dispose();
	});

	it("applies them with trustProject: true, and from then on without it (remembered)", async () => {
		const marker = projectWithShellPrefix();
		const trusted = await runBash({ trustProject: true });
		expect(trusted.projectTrust).toEqual({
			trusted: true,
			ignored: { settings: [], extensions: [], files: [], mcpServers: [] },
		});
		expect(existsSync(marker)).toBe(true);
		rmSync(marker);
		const later = await runBash();
		expect(later.projectTrust.trusted).toBe(true);
		expect(existsSync(marker)).toBe(true);
	});
});
