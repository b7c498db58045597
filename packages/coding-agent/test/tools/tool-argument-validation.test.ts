import { createAllTools } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { errorOf, run, useTempDir, validateArgs } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-args-");

/**
 * Each scenario: arguments the schema must refuse (what the agent loop checks before `execute`), and the
 * same wrong types given straight to `execute`, which must answer with an error, never crash.
 */
const scenarios = [
	{
		tool: "edit",
		invalid: { path: {}, oldText: "x", newText: "y" },
		direct: { path: null, oldText: "x", newText: "y" },
		field: "path",
		got: "null",
	},
	{
		tool: "bash",
		invalid: { command: ["echo"] },
		direct: { command: 42 },
		field: "command",
		got: "number",
	},
	{
		tool: "read",
		invalid: { path: { file: "a" } },
		direct: { path: 42 },
		field: "path",
		got: "number",
	},
	{
		tool: "write",
		invalid: { path: "a.txt", content: ["c"] },
		direct: { path: "a.txt", content: null },
		field: "content",
		got: "null",
	},
	{
		tool: "grep",
		invalid: { pattern: { regex: "x" } },
		direct: { pattern: 7 },
		field: "pattern",
		got: "number",
	},
	{ tool: "find", invalid: { pattern: [] }, direct: { pattern: [] }, field: "pattern", got: "array" },
	{ tool: "ls", invalid: { path: { dir: "." } }, direct: { path: 42 }, field: "path", got: "number" },
] as const;

describe("wrong argument types are refused, never crash", () => {
	for (const scenario of scenarios) {
		describe(scenario.tool, () => {
			it("fails schema validation with a message naming the field", () => {
				const tool = createAllTools(tempDir())[scenario.tool];
				expect(() => validateArgs(tool, { ...scenario.invalid })).toThrow(
					new RegExp(`^Validation failed for tool "${scenario.tool}":\\n  - ${scenario.field}: must be`),
				);
			});

			it("answers a direct call with an error that says what to fix", async () => {
				const tool = createAllTools(tempDir())[scenario.tool];
				expect(await errorOf(run(tool, { ...scenario.direct }))).toBe(
					`Invalid arguments for ${scenario.tool}: "${scenario.field}" must be a string, got ${scenario.got}.`,
				);
			});
		});
	}

	it("refuses missing required fields in the schema", () => {
		const tools = createAllTools(tempDir());
		expect(() => validateArgs(tools.edit, { path: "a.txt" })).toThrow(
			/oldText: must have required property 'oldText'/,
		);
		expect(() => validateArgs(tools.bash, {})).toThrow(/command: must have required property 'command'/);
		expect(() => validateArgs(tools.ls, {})).not.toThrow();
	});

	it("refuses wrong optional types: numbers and booleans", async () => {
		const tools = createAllTools(tempDir());
		expect(() => validateArgs(tools.read, { path: "a", offset: "ten" })).toThrow(/offset: must be number/);
		expect(() => validateArgs(tools.grep, { pattern: "a", ignoreCase: { yes: true } })).toThrow(
			/ignoreCase: must be boolean/,
		);
		expect(await errorOf(run(tools.read, { path: "a.txt", limit: "5" }))).toBe(
			'Invalid arguments for read: "limit" must be a number, got string.',
		);
		expect(await errorOf(run(tools.grep, { pattern: "a", literal: "yes" }))).toBe(
			'Invalid arguments for grep: "literal" must be a boolean, got string.',
		);
	});

	it("accepts values the validator coerces, e.g. a numeric path, and treats them as text", async () => {
		const tools = createAllTools(tempDir());
		const coerced = validateArgs(tools.read, { path: 123, limit: "5" });
		expect(coerced).toEqual({ path: "123", limit: 5 });
		expect(await errorOf(run(tools.read, coerced))).toMatch(/^ENOENT: no such file or directory, access '.*\/123'$/);
	});

	it("refuses arguments that are not an object at all", async () => {
		const tools = createAllTools(tempDir());
		expect(await errorOf(tools.write.execute("call", null as never))).toBe(
			'Invalid arguments for write: expected an object with a "path" field, got null.',
		);
	});
});
