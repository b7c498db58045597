import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
	clearApiKeyCache,
	clearConfigValueCache,
	resolveConfigValue,
	resolveHeaders,
} from "../../src/core/config/index.js";
import { useTempDirs } from "../helpers/session-fixtures.js";

afterEach(() => clearConfigValueCache());

describe("literal and environment values", () => {
	it("uses a non-empty environment variable of that exact name, read every time", () => {
		const env: NodeJS.ProcessEnv = { MY_KEY: "from-env" };
		expect(resolveConfigValue("MY_KEY", env)).toBe("from-env");
		env.MY_KEY = "changed";
		expect(resolveConfigValue("MY_KEY", env)).toBe("changed");
	});

	it("falls back to the literal when the variable is missing or empty", () => {
		expect(resolveConfigValue("sk-literal", {})).toBe("sk-literal");
		expect(resolveConfigValue("MY_KEY", { MY_KEY: "" })).toBe("MY_KEY");
	});
});

describe("!command values", () => {
	const tempDir = useTempDirs("agent-config-");

	it("are the trimmed stdout of the command", () => {
		expect(resolveConfigValue("!printf '  secret-key \\n\\n'", {})).toBe("secret-key");
	});

	it("run once per process, cached by the full string, until the cache is cleared", () => {
		const counter = join(tempDir(), "runs");
		const command = `!echo run >> ${counter}; echo key`;
		expect(resolveConfigValue(command, {})).toBe("key");
		expect(resolveConfigValue(command, {})).toBe("key");
		expect(readFileSync(counter, "utf8")).toBe("run\n");
		clearConfigValueCache();
		expect(resolveConfigValue(command, {})).toBe("key");
		expect(readFileSync(counter, "utf8")).toBe("run\nrun\n");
		clearApiKeyCache();
		resolveConfigValue(command, {});
		expect(readFileSync(counter, "utf8")).toBe("run\nrun\nrun\n");
	});

	it("give no value when the command fails or prints nothing, and cache that too", () => {
		const counter = join(tempDir(), "runs");
		expect(resolveConfigValue(`!echo run >> ${counter}; echo partial; exit 3`, {})).toBeUndefined();
		expect(resolveConfigValue(`!echo run >> ${counter}; echo partial; exit 3`, {})).toBeUndefined();
		expect(readFileSync(counter, "utf8")).toBe("run\n");
		expect(resolveConfigValue("!true", {})).toBeUndefined();
		expect(resolveConfigValue("!definitely-not-a-command-xyz 2>/dev/null", {})).toBeUndefined();
	});

	it("ignore stderr", () => {
		expect(resolveConfigValue("!echo noise >&2; echo value", {})).toBe("value");
	});
});

describe("header maps", () => {
	it("resolve each value and drop the ones that resolve to nothing", () => {
		expect(resolveHeaders({ "X-A": "A_VAR", "X-B": "!false", "X-C": "literal" }, { A_VAR: "a" })).toEqual({
			"X-A": "a",
			"X-C": "literal",
		});
	});

	it("count as no headers when nothing is left", () => {
		expect(resolveHeaders({ "X-B": "!false" }, {})).toBeUndefined();
		expect(resolveHeaders(undefined, {})).toBeUndefined();
	});
});
