// Validates and coerces data against a schema read by `schema-subset.ts`, the way the code AJV 8 generates
// for our options (`allErrors`, `coerceTypes: true`) does: the same keyword order, the same coercions written
// back into the data as they happen (also inside `anyOf`/`oneOf` branches that then fail), and the same
// error messages and instance paths.
import type { BoundCheck, JsonType, SubsetSchema } from "./schema-subset.js";

/** What `validateToolArguments` needs of a violation; AJV's `ErrorObject` has the same fields. */
export interface ValidationIssue {
	instancePath: string;
	message: string;
	missingProperty?: string;
}

/** AJV's texts for the violations the subset's fixed keywords report (the model reads them). */
const MESSAGES = {
	constant: "must be equal to constant",
	enum: "must be equal to one of the allowed values",
	anyOf: "must match a schema in anyOf",
	oneOf: "must match exactly one schema in oneOf",
	additionalProperty: "must NOT have additional properties",
} as const;

/** One place in the data: its current value, and where a coerced value is written back. */
interface Location {
	value: unknown;
	readonly container: Record<string, unknown> | unknown[] | undefined;
	readonly key: string | number;
	readonly path: string;
}

/** Checks `data` in place (coercing it as AJV would); returns the violations, none when it is valid. */
export function validateSubset(schema: SubsetSchema, data: unknown): ValidationIssue[] {
	const issues: ValidationIssue[] = [];
	check(schema, { value: data, container: undefined, key: "", path: "" }, issues);
	return issues;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasType(type: JsonType, value: unknown): boolean {
	switch (type) {
		case "null":
			return value === null;
		case "array":
			return Array.isArray(value);
		case "object":
			return isObject(value);
		case "integer":
			return typeof value === "number" && !(value % 1) && !Number.isNaN(value);
		default:
			return typeof value === type;
	}
}

const NOT_COERCED = Symbol("not coerced");

/** AJV's `coerceTypes: true` conversion of `value` to `type`, or `NOT_COERCED`. */
function coerce(type: JsonType, value: unknown): unknown {
	switch (type) {
		case "string":
			if (typeof value === "number" || typeof value === "boolean") return String(value);
			return value === null ? "" : NOT_COERCED;
		case "number":
		case "integer": {
			if (typeof value === "boolean" || value === null) return Number(value);
			if (typeof value !== "string" || value === "" || Number.isNaN(Number(value))) return NOT_COERCED;
			return type === "number" || !(Number(value) % 1) ? Number(value) : NOT_COERCED;
		}
		case "boolean":
			if (value === "false" || value === 0 || value === null) return false;
			return value === "true" || value === 1 ? true : NOT_COERCED;
		case "null":
			return value === "" || value === 0 || value === false ? null : NOT_COERCED;
		default:
			return NOT_COERCED;
	}
}

function report(issues: ValidationIssue[], at: Location, message: string): void {
	issues.push({ instancePath: at.path, message });
}

function checkType(schema: SubsetSchema, at: Location, issues: ValidationIssue[]): void {
	if (schema.types.some((type) => hasType(type, at.value))) return;
	for (const type of schema.types) {
		const coerced = coerce(type, at.value);
		if (coerced === NOT_COERCED) continue;
		at.value = coerced;
		if (at.container !== undefined) (at.container as Record<string | number, unknown>)[at.key] = coerced;
		return;
	}
	report(issues, at, `must be ${schema.typeText}`);
}

function check(schema: SubsetSchema, at: Location, issues: ValidationIssue[]): void {
	if (schema.types.length > 0 && schema.typeFirst) checkType(schema, at, issues);
	checkValues(schema, at, issues);
	checkCombinators(schema, at, issues);
	if (schema.number && typeof at.value === "number") checkBounds(schema.number, at.value, at, issues);
	if (schema.string && typeof at.value === "string") checkBounds(schema.string, at.value, at, issues);
	if (schema.array) {
		if (Array.isArray(at.value)) checkArray(schema.array, at.value, at, issues);
		else if (!schema.typeFirst && schema.types[0] === "array") report(issues, at, `must be ${schema.typeText}`);
	}
	if (schema.object) {
		if (isObject(at.value)) checkObject(schema.object, at.value, at, issues);
		else if (!schema.typeFirst && schema.types[0] === "object") report(issues, at, `must be ${schema.typeText}`);
	}
}

function checkBounds<T>(checks: readonly BoundCheck<T>[], value: T, at: Location, issues: ValidationIssue[]): void {
	for (const bound of checks) if (bound.fails(value)) report(issues, at, bound.message);
}

function checkValues(schema: SubsetSchema, at: Location, issues: ValidationIssue[]): void {
	if (schema.constant && at.value !== schema.constant.value) report(issues, at, MESSAGES.constant);
	if (schema.enumValues && !schema.enumValues.some((value) => value === at.value)) {
		report(issues, at, MESSAGES.enum);
	}
}

/** Whether checking `schema` adds no violation; the violations it finds stay in `issues`. */
function passes(schema: SubsetSchema, at: Location, issues: ValidationIssue[]): boolean {
	const before = issues.length;
	check(schema, at, issues);
	return issues.length === before;
}

function checkCombinators(schema: SubsetSchema, at: Location, issues: ValidationIssue[]): void {
	if (schema.anyOf) {
		const start = issues.length;
		// Stops at the first branch that passes; the failed branches' coercions stay.
		if (schema.anyOf.some((branch) => passes(branch, at, issues))) issues.length = start;
		else report(issues, at, MESSAGES.anyOf);
	}
	if (schema.oneOf) {
		const start = issues.length;
		let valid = false;
		for (const branch of schema.oneOf) {
			const branchValid = branch === undefined || passes(branch, at, issues);
			// A second passing branch settles it: the branches after it are not checked (nor coerce).
			if (branchValid && valid) {
				valid = false;
				break;
			}
			if (branchValid) valid = true;
		}
		if (valid) issues.length = start;
		else report(issues, at, MESSAGES.oneOf);
	}
	for (const branch of schema.allOf ?? []) check(branch, at, issues);
}

/** AJV's instance path segment: JSON Pointer escaping. */
function pointerSegment(key: string | number): string {
	return typeof key === "number" ? String(key) : key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function locationIn(container: Record<string, unknown> | unknown[], key: string | number, parent: Location): Location {
	const value = (container as Record<string | number, unknown>)[key];
	return { value, container, key, path: `${parent.path}/${pointerSegment(key)}` };
}

function checkArray(
	keywords: NonNullable<SubsetSchema["array"]>,
	value: unknown[],
	at: Location,
	issues: ValidationIssue[],
): void {
	checkBounds(keywords.bounds, value, at, issues);
	if (!keywords.items) return;
	for (let index = 0; index < value.length; index++) check(keywords.items, locationIn(value, index, at), issues);
}

function checkObject(
	keywords: NonNullable<SubsetSchema["object"]>,
	value: Record<string, unknown>,
	at: Location,
	issues: ValidationIssue[],
): void {
	checkBounds(keywords.bounds, value, at, issues);
	// AJV reads properties with `data[name]`, so inherited ones (`toString`) count as present.
	for (const name of keywords.required) {
		if (value[name] === undefined) {
			issues.push({
				instancePath: at.path,
				message: `must have required property '${name}'`,
				missingProperty: name,
			});
		}
	}
	if (keywords.additional !== undefined) {
		for (const key in value) {
			if (keywords.declared.includes(key)) continue;
			if (keywords.additional === false) report(issues, at, MESSAGES.additionalProperty);
			else check(keywords.additional, locationIn(value, key, at), issues);
		}
	}
	for (const [name, property] of keywords.properties) {
		if (value[name] !== undefined) check(property, locationIn(value, name, at), issues);
	}
}
