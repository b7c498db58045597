// Differential testing of `validateToolArguments` against AJV configured as `src/utils/validation.ts` configures
// it: the same decision, the same coerced arguments and the same error message, for generated arguments.
import { createRequire } from "node:module";
import { isDeepStrictEqual } from "node:util";
import type { Ajv, ValidateFunction } from "ajv";
import fc from "../../../../scripts/fast-check.js";
import { validateToolArguments } from "../../src/index.js";
import type { Tool } from "../../src/types.js";

/** What a validation did: accepted (with the coerced copy), refused with a message, or threw otherwise. */
export type ValidationOutcome = { accepted: unknown } | { refused: string } | { threw: string };

const require = createRequire(import.meta.url);
let reference: Ajv | undefined;

function referenceAjv(): Ajv {
	if (reference) return reference;
	const AjvClass = require("ajv").default as typeof Ajv;
	const addFormats = require("ajv-formats").default as (ajv: Ajv) => Ajv;
	reference = new AjvClass({ allErrors: true, strict: false, coerceTypes: true });
	addFormats(reference);
	return reference;
}

const TOOL_NAME = "probe";

function refusal(lines: string[], args: unknown): string {
	return `Validation failed for tool "${TOOL_NAME}":\n${lines.join("\n")}\n\nReceived arguments:\n${JSON.stringify(args, null, 2)}`;
}

/** AJV's outcome, worded as `validateToolArguments` words it. */
export function referenceOutcome(schema: unknown, args: Record<string, unknown>): ValidationOutcome {
	let validate: ValidateFunction;
	try {
		validate = referenceAjv().compile(schema as object);
	} catch (error) {
		return { threw: (error as Error).message };
	}
	const data = structuredClone(args);
	if (validate(data)) return { accepted: data };
	const lines = (validate.errors ?? []).map((error) => {
		const missing = (error.params as { missingProperty?: string }).missingProperty;
		const path = error.instancePath ? error.instancePath.replace(/^\//, "") : (missing ?? "root");
		return `  - ${path}: ${error.message ?? "is invalid"}`;
	});
	return { refused: refusal(lines, args) };
}

export function ourOutcome(schema: unknown, args: Record<string, unknown>): ValidationOutcome {
	const tool = { name: TOOL_NAME, description: "", parameters: schema } as Tool;
	try {
		return { accepted: validateToolArguments(tool, { type: "toolCall", id: "1", name: TOOL_NAME, arguments: args }) };
	} catch (error) {
		const message = (error as Error).message;
		return message.startsWith("Validation failed") ? { refused: message } : { threw: message };
	}
}

/** Values that probe coercion and bounds: numeric, boolean-like and empty strings, edge numbers, containers. */
const PROBES: unknown[] = [
	"",
	" ",
	"5",
	"-3",
	"2.5",
	" 7 ",
	"0x1A",
	"1e3",
	"Infinity",
	"NaN",
	"true",
	"false",
	"null",
	"0",
	"1",
	"abc",
	"abcdefgh",
	"😀😀",
	"a/b~c",
	"2024-01-02T03:04:05Z",
	"https://example.com/x",
	"me@example.com",
	0,
	1,
	-1,
	2.5,
	3,
	5,
	10,
	15,
	100,
	2147483648,
	1e21,
	-0,
	true,
	false,
	null,
	[],
	[1],
	["2", true],
	[null, "x", 3],
	{},
	{ a: 1 },
	{ oldText: "a", newText: "b" },
];

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom(...PROBES) },
	{ weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function merged(values: unknown[]): unknown {
	return values.every(isRecord) ? Object.assign({}, ...values) : values[0];
}

/** Keys of extra properties: plain, inherited from Object.prototype, and needing JSON Pointer escapes. */
const EXTRA_KEYS = ["extra", "b", "toString", "x/y", "t~1"];

function objectFor(schema: Record<string, unknown>, depth: number): fc.Arbitrary<unknown> {
	const properties = isRecord(schema.properties) ? schema.properties : {};
	const known = fc.record(
		Object.fromEntries(Object.keys(properties).map((key) => [key, valueFor(properties[key], depth + 1)])),
		{ requiredKeys: [] },
	);
	const extra = fc.dictionary(fc.constantFrom(...EXTRA_KEYS), anyValue, { maxKeys: 2 });
	return fc
		.tuple(known, fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extra }))
		.map(([own, more]) => ({ ...more, ...own }));
}

/** Values shaped like `schema` (so that some are valid), mixed with arbitrary JSON and probe values. */
export function valueFor(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
	if (!isRecord(schema) || depth > 4) return anyValue;
	const shaped: fc.Arbitrary<unknown>[] = [];
	if (schema.const !== undefined) shaped.push(fc.constant(schema.const));
	if (Array.isArray(schema.enum) && schema.enum.length > 0) shaped.push(fc.constantFrom(...schema.enum));
	for (const key of ["anyOf", "oneOf"]) {
		const branches = schema[key];
		if (Array.isArray(branches)) shaped.push(...branches.map((branch) => valueFor(branch, depth + 1)));
	}
	if (Array.isArray(schema.allOf)) {
		shaped.push(fc.tuple(...schema.allOf.map((branch) => valueFor(branch, depth + 1))).map(merged));
	}
	if (isRecord(schema.properties) || schema.type === "object") shaped.push(objectFor(schema, depth));
	if (isRecord(schema.items)) shaped.push(fc.array(valueFor(schema.items, depth + 1), { maxLength: 4 }));
	if (shaped.length === 0) return anyValue;
	return fc.oneof({ weight: 1, arbitrary: anyValue }, ...shaped.map((arbitrary) => ({ weight: 4, arbitrary })));
}

/** Argument objects for a tool with `schema`. */
export function argumentsFor(schema: unknown): fc.Arbitrary<Record<string, unknown>> {
	return valueFor(schema).map((value) => (isRecord(value) ? value : { value }));
}

/** How many generated cases each kind of outcome had; a comparison that saw only one kind proves little. */
export interface OutcomeCounts {
	accepted: number;
	coerced: number;
	refused: number;
}

/** Compares our outcome with AJV's for `runs` generated argument objects; throws on the first difference. */
export function compareWithAjv(schema: unknown, runs = 300): OutcomeCounts {
	const counts: OutcomeCounts = { accepted: 0, coerced: 0, refused: 0 };
	fc.assert(
		fc.property(argumentsFor(schema), (args) => {
			const expected = referenceOutcome(schema, args);
			const actual = ourOutcome(schema, args);
			if (!isDeepStrictEqual(actual, expected)) {
				throw new Error(`differs from AJV\nexpected ${show(expected)}\nactual   ${show(actual)}`);
			}
			if ("refused" in expected) counts.refused++;
			else if ("accepted" in expected && isDeepStrictEqual(expected.accepted, args)) counts.accepted++;
			else counts.coerced++;
		}),
		// FC_RUNS (see vitest.setup.ts) raises the count when exploring.
		{ numRuns: Math.max(runs, Number(process.env.FC_RUNS ?? 0)) },
	);
	return counts;
}

function show(outcome: ValidationOutcome): string {
	return JSON.stringify(outcome, (_key, value) => (Object.is(value, -0) ? "-0" : value));
}
