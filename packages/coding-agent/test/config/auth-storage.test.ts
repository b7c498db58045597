import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OAuthCredentials } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import { AuthStorage, clearConfigValueCache } from "../../src/core/config/index.js";
import { startSourcesInChild } from "../helpers/session-child-process.js";
import { useTempDirs } from "../helpers/session-fixtures.js";

afterEach(() => clearConfigValueCache());

const AUTH_STORAGE_SOURCE = join(import.meta.dirname, "..", "..", "src", "core", "config", "auth-storage.ts");
// auth-storage needs only getEnvApiKey from @agent/ai: loading just that module keeps the children quick to start.

function mode(path: string): number {
	return statSync(path).mode & 0o777;
}

describe("auth.json on disk", () => {
	const tempDir = useTempDirs("agent-auth-");

	it("is created on first access as {} with mode 0600 in a 0700 directory", () => {
		const dir = join(tempDir(), "agent");
		const path = join(dir, "auth.json");
		AuthStorage.create(path, {});
		expect(readFileSync(path, "utf8")).toBe("{}");
		expect(mode(path)).toBe(0o600);
		expect(mode(dir)).toBe(0o700);
	});

	it("is rewritten atomically as pretty JSON with mode 0600, leaving no temp or lock files", () => {
		const dir = tempDir();
		const path = join(dir, "auth.json");
		const storage = AuthStorage.create(path, {});
		storage.set("anthropic", { type: "api_key", key: "sk-ant-1" });
		expect(readFileSync(path, "utf8")).toBe(
			'{\n  "anthropic": {\n    "type": "api_key",\n    "key": "sk-ant-1"\n  }\n}',
		);
		expect(mode(path)).toBe(0o600);
		expect(readdirSync(dir)).toEqual(["auth.json"]);
	});

	it("tightens a file created with looser permissions when it writes", () => {
		const path = join(tempDir(), "auth.json");
		writeFileSync(path, "{}", { mode: 0o644 });
		AuthStorage.create(path, {}).set("openai", { type: "api_key", key: "k" });
		expect(mode(path)).toBe(0o600);
	});

	it("re-reads before writing, so other processes' changes to other providers survive", () => {
		const path = join(tempDir(), "auth.json");
		const storage = AuthStorage.create(path, {});
		writeFileSync(
			path,
			JSON.stringify({ google: { type: "api_key", key: "g" }, openai: { type: "api_key", key: "o" } }),
		);
		storage.set("anthropic", { type: "api_key", key: "a" });
		storage.remove("openai");
		expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
			google: { type: "api_key", key: "g" },
			anthropic: { type: "api_key", key: "a" },
		});
	});

	it("keeps oauth entries and their provider-specific fields intact", () => {
		const path = join(tempDir(), "auth.json");
		const copilot = {
			type: "oauth",
			refresh: "ghu_x",
			access: "tid=y",
			expires: 1767225600000,
			enterpriseUrl: "company.ghe.com",
		};
		writeFileSync(path, JSON.stringify({ "github-copilot": copilot }));
		AuthStorage.create(path, {}).set("openai", { type: "api_key", key: "k" });
		expect(JSON.parse(readFileSync(path, "utf8"))["github-copilot"]).toEqual(copilot);
	});

	it("treats invalid JSON as no credentials and never overwrites it", () => {
		const path = join(tempDir(), "auth.json");
		writeFileSync(path, "{ not json");
		const storage = AuthStorage.create(path, {});
		expect(storage.getLoadError()).toContain(path);
		expect(storage.list()).toEqual([]);
		expect(() => storage.set("openai", { type: "api_key", key: "k" })).toThrow(/was not saved/);
		expect(readFileSync(path, "utf8")).toBe("{ not json");
		// Still usable in this process.
		expect(storage.get("openai")).toEqual({ type: "api_key", key: "k" });
	});

	it("loses no update when two processes write different providers at the same time", async () => {
		const path = join(tempDir(), "auth.json");
		AuthStorage.create(path, {});
		const writer = (prefix: string) =>
			startSourcesInChild(
				`
				const { AuthStorage } = await load(${JSON.stringify(AUTH_STORAGE_SOURCE)});
				const storage = AuthStorage.create(${JSON.stringify(path)}, {});
				process.stdout.write("READY\\n");
				await new Promise((resolve) => process.stdin.once("data", resolve));
				for (let i = 0; i < 25; i++) storage.set("${prefix}" + i, { type: "api_key", key: "k" + i });
				process.exit(0);
			`,
			);
		const children = [writer("a"), writer("b")];
		await Promise.all(children.map((child) => child.waitForLine("READY")));
		// Released together, so their read-modify-write cycles overlap. (A long run of writes by one process may keep
		// the other waiting past the lock timeout on a loaded machine; 25 each still overlap.)
		for (const child of children) child.process.stdin.write("go\n");
		const codes = await Promise.all(children.map((child) => child.exited));
		expect(codes, children.map((child) => child.stderr()).join("\n")).toEqual([0, 0]);
		const providers = Object.keys(JSON.parse(readFileSync(path, "utf8")));
		expect(providers).toHaveLength(50);
		expect(mode(path)).toBe(0o600);
	});
});

describe("API key resolution order", () => {
	it("prefers the runtime key, then auth.json, then the environment, then models.json", async () => {
		const env = { ANTHROPIC_API_KEY: "from-env" };
		const storage = AuthStorage.inMemory({ anthropic: { type: "api_key", key: "from-auth" } }, env);
		storage.setFallbackResolver(() => "from-models-json");
		storage.setRuntimeApiKey("anthropic", "from-flag");
		expect(await storage.getApiKey("anthropic")).toBe("from-flag");
		storage.removeRuntimeApiKey("anthropic");
		expect(await storage.getApiKey("anthropic")).toBe("from-auth");
		storage.remove("anthropic");
		expect(await storage.getApiKey("anthropic")).toBe("from-env");
		delete (env as Record<string, string | undefined>).ANTHROPIC_API_KEY;
		expect(await storage.getApiKey("anthropic")).toBe("from-models-json");
		storage.setFallbackResolver(undefined);
		expect(await storage.getApiKey("anthropic")).toBeUndefined();
	});

	it("resolves auth.json keys as config values: env var names and !commands", async () => {
		const storage = AuthStorage.inMemory(
			{ openai: { type: "api_key", key: "OPENAI_FROM_VAR" }, google: { type: "api_key", key: "!echo gem-key" } },
			{ OPENAI_FROM_VAR: "sk-var" },
		);
		expect(await storage.getApiKey("openai")).toBe("sk-var");
		expect(await storage.getApiKey("google")).toBe("gem-key");
	});

	it("does not fall through to the environment when an auth.json command fails", async () => {
		const storage = AuthStorage.inMemory(
			{ openai: { type: "api_key", key: "!exit 1" } },
			{ OPENAI_API_KEY: "env-key" },
		);
		expect(await storage.getApiKey("openai")).toBeUndefined();
		expect(storage.hasAuth("openai")).toBe(true);
	});

	it("resolves the models.json fallback as a config value", async () => {
		const storage = AuthStorage.inMemory({}, { LOCAL_KEY: "resolved" });
		storage.setFallbackResolver((provider) => (provider === "ollama" ? "LOCAL_KEY" : undefined));
		expect(await storage.getApiKey("ollama")).toBe("resolved");
		expect(storage.hasAuth("ollama")).toBe(true);
		storage.setFallbackResolver(() => "!false");
		expect(storage.hasAuth("ollama")).toBe(false);
	});
});

describe("OAuth credentials", () => {
	const future = Date.now() + 3_600_000;
	const past = Date.now() - 1000;

	it("give the access token as the key while unexpired", async () => {
		const storage = AuthStorage.inMemory(
			{ "openai-codex": { type: "oauth", refresh: "r", access: "eyJ-access", expires: future } },
			{},
		);
		expect(await storage.getApiKey("openai-codex")).toBe("eyJ-access");
	});

	it("give no key for a Claude subscription sign-in, which third-party clients may not use", async () => {
		const storage = AuthStorage.inMemory(
			{ anthropic: { type: "oauth", refresh: "r", access: "sk-ant-oat-1", expires: future } },
			{},
		);
		expect(await storage.getApiKey("anthropic")).toBeUndefined();
	});

	it("give Cloud Code Assist a token with its project id", async () => {
		const storage = AuthStorage.inMemory(
			{ "google-gemini-cli": { type: "oauth", refresh: "r", access: "ya29", expires: future, projectId: "proj-1" } },
			{},
		);
		expect(JSON.parse((await storage.getApiKey("google-gemini-cli")) as string)).toEqual({
			token: "ya29",
			projectId: "proj-1",
		});
	});

	it("count as configured even when expired, but give no key without a way to refresh", async () => {
		const storage = AuthStorage.inMemory(
			{ anthropic: { type: "oauth", refresh: "r", access: "old", expires: past } },
			{ ANTHROPIC_API_KEY: "env" },
		);
		expect(storage.hasAuth("anthropic")).toBe(true);
		expect(await storage.getApiKey("anthropic")).toBeUndefined();
	});

	it("give no key for an unknown OAuth provider", async () => {
		const storage = AuthStorage.inMemory(
			{ mystery: { type: "oauth", refresh: "r", access: "a", expires: future } },
			{},
		);
		expect(await storage.getApiKey("mystery")).toBeUndefined();
	});

	const tempDir = useTempDirs("agent-auth-");

	it("are refreshed under the lock and saved when expired", async () => {
		const path = join(tempDir(), "auth.json");
		writeFileSync(
			path,
			JSON.stringify({ custom: { type: "oauth", refresh: "r1", access: "old", expires: past, extra: 1 } }),
		);
		const storage = AuthStorage.create(path, {});
		let refreshes = 0;
		storage.registerOAuthProvider({
			id: "custom",
			name: "Custom",
			login: () => Promise.reject(new Error("not used")),
			getApiKey: (c) => `key:${c.access}`,
			refreshToken: async (c: OAuthCredentials) => {
				refreshes++;
				return { ...c, refresh: "r2", access: "new", expires: future };
			},
		});
		expect(await storage.getApiKey("custom")).toBe("key:new");
		expect(refreshes).toBe(1);
		expect(JSON.parse(readFileSync(path, "utf8")).custom).toMatchObject({ access: "new", refresh: "r2", extra: 1 });
		expect(mode(path)).toBe(0o600);
	});

	it("use credentials another process refreshed meanwhile instead of refreshing again", async () => {
		const dir = tempDir();
		mkdirSync(dir, { recursive: true });
		const path = join(dir, "auth.json");
		writeFileSync(path, JSON.stringify({ custom: { type: "oauth", refresh: "r1", access: "old", expires: past } }));
		const storage = AuthStorage.create(path, {});
		writeFileSync(
			path,
			JSON.stringify({ custom: { type: "oauth", refresh: "r2", access: "other", expires: future } }),
		);
		let refreshes = 0;
		storage.registerOAuthProvider({
			id: "custom",
			name: "Custom",
			login: () => Promise.reject(new Error("not used")),
			getApiKey: (c) => c.access,
			refreshToken: async (c) => {
				refreshes++;
				return c;
			},
		});
		expect(await storage.getApiKey("custom")).toBe("other");
		expect(refreshes).toBe(0);
	});
});
