// Tool schemas in the subset `src/utils/schema-subset.ts` reads are validated without AJV; the results must be
// AJV's, to the letter. Each schema here is compared with AJV (our configuration) on generated arguments.
import { describe, expect, it } from "vitest";
import { StringEnum, Type } from "../src/index.js";
import { isValidatedWithoutAjv } from "../src/utils/validation.js";
import { compareWithAjv, ourOutcome, referenceOutcome } from "./helpers/validation-differential.js";

const raw = (schema: Record<string, unknown>) => Type.Unsafe<unknown>(schema);

/** Schemas of the subset, one or more per supported keyword, TypeBox-built where TypeBox builds them. */
const SUBSET_SCHEMAS: Record<string, unknown> = {
	"built-in bash": Type.Object({
		command: Type.String({ description: "Bash command to execute" }),
		timeout: Type.Optional(Type.Number({ description: "Timeout in seconds" })),
	}),
	"built-in grep": Type.Object({
		pattern: Type.String(),
		path: Type.Optional(Type.String()),
		ignoreCase: Type.Optional(Type.Boolean()),
		context: Type.Optional(Type.Number()),
		limit: Type.Optional(Type.Number()),
	}),
	"string lengths and pattern": Type.Object({
		name: Type.String({ minLength: 2, maxLength: 5 }),
		slug: Type.Optional(Type.String({ pattern: "^[a-z]+$" })),
		emoji: Type.Optional(Type.String({ maxLength: 1 })),
		quoted: Type.Optional(Type.String({ pattern: '^\\d+"?\\/?$' })),
	}),
	"number bounds": Type.Object({
		n: Type.Number({ minimum: 0, maximum: 10 }),
		i: Type.Optional(Type.Integer({ exclusiveMinimum: 0, exclusiveMaximum: 100, multipleOf: 5 })),
		f: Type.Optional(Type.Number({ multipleOf: 0.5 })),
	}),
	"booleans and null": Type.Object({ flag: Type.Boolean(), nothing: Type.Optional(Type.Null()) }),
	"string enum and literals": Type.Object({
		mode: StringEnum(["fast", "slow"] as const, { default: "fast" }),
		kind: Type.Optional(Type.Literal("x")),
		three: Type.Optional(Type.Literal(3)),
		mixed: Type.Optional(raw({ enum: ["1", 1, true, null] })),
		falsy: Type.Optional(raw({ const: null })),
	}),
	"unions of literals and types": Type.Object({
		choice: Type.Union([Type.Literal("a"), Type.Literal(2)]),
		either: Type.Optional(Type.Union([Type.String(), Type.Number()])),
		numberFirst: Type.Optional(Type.Union([Type.Number({ minimum: 10 }), Type.String()])),
		nullable: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
	}),
	"discriminated union of objects": Type.Object({
		shape: Type.Union([
			Type.Object({ kind: Type.Literal("circle"), radius: Type.Number() }),
			Type.Object({ kind: Type.Literal("square"), side: Type.Number() }, { additionalProperties: false }),
		]),
	}),
	"oneOf, with AJV's count of passing branches": Type.Object({
		one: raw({ oneOf: [{ type: "number" }, { type: "integer" }, { type: "string", minLength: 1 }] }),
		loose: Type.Optional(raw({ oneOf: [{}, { type: "string" }] })),
	}),
	"anyOf with a branch that accepts anything": Type.Object({
		value: raw({ anyOf: [{ type: "number" }, { description: "anything" }] }),
	}),
	intersection: Type.Intersect([
		Type.Object({ a: Type.String() }),
		Type.Object({ b: Type.Number(), c: Type.Optional(Type.Boolean()) }),
	]),
	"type lists": Type.Object({
		stringOrNumber: raw({ type: ["string", "number"] }),
		numberOrString: Type.Optional(raw({ type: ["number", "string"] })),
		integerOrNull: Type.Optional(raw({ type: ["integer", "null"] })),
		booleanOrString: Type.Optional(raw({ type: ["boolean", "string"] })),
		nullBooleanNumber: Type.Optional(raw({ type: ["null", "boolean", "number"] })),
		container: Type.Optional(raw({ type: ["object", "array"], minItems: 1, minProperties: 1 })),
		objectOrNull: Type.Optional(raw({ type: ["object", "null"], properties: { x: { type: "number" } } })),
	}),
	arrays: Type.Object({
		list: Type.Array(Type.Number(), { minItems: 1, maxItems: 3 }),
		tags: Type.Optional(Type.Array(Type.String())),
		flags: Type.Optional(Type.Array(Type.Boolean(), { maxItems: 0 })),
		anything: Type.Optional(Type.Array(Type.Any())),
	}),
	"array of closed objects": Type.Object({
		path: Type.String(),
		edits: Type.Array(
			Type.Object({ oldText: Type.String(), newText: Type.String() }, { additionalProperties: false }),
		),
	}),
	"additional properties by schema": Type.Object(
		{ a: Type.Optional(Type.String()) },
		{ additionalProperties: Type.Number({ maximum: 5 }) },
	),
	"closed object with awkward names": Type.Object(
		{
			"x/y": Type.Optional(Type.Number()),
			"t~1": Type.Optional(Type.Boolean()),
			toString: Type.Optional(Type.String()),
		},
		{ additionalProperties: false, minProperties: 1, maxProperties: 2 },
	),
	"required names inherited from Object.prototype": raw({
		type: "object",
		properties: { value: { type: "string" } },
		required: ["constructor", "value"],
	}),
	"object checks without a type": raw({ properties: { n: { type: "number" } }, required: ["n"] }),
	"deferred type errors, after union errors": raw({
		type: "object",
		properties: { a: { type: "string" } },
		anyOf: [{ required: ["a"] }, { required: ["b"] }],
		oneOf: [{ required: ["a"] }, { minProperties: 2 }],
	}),
	"nested type errors and coercions": raw({
		type: "object",
		properties: {
			inner: { type: "object", properties: { deep: { type: "array", items: { type: "integer" } } } },
			untyped: { minimum: 3, maxLength: 2, maxItems: 1, required: ["z"] },
		},
	}),
	"formats of ajv-formats": Type.Object({
		when: Type.Optional(Type.String({ format: "date-time" })),
		url: Type.Optional(Type.String({ format: "uri" })),
		mail: Type.Optional(Type.String({ format: "email" })),
		small: Type.Optional(Type.Number({ format: "int32" })),
		secret: Type.Optional(Type.String({ format: "password" })),
	}),
	"draft-07 $schema and annotations": raw({
		$schema: "http://json-schema.org/draft-07/schema#",
		type: "object",
		title: "t",
		properties: { a: { type: "string", examples: ["x"], readOnly: false, deprecated: true } },
	}),
	"empty object": Type.Object({}),
	"empty schema": {},
};
/** Subset schemas that accept every argument object. */
const ACCEPTING_ALL = new Set(["empty object", "empty schema"]);

/** Schemas AJV must keep handling, each for its own reason. */
const OUTSIDE_SCHEMAS: Record<string, unknown> = {
	"record (patternProperties)": Type.Record(Type.String(), Type.Number()),
	tuple: Type.Object({ pair: Type.Tuple([Type.String(), Type.Number()]) }),
	not: Type.Object({ value: Type.Not(Type.String()) }),
	"$ref to definitions": raw({
		type: "object",
		definitions: { n: { type: "number" } },
		properties: { n: { $ref: "#/definitions/n" } },
	}),
	// Built from JSON: a `then` key in an object literal is taken for a thenable.
	"if/then/else": raw(
		JSON.parse('{ "if": { "required": ["a"] }, "then": { "required": ["b"] }, "else": { "required": ["c"] } }'),
	),
	dependencies: raw({ type: "object", dependencies: { a: ["b"] } }),
	uniqueItems: Type.Object({ list: Type.Array(Type.Number(), { uniqueItems: true }) }),
	nullable: raw({ type: "object", properties: { a: { type: "string", nullable: true } } }),
	"unknown keyword": raw({ type: "object", properties: { a: { type: "string", "x-kind": "path" } } }),
	"unknown format": Type.Object({ a: Type.String({ format: "no-such-format" }) }),
	$id: raw({ $id: "urn:probe", type: "object", properties: { a: { type: "number" } } }),
	"a bound AJV coerces in the schema": raw({ type: "object", properties: { a: { type: "string", maxLength: "2" } } }),
	"invalid type name": raw({ type: "object", properties: { a: { type: "strin" } } }),
	"duplicate required": raw({ type: "object", required: ["a", "a"] }),
	"empty enum": raw({ type: "object", properties: { a: { enum: [] } } }),
	"pattern AJV rejects": Type.Object({ a: Type.String({ pattern: "a\\Z" }) }),
	"object-valued const": Type.Object({ point: raw({ const: { x: 1 } }) }),
	"enum with an array": Type.Object({ value: raw({ enum: ["a", [1]] }) }),
	"false subschema": raw({ type: "object", properties: { a: false } }),
};

describe("schemas of the subset validate exactly as AJV does", () => {
	const totals = { accepted: 0, coerced: 0, refused: 0 };
	for (const [name, schema] of Object.entries(SUBSET_SCHEMAS)) {
		it(name, () => {
			expect(isValidatedWithoutAjv(schema)).toBe(true);
			const counts = compareWithAjv(schema);
			if (ACCEPTING_ALL.has(name)) expect(counts.refused).toBe(0);
			else expect(counts.refused).toBeGreaterThan(0);
			totals.accepted += counts.accepted;
			totals.coerced += counts.coerced;
		});
	}
	it("the generated arguments include accepted, coerced and refused ones", () => {
		expect(totals.accepted).toBeGreaterThan(100);
		expect(totals.coerced).toBeGreaterThan(100);
	});
});

describe("schemas outside the subset go to AJV", () => {
	for (const [name, schema] of Object.entries(OUTSIDE_SCHEMAS)) {
		it(name, () => {
			expect(isValidatedWithoutAjv(schema)).toBe(false);
			compareWithAjv(schema, 40);
		});
	}
	it("an invalid schema throws AJV's error", () => {
		const invalid = { type: "object", properties: { b: { type: "strin" } } };
		const outcome = ourOutcome(invalid, { b: "x" });
		expect(outcome).toEqual(referenceOutcome(invalid, { b: "x" }));
		expect(outcome).toMatchObject({ threw: expect.stringContaining("schema is invalid") });
	});
});

describe("AJV's coercion rules, as the subset applies them", () => {
	const outcome = (schema: unknown, args: Record<string, unknown>) => ourOutcome(schema, args);
	it("a failed anyOf branch's coercion stays for the next branch", () => {
		const schema = Type.Object({ v: Type.Union([Type.Number({ minimum: 10 }), Type.String()]) });
		expect(outcome(schema, { v: "5" })).toEqual({ accepted: { v: "5" } });
		expect(outcome(schema, { v: true })).toEqual({ accepted: { v: "1" } });
	});
	it("a type list coerces to its first type that takes the value", () => {
		expect(outcome(raw({ properties: { v: { type: ["number", "string"] } } }), { v: true })).toEqual({
			accepted: { v: 1 },
		});
		expect(outcome(raw({ properties: { v: { type: ["string", "number"] } } }), { v: true })).toEqual({
			accepted: { v: "true" },
		});
	});
	it("array items are coerced in place, objects and arrays never", () => {
		const schema = Type.Object({ list: Type.Array(Type.Integer()) });
		expect(outcome(schema, { list: ["1", true, null] })).toEqual({ accepted: { list: [1, 1, 0] } });
		expect(outcome(schema, { list: "1" })).toMatchObject({
			refused: expect.stringContaining("  - list: must be array"),
		});
	});
});
