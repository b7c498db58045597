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

describe("validation error paths", () => {
	const editTool = {
		name: "edit",
		description: "Edit a file",
		parameters: Type.Object({
			path: Type.String(),
			edits: Type.Array(Type.Object({ oldText: Type.String(), newText: Type.String() })),
			url: Type.Optional(Type.String({ format: "uri" })),
		}),
	};
	const editCall = (args: Record<string, unknown>): ToolCall => ({
		type: "toolCall",
		id: "e",
		name: "edit",
		arguments: args,
	});

	it("names nested fields by their slash path and nested missing properties by their parent", () => {
		expect(() =>
			validateToolArguments(
				editTool,
				editCall({ path: "a", edits: [{ oldText: {}, newText: "b" }, { oldText: "x" }] }),
			),
		).toThrow(
			[
				'Validation failed for tool "edit":',
				"  - edits/0/oldText: must be string",
				"  - edits/1: must have required property 'newText'",
			].join("\n"),
		);
	});

	it("reports format violations from ajv-formats", () => {
		expect(() => validateToolArguments(editTool, editCall({ path: "a", edits: [], url: "not a uri" }))).toThrow(
			'  - url: must match format "uri"',
		);
	});

	it("uses root for violations of the arguments object itself", () => {
		const strict = {
			name: "strict",
			description: "",
			parameters: Type.Object({ a: Type.Optional(Type.String()) }, { additionalProperties: false }),
		};
		expect(() =>
			validateToolArguments(strict, { type: "toolCall", id: "s", name: "strict", arguments: { b: 1 } }),
		).toThrow('Validation failed for tool "strict":\n  - root: must NOT have additional properties\n');
	});

	it("prints the arguments as received, not as partly coerced", () => {
		const received = { path: 5, edits: "none" };
		expect(() => validateToolArguments(editTool, editCall(received))).toThrow(
			`\n\nReceived arguments:\n${JSON.stringify(received, null, 2)}`,
		);
		expect(received.path).toBe(5);
	});
});

describe("validation results", () => {
	it("returns a copy, never the call's own arguments object", () => {
		const original = call({ path: "a.txt" });
		const validated = validateToolArguments(tool, original);
		expect(validated).toEqual({ path: "a.txt" });
		expect(validated).not.toBe(original.arguments);
	});

	it("coerces booleans and numbers in string fields", () => {
		const flags = {
			name: "flags",
			description: "",
			parameters: Type.Object({ all: Type.Boolean(), label: Type.String() }),
		};
		expect(
			validateToolArguments(flags, {
				type: "toolCall",
				id: "f",
				name: "flags",
				arguments: { all: "true", label: 7 },
			}),
		).toEqual({ all: true, label: "7" });
	});

	it("treats missing arguments as an empty object", () => {
		const optional = { name: "opt", description: "", parameters: Type.Object({ a: Type.Optional(Type.String()) }) };
		const noArguments = { type: "toolCall", id: "o", name: "opt" } as unknown as ToolCall;
		expect(validateToolArguments(optional, noArguments)).toEqual({});
	});

	it("validateToolCall validates against the tool with the call's name", () => {
		const other = { name: "write", description: "", parameters: Type.Object({ content: Type.String() }) };
		expect(validateToolCall([other, tool], call({ path: "x", limit: "3" }))).toEqual({ path: "x", limit: 3 });
		expect(() => validateToolCall([other, tool], { ...call({}), name: "write" })).toThrow(
			"  - content: must have required property 'content'",
		);
	});
});
