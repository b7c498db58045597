// The built-in tools' schemas are validated by @agent/ai's own validator, without AJV; its answers must be
// AJV's to the letter (decision, coerced arguments, error lines). The reference is the same schema with an
// extra keyword the subset does not know, which sends it to AJV, which (strict: false) ignores the keyword.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Tool, validateToolArguments } from "@agent/ai";
import { createAllTools } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import { useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-schema-");

type Outcome = { accepted: unknown } | { refused: string };

function outcomeOf(tool: Tool, args: Record<string, unknown>): Outcome {
	try {
		return { accepted: validateToolArguments(tool, { type: "toolCall", id: "1", name: tool.name, arguments: args }) };
	} catch (error) {
		return { refused: (error as Error).message };
	}
}

/** Values of every JSON type, with strings and numbers that AJV coerces and ones it does not. */
const VALUES: unknown[] = ["", "ls -la", "5", "2.5", " 7 ", "1e3", "true", "false", "null", "abc", 0, 3, -1, 2.5, 1e21];
const anyValue = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom(...VALUES, true, false, null, [], ["x"], {}, { a: 1 }) },
	{ weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

function argumentsFor(tool: Tool): fc.Arbitrary<Record<string, unknown>> {
	const properties = Object.keys((tool.parameters as unknown as { properties: Record<string, unknown> }).properties);
	const known = fc.record(Object.fromEntries(properties.map((name) => [name, anyValue])), { requiredKeys: [] });
	const extra = fc.dictionary(fc.constantFrom("extra", "toString", "a/b"), anyValue, { maxKeys: 1 });
	return fc.tuple(known, extra).map(([own, more]) => ({ ...more, ...own }));
}

describe("built-in tool schemas validate as AJV does", () => {
	for (const [name, tool] of Object.entries(createAllTools("/"))) {
		it(name, () => {
			const reference: Tool = { ...tool, parameters: { ...tool.parameters, "x-reference": true } };
			const kinds = new Set<string>();
			fc.assert(
				fc.property(argumentsFor(tool), (args) => {
					const expected = outcomeOf(reference, args);
					expect(outcomeOf(tool, args)).toStrictEqual(expected);
					kinds.add(Object.keys(expected)[0] ?? "");
				}),
				{ numRuns: 400 },
			);
			expect([...kinds].sort()).toEqual(["accepted", "refused"]);
		});
	}
});

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

describe("built-in tools without AJV", () => {
	// Runs the built package (`pnpm build`), as the end-to-end tests do, in a process of its own.
	it("validating a call of each built-in tool loads no AJV module", { timeout: 60_000 }, async () => {
		const script = `
			const { createAllTools } = await import("@agent/coding-agent");
			const ai = await import("@agent/ai");
			const tools = Object.values(createAllTools(${JSON.stringify(tempDir())}));
			await ai.prepareToolValidation(tools);
			const refused = tools.map((tool) => {
				try { ai.validateToolArguments(tool, { type: "toolCall", id: "1", name: tool.name, arguments: {} }); return ""; }
				catch (error) { return error.message.split("\\n")[1]; }
			});
			const { createRequire } = await import("node:module");
			const required = Object.keys(createRequire(process.cwd() + "/").cache);
			console.log(JSON.stringify({ refused, ajv: required.filter((path) => /[\\\\/]ajv(-formats)?[\\\\/]/.test(path)) }));
		`;
		const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: PACKAGE_DIR });
		const result = JSON.parse(stdout) as { refused: string[]; ajv: string[] };
		expect(result.refused).toContain("  - command: must have required property 'command'");
		expect(result.ajv).toEqual([]);
	});
});
