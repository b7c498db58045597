import { describe, expect, it } from "vitest";
import { prepareToolValidation, Type, validateToolArguments } from "../src/index.js";
import type { Tool, ToolCall } from "../src/types.js";

// Its own file: the validator is loaded once per process, and here it must be loaded by the preload.
const call = (name: string, args: Record<string, unknown>): ToolCall => ({
	type: "toolCall",
	id: "1",
	name,
	arguments: args,
});

describe("prepareToolValidation", () => {
	it("loads the validator once, however often it is called, and validation then behaves as without it", async () => {
		const first = prepareToolValidation();
		expect(prepareToolValidation()).toBe(first);
		await first;
		const tool: Tool = { name: "bash", description: "", parameters: Type.Object({ timeout: Type.Number() }) };
		expect(validateToolArguments(tool, call("bash", { timeout: "5" }))).toEqual({ timeout: 5 });
		expect(() => validateToolArguments(tool, call("bash", {}))).toThrow("  - timeout: must have required property");
	});

	it("still checks schemas against the JSON Schema meta-schema", async () => {
		await prepareToolValidation();
		const broken = {
			name: "broken",
			description: "",
			parameters: { type: "object", minProperties: "x" },
		} as unknown as Tool;
		expect(() => validateToolArguments(broken, call("broken", {}))).toThrow("schema is invalid");
	});
});
