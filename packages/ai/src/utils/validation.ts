import { createRequire } from "node:module";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Tool, ToolCall } from "../types.js";
import { type FormatCheck, readSubsetSchema, type SubsetSchema } from "./schema-subset.js";
import { type ValidationIssue, validateSubset } from "./subset-validator.js";

type AddFormats = (ajv: Ajv) => Ajv;
type AjvModules = { AjvClass: typeof Ajv; addFormats: AddFormats };

// Most tool schemas use only the part of JSON Schema that `schema-subset.ts` reads; those are validated by
// `subset-validator.ts`, with the same results as AJV, without loading AJV (~200 ms of CPU in a fresh
// process). Any other schema goes to AJV and its formats, which are loaded when such a tool is first used
// rather than when the package is imported. `prepareToolValidation()` loads them (and compiles the
// meta-schema) ahead of the first call, e.g. while a model is still answering; without it, the first
// validation loads them synchronously with `require`.
let ajv: Ajv | undefined;
let preparing: Promise<void> | undefined;

/** A CommonJS module's export, imported (`default`) or required. */
function exportOf<T>(module: unknown, name: string): T {
	const record = module as Record<string, unknown>;
	const candidate = (record.default ?? record) as Record<string, unknown>;
	return (candidate[name] ?? candidate.default ?? candidate) as T;
}

function createAjv({ AjvClass, addFormats }: AjvModules): Ajv {
	const instance = new AjvClass({ allErrors: true, strict: false, coerceTypes: true });
	addFormats(instance);
	// The draft-07 meta-schema is compiled on first use; do it now, so the first tool call does not wait.
	instance.getSchema("http://json-schema.org/draft-07/schema");
	return instance;
}

function getAjv(): Ajv {
	if (ajv) return ajv;
	const require = createRequire(import.meta.url);
	ajv = createAjv({
		AjvClass: exportOf<typeof Ajv>(require("ajv"), "Ajv"),
		addFormats: exportOf<AddFormats>(require("ajv-formats"), "default"),
	});
	return ajv;
}

/** ajv-formats' format table, which our AJV instance gets; a standalone module, loaded on first use. */
let formatTable: Record<string, unknown> | undefined;

/** The check of a format as ajv-formats defines it, or `undefined` (unknown, or not loadable: AJV decides). */
function formatCheckOf(name: string): FormatCheck | undefined {
	try {
		const require = createRequire(import.meta.url);
		formatTable ??= exportOf<Record<string, unknown>>(require("ajv-formats/dist/formats"), "fullFormats");
	} catch {
		return undefined;
	}
	const definition = Object.hasOwn(formatTable, name) ? formatTable[name] : undefined;
	if (definition === true) return { type: "string", test: () => true };
	const asTest = (check: unknown): FormatCheck["test"] | undefined => {
		if (check instanceof RegExp) return (value: string) => check.test(value);
		return typeof check === "function" ? (value: never) => Boolean(check(value)) : undefined;
	};
	if (typeof definition !== "object" || definition === null || definition instanceof RegExp) {
		const test = asTest(definition);
		return test && { type: "string", test };
	}
	const { type, validate, async } = definition as { type?: unknown; validate?: unknown; async?: unknown };
	const test = asTest(validate);
	if (async || !test || (type !== undefined && type !== "string" && type !== "number")) return undefined;
	return { type: type ?? "string", test };
}

/** Marks a schema that AJV validates. */
const NEEDS_AJV = Symbol("needs AJV");
const subsetSchemas = new WeakMap<object, SubsetSchema | typeof NEEDS_AJV>();

/** The schema in the subset's form, decided once per schema object; `undefined` when AJV validates it. */
function subsetSchemaOf(schema: unknown): SubsetSchema | undefined {
	if (typeof schema !== "object" || schema === null) return undefined;
	let entry = subsetSchemas.get(schema);
	if (entry === undefined) {
		try {
			entry = readSubsetSchema(schema, formatCheckOf) ?? NEEDS_AJV;
		} catch {
			entry = NEEDS_AJV; // A schema that breaks the reader is AJV's to judge.
		}
		subsetSchemas.set(schema, entry);
	}
	return entry === NEEDS_AJV ? undefined : entry;
}

/** Whether the schema is validated without AJV (not part of the package's API; tests use it). */
export function isValidatedWithoutAjv(schema: unknown): boolean {
	return subsetSchemaOf(schema) !== undefined;
}

const ready = Promise.resolve();

/**
 * Loads the validator ahead of the first validation (e.g. while a model is still streaming a tool call), so
 * that it does not block then. Given the tools, loads AJV only if one of their schemas needs it; without,
 * loads it regardless. Safe to call often and to leave unawaited; never rejects.
 */
export function prepareToolValidation(tools?: readonly Tool[]): Promise<void> {
	if (tools?.every((tool) => subsetSchemaOf(tool.parameters) !== undefined)) return ready;
	preparing ??= Promise.all([import("ajv"), import("ajv-formats")])
		.then(([ajvModule, formatsModule]) => {
			ajv ??= createAjv({
				AjvClass: exportOf<typeof Ajv>(ajvModule, "Ajv"),
				addFormats: exportOf<AddFormats>(formatsModule, "default"),
			});
		})
		.catch(() => {
			// validateToolArguments loads it again and reports what is wrong.
		});
	return preparing;
}

const compiled = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: object): ValidateFunction {
	let validate = compiled.get(schema);
	if (!validate) {
		validate = getAjv().compile(schema);
		compiled.set(schema, validate);
	}
	return validate;
}

function ajvIssues(validate: ValidateFunction): ValidationIssue[] {
	return (validate.errors ?? []).map((error: ErrorObject) => ({
		instancePath: error.instancePath,
		message: error.message ?? "is invalid",
		missingProperty: (error.params as { missingProperty?: string }).missingProperty,
	}));
}

/** Checks (and coerces) `args` in place; returns the violations, none when they are valid. */
function checkArguments(schema: unknown, args: Record<string, unknown>): ValidationIssue[] {
	const subset = subsetSchemaOf(schema);
	if (subset) return validateSubset(subset, args);
	const validate = validatorFor(schema as object);
	return validate(args) ? [] : ajvIssues(validate);
}

function errorPath(issue: ValidationIssue): string {
	if (issue.instancePath) return issue.instancePath.replace(/^\//, "");
	return issue.missingProperty ?? "root";
}

/**
 * Validates (and coerces, e.g. "5" → 5 for number fields) a tool call's arguments against the
 * tool's schema. Returns the coerced copy; throws an Error whose message lists every violation and
 * the arguments received, written for the model to correct its call.
 */
export function validateToolArguments(tool: Tool, toolCall: ToolCall): Record<string, unknown> {
	const args = structuredClone(toolCall.arguments ?? {});
	const issues = checkArguments(tool.parameters, args);
	if (issues.length === 0) return args;
	const lines = issues.map((issue) => `  - ${errorPath(issue)}: ${issue.message}`);
	throw new Error(
		`Validation failed for tool "${toolCall.name}":\n${lines.join("\n")}\n\nReceived arguments:\n${JSON.stringify(toolCall.arguments, null, 2)}`,
	);
}

/** Finds the tool by name and validates the call; throws `Tool "<name>" not found` when it is unknown. */
export function validateToolCall(tools: Tool[], toolCall: ToolCall): Record<string, unknown> {
	const tool = tools.find((candidate) => candidate.name === toolCall.name);
	if (!tool) throw new Error(`Tool "${toolCall.name}" not found`);
	return validateToolArguments(tool, toolCall);
}
