// Reads a tool's JSON schema into the form `subset-validator.ts` interprets, when the schema only uses the
// part of draft-07 that tool schemas use in practice (TypeBox's objects, arrays, unions, intersections, enums,
// literals and bounds). Anything else — `$ref`, `patternProperties`, `if`, `not`, tuples, unknown keywords,
// keyword values AJV would reject or coerce while checking the schema against the meta-schema — answers
// `undefined`, and the schema goes to AJV as before. The subset must validate exactly as our AJV set-up
// (`allErrors`, `coerceTypes`, ajv-formats): keyword order, messages and coercion follow AJV 8's generated code.

export const JSON_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** A keyword that fails for some values of one JSON type, e.g. `minimum` or `maxLength`. */
export interface BoundCheck<T> {
	readonly fails: (value: T) => boolean;
	readonly message: string;
}

export interface ObjectKeywords {
	readonly bounds: readonly BoundCheck<Record<string, unknown>>[];
	readonly required: readonly string[];
	/** `false`, a schema for the other properties, or `undefined` when any is allowed. */
	readonly additional: false | SubsetSchema | undefined;
	/** The names `properties` declares, which `additionalProperties` leaves alone. */
	readonly declared: readonly string[];
	/** The declared properties whose schema has something to check, in declaration order. */
	readonly properties: readonly (readonly [string, SubsetSchema])[];
}

export interface ArrayKeywords {
	readonly bounds: readonly BoundCheck<unknown[]>[];
	readonly items: SubsetSchema | undefined;
}

/** A schema of the subset. A subschema that accepts everything unchanged (`{}`, `true`) is left out. */
export interface SubsetSchema {
	/** `type` as written; empty when absent. */
	readonly types: readonly JsonType[];
	/** AJV's text for a type error: `must be ${typeText}`. */
	readonly typeText: string;
	/**
	 * Whether the type is checked (and coerced) before the other keywords. AJV defers the check of a single
	 * `object` or `array` type that has keywords of that type to the end of that type's keywords.
	 */
	readonly typeFirst: boolean;
	readonly constant?: { readonly value: unknown };
	readonly enumValues?: readonly unknown[];
	readonly anyOf?: readonly SubsetSchema[];
	/** `undefined` for a branch that accepts everything. */
	readonly oneOf?: readonly (SubsetSchema | undefined)[];
	readonly allOf?: readonly SubsetSchema[];
	readonly number?: readonly BoundCheck<number>[];
	readonly string?: readonly BoundCheck<string>[];
	readonly array?: ArrayKeywords;
	readonly object?: ObjectKeywords;
}

/** A value check of the format a schema names, or `undefined` for a format our AJV set-up does not know. */
export type FormatLookup = (name: string) => FormatCheck | undefined;
export interface FormatCheck {
	readonly type: "number" | "string";
	readonly test: (value: never) => boolean;
}

/** Keywords that only annotate, and the JSON type the draft-07 meta-schema wants for each (`any`: no check). */
const ANNOTATIONS: Record<string, "string" | "boolean" | "array" | "any"> = {
	title: "string",
	description: "string",
	default: "any",
	examples: "array",
	readOnly: "boolean",
	writeOnly: "any",
	deprecated: "any",
	contentMediaType: "string",
	contentEncoding: "string",
};

const NUMBER_KEYWORDS = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"] as const;
const STRING_KEYWORDS = ["maxLength", "minLength", "pattern"] as const;
const ARRAY_KEYWORDS = ["maxItems", "minItems", "items"] as const;
const OBJECT_KEYWORDS = ["maxProperties", "minProperties", "required", "additionalProperties", "properties"] as const;
const OTHER_KEYWORDS = ["type", "const", "enum", "anyOf", "oneOf", "allOf", "format"] as const;
const SUPPORTED = new Set<string>([
	...NUMBER_KEYWORDS,
	...STRING_KEYWORDS,
	...ARRAY_KEYWORDS,
	...OBJECT_KEYWORDS,
	...OTHER_KEYWORDS,
]);
/** Draft-07 meta-schemas a root schema may name in `$schema`; AJV checks against the same one. */
const DRAFT_07 = new Set(["http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"]);
/** AJV switches `enum` and `required` to loops from this many entries; those are left to it. */
const AJV_LOOP_LENGTH = 200;

/** Thrown inside the reader when the schema leaves the subset; never escapes `readSubsetSchema`. */
class OutsideSubset extends Error {}

function outside(): never {
	throw new OutsideSubset();
}

/** The schema in the subset's form, or `undefined` when AJV must handle it. */
export function readSubsetSchema(schema: unknown, formats: FormatLookup): SubsetSchema | undefined {
	if (!isPlainObject(schema)) return undefined;
	try {
		return readSchema(schema, formats, true) ?? EMPTY;
	} catch (error) {
		if (error instanceof OutsideSubset) return undefined;
		throw error;
	}
}

const EMPTY: SubsetSchema = { types: [], typeText: "", typeFirst: true };

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}

/**
 * A `const`/`enum` value the subset compares with `===`, as AJV does for these. Objects and arrays (AJV
 * compares them with fast-deep-equal) and non-finite numbers are left to AJV.
 */
function isPrimitiveJson(value: unknown): boolean {
	return value === null || typeof value === "string" || typeof value === "boolean" || Number.isFinite(value);
}

function nonNegativeInteger(value: unknown): number {
	return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : outside();
}

function finiteNumber(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) ? value : outside();
}

/** A subschema: `true` or an object schema; `undefined` when it accepts everything unchanged. */
function readSubschema(schema: unknown, formats: FormatLookup): SubsetSchema | undefined {
	if (schema === true) return undefined;
	return isPlainObject(schema) ? readSchema(schema, formats, false) : outside();
}

function readSchemaList(list: unknown, formats: FormatLookup): (SubsetSchema | undefined)[] {
	if (!Array.isArray(list) || list.length === 0) outside();
	return list.map((schema) => readSubschema(schema, formats));
}

function checkKeywords(schema: Record<string, unknown>, isRoot: boolean): boolean {
	let hasRules = false;
	for (const key of Object.keys(schema)) {
		const value = schema[key];
		if (value === undefined || key === "__proto__") outside();
		if (SUPPORTED.has(key)) {
			hasRules = true;
			continue;
		}
		if (key === "$schema" && isRoot && typeof value === "string" && DRAFT_07.has(value)) continue;
		const annotation = ANNOTATIONS[key];
		if (annotation === undefined) outside();
		if (annotation === "array" ? !Array.isArray(value) : annotation !== "any" && typeof value !== annotation)
			outside();
	}
	return hasRules;
}

function readTypes(type: unknown): JsonType[] {
	if (type === undefined) return [];
	const types = Array.isArray(type) ? type : [type];
	if (types.length === 0 || new Set(types).size !== types.length) outside();
	return types.map((name) => (JSON_TYPES.includes(name) ? (name as JsonType) : outside()));
}

function readSchema(schema: Record<string, unknown>, formats: FormatLookup, isRoot: boolean): SubsetSchema | undefined {
	if (!checkKeywords(schema, isRoot)) return undefined;
	const types = readTypes(schema.type);
	const has = (keys: readonly string[]) => keys.some((key) => schema[key] !== undefined);
	const format = schema.format === undefined ? undefined : readFormat(schema.format, formats);
	const usesObject = has(OBJECT_KEYWORDS);
	const usesArray = has(ARRAY_KEYWORDS);
	// AJV's `coerceAndCheckDataType`: a lone type that cannot be coerced to and has keywords of its own
	// is checked inside its keyword group instead of up front.
	const single = types.length === 1 ? types[0] : undefined;
	const typeFirst = !((single === "object" && usesObject) || (single === "array" && usesArray));
	const number = readNumberChecks(schema, format);
	const string = readStringChecks(schema, format);
	return {
		types,
		typeText: types.join(","),
		typeFirst,
		...(schema.const !== undefined ? { constant: { value: readJsonValue(schema.const) } } : {}),
		...(schema.enum !== undefined ? { enumValues: readEnum(schema.enum) } : {}),
		...readCombinators(schema, formats),
		...(number.length > 0 ? { number } : {}),
		...(string.length > 0 ? { string } : {}),
		...(usesArray ? { array: readArrayKeywords(schema, formats) } : {}),
		...(usesObject ? { object: readObjectKeywords(schema, formats) } : {}),
	};
}

function readJsonValue(value: unknown): unknown {
	return isPrimitiveJson(value) ? value : outside();
}

function readEnum(values: unknown): unknown[] {
	if (!Array.isArray(values) || values.length === 0 || values.length >= AJV_LOOP_LENGTH) outside();
	return values.map(readJsonValue);
}

function readCombinators(
	schema: Record<string, unknown>,
	formats: FormatLookup,
): Pick<SubsetSchema, "anyOf" | "oneOf" | "allOf"> {
	const result: { anyOf?: SubsetSchema[]; oneOf?: (SubsetSchema | undefined)[]; allOf?: SubsetSchema[] } = {};
	if (schema.anyOf !== undefined) {
		const branches = readSchemaList(schema.anyOf, formats);
		// AJV skips an `anyOf` with a branch that accepts everything (no coercion in the other branches either).
		if (branches.every((branch) => branch !== undefined)) result.anyOf = branches as SubsetSchema[];
	}
	if (schema.oneOf !== undefined) result.oneOf = readSchemaList(schema.oneOf, formats);
	if (schema.allOf !== undefined) {
		result.allOf = readSchemaList(schema.allOf, formats).filter((branch) => branch !== undefined);
	}
	return result;
}

function readFormat(name: unknown, formats: FormatLookup): FormatCheck {
	if (typeof name !== "string") outside();
	return formats(name) ?? outside();
}

function formatCheck<T>(format: FormatCheck, name: string): BoundCheck<T> {
	const test = format.test as (value: T) => boolean;
	return { fails: (value) => !test(value), message: `must match format "${name}"` };
}

function readNumberChecks(schema: Record<string, unknown>, format: FormatCheck | undefined): BoundCheck<number>[] {
	const checks: BoundCheck<number>[] = [];
	const limit = (key: string, okText: string, fails: (value: number, limit: number) => boolean) => {
		if (schema[key] === undefined) return;
		const bound = finiteNumber(schema[key]);
		checks.push({
			fails: (value) => fails(value, bound) || Number.isNaN(value),
			message: `must be ${okText} ${bound}`,
		});
	};
	limit("maximum", "<=", (value, bound) => value > bound);
	limit("minimum", ">=", (value, bound) => value < bound);
	limit("exclusiveMaximum", "<", (value, bound) => value >= bound);
	limit("exclusiveMinimum", ">", (value, bound) => value <= bound);
	if (schema.multipleOf !== undefined) {
		const divisor = finiteNumber(schema.multipleOf);
		if (divisor <= 0) outside();
		// AJV's test, `parseInt` of the quotient's decimal text included.
		checks.push({
			fails: (value) => value / divisor !== Number.parseInt(String(value / divisor), 10),
			message: `must be multiple of ${divisor}`,
		});
	}
	if (format?.type === "number") checks.push(formatCheck(format, schema.format as string));
	return checks;
}

function readPattern(pattern: unknown): RegExp {
	// `\Z` makes ajv-formats' "regex" format reject the schema; leave any such pattern to AJV.
	if (typeof pattern !== "string" || pattern.includes("\\Z")) outside();
	try {
		new RegExp(pattern);
		return new RegExp(pattern, "u");
	} catch {
		return outside();
	}
}

function readStringChecks(schema: Record<string, unknown>, format: FormatCheck | undefined): BoundCheck<string>[] {
	const checks: BoundCheck<string>[] = [];
	if (schema.maxLength !== undefined) {
		const limit = nonNegativeInteger(schema.maxLength);
		checks.push({
			fails: (value) => codePoints(value) > limit,
			message: `must NOT have more than ${limit} characters`,
		});
	}
	if (schema.minLength !== undefined) {
		const limit = nonNegativeInteger(schema.minLength);
		checks.push({
			fails: (value) => codePoints(value) < limit,
			message: `must NOT have fewer than ${limit} characters`,
		});
	}
	if (schema.pattern !== undefined) {
		const regExp = readPattern(schema.pattern);
		checks.push({ fails: (value) => !regExp.test(value), message: `must match pattern "${schema.pattern}"` });
	}
	if (format?.type === "string") checks.push(formatCheck(format, schema.format as string));
	return checks;
}

/** A string's length as AJV counts it: a surrogate pair is one character. */
function codePoints(value: string): number {
	let count = 0;
	for (let index = 0; index < value.length; index++) {
		const code = value.charCodeAt(index);
		if (code >= 0xd800 && code <= 0xdbff && index + 1 < value.length) {
			if ((value.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
		}
		count++;
	}
	return count;
}

function readArrayKeywords(schema: Record<string, unknown>, formats: FormatLookup): ArrayKeywords {
	const bounds: BoundCheck<unknown[]>[] = [];
	if (schema.maxItems !== undefined) {
		const limit = nonNegativeInteger(schema.maxItems);
		bounds.push({ fails: (value) => value.length > limit, message: `must NOT have more than ${limit} items` });
	}
	if (schema.minItems !== undefined) {
		const limit = nonNegativeInteger(schema.minItems);
		bounds.push({ fails: (value) => value.length < limit, message: `must NOT have fewer than ${limit} items` });
	}
	// An array of schemas (a tuple) is outside the subset.
	if (Array.isArray(schema.items)) outside();
	return { bounds, items: schema.items === undefined ? undefined : readSubschema(schema.items, formats) };
}

function readRequired(required: unknown): string[] {
	if (!Array.isArray(required) || required.length >= AJV_LOOP_LENGTH) outside();
	if (!required.every((name) => typeof name === "string") || new Set(required).size !== required.length) outside();
	return required as string[];
}

function readObjectKeywords(schema: Record<string, unknown>, formats: FormatLookup): ObjectKeywords {
	const bounds: BoundCheck<Record<string, unknown>>[] = [];
	if (schema.maxProperties !== undefined) {
		const limit = nonNegativeInteger(schema.maxProperties);
		bounds.push({
			fails: (value) => Object.keys(value).length > limit,
			message: `must NOT have more than ${limit} properties`,
		});
	}
	if (schema.minProperties !== undefined) {
		const limit = nonNegativeInteger(schema.minProperties);
		bounds.push({
			fails: (value) => Object.keys(value).length < limit,
			message: `must NOT have fewer than ${limit} properties`,
		});
	}
	const declared = schema.properties === undefined ? {} : schema.properties;
	if (!isPlainObject(declared) || Object.hasOwn(declared, "__proto__")) outside();
	const properties: [string, SubsetSchema][] = [];
	for (const name of Object.keys(declared)) {
		const property = readSubschema(declared[name], formats);
		if (property !== undefined) properties.push([name, property]);
	}
	const additional = schema.additionalProperties;
	return {
		bounds,
		required: schema.required === undefined ? [] : readRequired(schema.required),
		additional: additional === undefined || additional === false ? additional : readSubschema(additional, formats),
		declared: Object.keys(declared),
		properties,
	};
}
