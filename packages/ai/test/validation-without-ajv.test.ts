// A process whose tools all have schemas of the subset never loads AJV (~200 ms of CPU): neither the first
// validation nor `prepareToolValidation(tools)` does. Checked in a fresh process, by the modules it imports
// and the CommonJS modules it requires.
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { AI_SOURCE_ENTRY, traceScript } from "./helpers/module-trace.js";

/** Validates a valid and an invalid call for a tool with `schema` (an expression over TypeBox's `Type`). */
function validationScript(schema: string): string {
	return `
		const ai = await import(${JSON.stringify(pathToFileURL(AI_SOURCE_ENTRY).href)});
		const { Type } = ai;
		const tool = { name: "bash", description: "", parameters: ${schema} };
		const call = (args) => ({ type: "toolCall", id: "1", name: "bash", arguments: args });
		await ai.prepareToolValidation([tool]);
		const accepted = ai.validateToolArguments(tool, call({ command: "ls", timeout: "5" }));
		let refused = "";
		try { ai.validateToolArguments(tool, call({ timeout: "soon" })); } catch (error) { refused = error.message; }
		const { createRequire } = await import("node:module");
		const required = Object.keys(createRequire(process.cwd() + "/").cache);
		console.log(JSON.stringify({ accepted, refused, required }));
	`;
}

const BASH_SCHEMA = "Type.Object({ command: Type.String(), timeout: Type.Optional(Type.Number()) })";

async function validateInFreshProcess(schema: string) {
	const { loaded, output } = await traceScript(validationScript(schema));
	const result = JSON.parse(output) as { accepted: unknown; refused: string; required: string[] };
	const ajvModules = [...loaded, ...result.required].filter((url) =>
		/[/\\]node_modules[/\\]ajv(-formats)?[/\\]/.test(url),
	);
	return { ...result, ajvModules };
}

describe("tool validation without AJV", () => {
	it("validates a schema of the subset without loading AJV", { timeout: 60_000 }, async () => {
		const result = await validateInFreshProcess(BASH_SCHEMA);
		expect(result.accepted).toEqual({ command: "ls", timeout: 5 });
		expect(result.refused).toContain(
			"  - command: must have required property 'command'\n  - timeout: must be number\n",
		);
		expect(result.ajvModules).toEqual([]);
	});

	it("loads AJV for a schema outside the subset, so the check above can see it", { timeout: 60_000 }, async () => {
		const result = await validateInFreshProcess(
			"Type.Object({ command: Type.String(), timeout: Type.Optional(Type.Number()) }, { patternProperties: { '^x': {} } })",
		);
		expect(result.accepted).toEqual({ command: "ls", timeout: 5 });
		expect(result.ajvModules.length).toBeGreaterThan(0);
	});
});
