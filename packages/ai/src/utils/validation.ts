import { createRequire } from "node:module";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Tool, ToolCall } from "../types.js";

type AddFormats = (ajv: Ajv) => Ajv;
type AjvModules = { AjvClass: typeof Ajv; addFormats: AddFormats };

// AJV and its formats are loaded when tools are first used rather than when the package is imported, so
// start-up does not pay for them. `prepareToolValidation()` loads them (and compiles the meta-schema) ahead
// of the first call, e.g. while a model is still answering; without it, the first validation loads them
// synchronously with `require`.
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

/**
 * Loads the validator ahead of the first validation (e.g. while a model is still streaming a tool call), so
 * that it does not block then. Safe to call often and to leave unawaited; never rejects.
 */
export function prepareToolValidation(): Promise<void> {
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

function validatorFor(tool: Tool): ValidateFunction {
	let validate = compiled.get(tool.parameters);
	if (!validate) {
		validate = getAjv().compile(tool.parameters);
		compiled.set(tool.parameters, validate);
	}
	return validate;
}

function errorPath(error: ErrorObject): string {
	if (error.instancePath) return error.instancePath.replace(/^\//, "");
	const missing = (error.params as { missingProperty?: string }).missingProperty;
	return missing ?? "root";
}

/**
 * Validates (and coerces, e.g. "5" → 5 for number fields) a tool call's arguments against the
 * tool's schema. Returns the coerced copy; throws an Error whose message lists every violation and
 * the arguments received, written for the model to correct its call.
 */
export function validateToolArguments(tool: Tool, toolCall: ToolCall): Record<string, unknown> {
	const args = structuredClone(toolCall.arguments ?? {});
	const validate = validatorFor(tool);
	if (validate(args)) return args;
	const lines = (validate.errors ?? []).map((error) => `  - ${errorPath(error)}: ${error.message ?? "is invalid"}`);
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
