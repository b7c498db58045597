// The built-in tools (and the `mcp` tool) build their parameter schemas with LeanType, so a run without
// extensions never loads TypeBox. Each schema must be exactly what TypeBox's Type builds from the same
// description: the same JSON for the model, the same TypeBox symbols for TypeBox's own checks.
import { type TSchema, Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { createMcpTool } from "../../src/core/mcp/search-tool.js";
import { bashSchema } from "../../src/core/tools/bash.js";
import { editSchema } from "../../src/core/tools/edit.js";
import { findSchema } from "../../src/core/tools/find.js";
import { grepSchema } from "../../src/core/tools/grep.js";
import { lsSchema } from "../../src/core/tools/ls.js";
import { readSchema } from "../../src/core/tools/read.js";
import { writeSchema } from "../../src/core/tools/write.js";

const Kind = Symbol.for("TypeBox.Kind");
const OptionalKind = Symbol.for("TypeBox.Optional");
type Schema = TSchema & Record<string | symbol, unknown>;

/** The schema's options: its string keys other than the structural ones. */
function optionsOf(schema: Schema, structural: string[]): Record<string, unknown> | undefined {
	const entries = Object.entries(schema).filter(([key]) => !structural.includes(key));
	return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** Builds the same schema again with TypeBox, from its kind, children and options. */
function withTypeBox(schema: Schema): TSchema {
	const kind = schema[Kind];
	let built: TSchema;
	if (kind === "Object") {
		const properties = schema.properties as Record<string, Schema>;
		const rebuilt = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, withTypeBox(value)]));
		built = Type.Object(rebuilt, optionsOf(schema, ["type", "required", "properties"]));
	} else if (kind === "String") built = Type.String(optionsOf(schema, ["type"]));
	else if (kind === "Number") built = Type.Number(optionsOf(schema, ["type"]));
	else if (kind === "Boolean") built = Type.Boolean(optionsOf(schema, ["type"]));
	else if (kind === "Unknown") built = Type.Unknown(optionsOf(schema, []));
	else if (kind === "Record") {
		const [pattern, value] = Object.entries(schema.patternProperties as Record<string, Schema>)[0] ?? [];
		expect(pattern).toBe("^(.*)$");
		built = Type.Record(
			Type.String(),
			withTypeBox(value as Schema),
			optionsOf(schema, ["type", "patternProperties"]) ?? {},
		);
	} else throw new Error(`no rebuild for kind ${String(kind)}`);
	return schema[OptionalKind] === "Optional" ? Type.Optional(built) : built;
}

/** Every own key, symbols included, recursively, in order. */
function shape(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(shape);
	if (value === null || typeof value !== "object") return value;
	return Reflect.ownKeys(value).map((key) => [String(key), shape((value as Record<string | symbol, unknown>)[key])]);
}

const mcpTool = createMcpTool(["server"], {
	waitForStartingServers: async () => {},
	entries: () => [],
	unavailable: () => [],
	call: async () => ({ content: [], details: undefined }) as never,
});

const schemas: Record<string, TSchema> = {
	bash: bashSchema,
	edit: editSchema,
	find: findSchema,
	grep: grepSchema,
	ls: lsSchema,
	read: readSchema,
	write: writeSchema,
	mcp: mcpTool.parameters,
};

describe("the built-in tools' parameter schemas", () => {
	for (const [name, schema] of Object.entries(schemas)) {
		it(`${name}: identical to TypeBox's`, () => {
			const typebox = withTypeBox(schema as Schema);
			expect(shape(schema)).toEqual(shape(typebox));
			expect(JSON.stringify(schema)).toBe(JSON.stringify(typebox));
		});
	}
});
