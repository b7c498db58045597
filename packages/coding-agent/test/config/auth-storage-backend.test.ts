// The reference's auth storage backends: AuthStorage.fromStorage(backend) over auth.json (0600, atomic, locked)
// or over text held in memory.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	AuthStorage,
	type AuthStorageBackend,
	FileAuthStorageBackend,
	InMemoryAuthStorageBackend,
} from "../../src/core/config/index.js";
import { useTempDirs } from "../helpers/session-fixtures.js";

const mode = (path: string) => statSync(path).mode & 0o777;

describe("FileAuthStorageBackend", () => {
	const tempDir = useTempDirs("agent-auth-backend-");

	it("backs AuthStorage.fromStorage with auth.json written 0600 in a 0700 directory, no lock left behind", () => {
		const dir = join(tempDir(), "agent");
		const path = join(dir, "auth.json");
		const storage = AuthStorage.fromStorage(new FileAuthStorageBackend(path), {});
		expect(storage.authPath).toBe(path);
		storage.set("openai", { type: "api_key", key: "sk-1" });
		expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ openai: { type: "api_key", key: "sk-1" } });
		expect(mode(path)).toBe(0o600);
		expect(mode(dir)).toBe(0o700);
		expect(readdirSync(dir)).toEqual(["auth.json"]);
	});

	it("runs a locked section with the current text and replaces the file with the text it returns", () => {
		const path = join(tempDir(), "auth.json");
		writeFileSync(path, '{"a":1}', { mode: 0o644 });
		const backend = new FileAuthStorageBackend(path);
		const seen = backend.withLock((current) => {
			expect(existsSync(`${path}.lock`)).toBe(true);
			return { result: current, next: '{"b":2}' };
		});
		expect(seen).toBe('{"a":1}');
		expect(readFileSync(path, "utf8")).toBe('{"b":2}');
		expect(mode(path)).toBe(0o600);
		expect(existsSync(`${path}.lock`)).toBe(false);
		// No `next`: the file is left as it is.
		expect(backend.withLock(() => ({ result: 7 }))).toBe(7);
		expect(readFileSync(path, "utf8")).toBe('{"b":2}');
	});

	it("the async section sees undefined for a missing file and creates it when it returns text", async () => {
		const path = join(tempDir(), "nested", "auth.json");
		const backend = new FileAuthStorageBackend(path);
		const result = await backend.withLockAsync(async (current) => ({ result: current, next: "{}" }));
		expect(result).toBeUndefined();
		expect(readFileSync(path, "utf8")).toBe("{}");
		expect(mode(path)).toBe(0o600);
	});

	it("is what AuthStorage.create uses: two storages on one file see each other's writes", () => {
		const path = join(tempDir(), "auth.json");
		const created = AuthStorage.create(path, {});
		const fromBackend = AuthStorage.fromStorage(new FileAuthStorageBackend(path), {});
		created.set("anthropic", { type: "api_key", key: "a" });
		fromBackend.set("openai", { type: "api_key", key: "o" });
		created.reload();
		expect(created.list().sort()).toEqual(["anthropic", "openai"]);
	});
});

describe("InMemoryAuthStorageBackend", () => {
	it("keeps what AuthStorage stores in memory, in the auth.json format", async () => {
		const backend = new InMemoryAuthStorageBackend();
		const storage = AuthStorage.fromStorage(backend, {});
		expect(storage.authPath).toBeUndefined();
		storage.set("openai", { type: "api_key", key: "sk-1" });
		const text = backend.withLock((current) => ({ result: current }));
		expect(JSON.parse(text ?? "")).toEqual({ openai: { type: "api_key", key: "sk-1" } });
		// Another storage over the same backend reads it.
		expect(await AuthStorage.fromStorage(backend, {}).getApiKey("openai")).toBe("sk-1");
	});

	it("refuses to overwrite stored text that is not JSON", () => {
		const backend = new InMemoryAuthStorageBackend();
		backend.withLock(() => ({ result: undefined, next: "{ not json" }));
		const storage = AuthStorage.fromStorage(backend, {});
		expect(storage.getLoadError()).toMatch(/Failed to read/);
		expect(() => storage.set("openai", { type: "api_key", key: "k" })).toThrow(/not saved/);
		expect(backend.withLock((current) => ({ result: current }))).toBe("{ not json");
	});
});

describe("a backend of one's own", () => {
	it("refreshes an expired sign-in under its async lock and stores the new token", async () => {
		let text: string | undefined = JSON.stringify({
			demo: { type: "oauth", refresh: "r1", access: "old", expires: Date.now() - 1000 },
		});
		const locked: string[] = [];
		const backend: AuthStorageBackend = {
			withLock(fn) {
				locked.push("sync");
				const { result, next } = fn(text);
				if (next !== undefined) text = next;
				return result;
			},
			async withLockAsync(fn) {
				locked.push("async");
				const { result, next } = await fn(text);
				if (next !== undefined) text = next;
				return result;
			},
		};
		const storage = AuthStorage.fromStorage(backend, {});
		storage.registerOAuthProvider({
			id: "demo",
			name: "Demo",
			login: async () => ({ refresh: "r1", access: "a", expires: 0 }),
			refreshToken: async (credentials) => ({ ...credentials, access: "new", expires: Date.now() + 60_000 }),
			getApiKey: (credentials) => credentials.access,
		});
		expect(await storage.getApiKey("demo")).toBe("new");
		expect(locked).toContain("async");
		expect(JSON.parse(text ?? "").demo.access).toBe("new");
	});
});
