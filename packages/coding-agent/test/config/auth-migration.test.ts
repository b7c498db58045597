import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuthStorage, migrateLegacyCredentials } from "../../src/core/config/index.js";
import { useTempDirs } from "../helpers/session-fixtures.js";

describe("legacy credentials", () => {
	const tempDir = useTempDirs("agent-auth-migration-");

	it("move from settings.json apiKeys and oauth.json into a new auth.json", async () => {
		const dir = tempDir();
		writeFileSync(
			join(dir, "settings.json"),
			JSON.stringify({ theme: "dark", apiKeys: { openai: "sk-1", empty: "" } }),
		);
		writeFileSync(join(dir, "oauth.json"), JSON.stringify({ anthropic: { refresh: "r", access: "a", expires: 5 } }));
		expect(migrateLegacyCredentials(dir).providers.sort()).toEqual(["anthropic", "openai"]);
		const authPath = join(dir, "auth.json");
		expect(JSON.parse(readFileSync(authPath, "utf8"))).toEqual({
			openai: { type: "api_key", key: "sk-1" },
			anthropic: { refresh: "r", access: "a", expires: 5, type: "oauth" },
		});
		expect(statSync(authPath).mode & 0o777).toBe(0o600);
		expect(existsSync(join(dir, "oauth.json"))).toBe(false);
		expect(existsSync(join(dir, "oauth.json.migrated"))).toBe(true);
		expect(JSON.parse(readFileSync(join(dir, "settings.json"), "utf8"))).toEqual({ theme: "dark" });
		expect(await AuthStorage.create(authPath, {}).getApiKey("openai")).toBe("sk-1");
	});

	it("do nothing once auth.json exists", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "auth.json"), "{}");
		writeFileSync(join(dir, "settings.json"), JSON.stringify({ apiKeys: { openai: "sk-1" } }));
		expect(migrateLegacyCredentials(dir)).toEqual({ providers: [] });
		expect(readFileSync(join(dir, "auth.json"), "utf8")).toBe("{}");
		expect(JSON.parse(readFileSync(join(dir, "settings.json"), "utf8"))).toEqual({ apiKeys: { openai: "sk-1" } });
	});

	it("leave an unparseable settings.json untouched and create nothing when there is nothing to move", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "settings.json"), "{ broken");
		expect(migrateLegacyCredentials(dir)).toEqual({ providers: [] });
		expect(readFileSync(join(dir, "settings.json"), "utf8")).toBe("{ broken");
		expect(existsSync(join(dir, "auth.json"))).toBe(false);
	});
});
