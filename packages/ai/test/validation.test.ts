import { describe, expect, it } from "vitest";
import { StringEnum, Type, validateToolArguments, validateToolCall } from "../src/index.js";
import type { ToolCall } from "../src/types.js";

const tool = {
	name: "read",
	description: "Read a file",
	parameters: Type.Object({
		path: Type.String(),
		limit: Type.Optional(Type.Number()),
		mode: Type.Optional(StringEnum(["a", "b"] as const)),
	}),
};
const call = (args: Record<string, unknown>): ToolCall => ({
	type: "toolCall",
	id: "1",
	name: "read",
	arguments: args,
});

describe("validateToolArguments", () => {
	it("coerces numeric strings on a copy and leaves the original untouched", () => {
		const original = call({ path: "a.txt", limit: "5" });
		expect(validateToolArguments(tool, original)).toEqual({ path: "a.txt", limit: 5 });
		expect(original.arguments.limit).toBe("5");
	});

	it("lists every violation and the received arguments", () => {
		expect(() => validateToolArguments(tool, call({ limit: "many", mode: "c" }))).toThrow(
			[
				'Validation failed for tool "read":',
				"  - path: must have required property 'path'",
				"  - limit: must be number",
				"  - mode: must be equal to one of the allowed values",
				"",
				"Received arguments:",
				JSON.stringify({ limit: "many", mode: "c" }, null, 2),
			].join("\n"),
		);
	});

	it("validateToolCall names an unknown tool", () => {
		expect(() => validateToolCall([tool], { ...call({}), name: "write" })).toThrow('Tool "write" not found');
	});
});
