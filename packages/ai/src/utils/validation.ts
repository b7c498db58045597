import { createRequire } from "node:module";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Tool, ToolCall } from "../types.js";

// AJV and its formats (CommonJS, dozens of files) are loaded on the first validation rather than when the
// package is imported, so start-up does not pay for them. `require` keeps validation synchronous.
const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;

function getAjv(): Ajv {
	if (ajv) return ajv;
	const { Ajv: AjvClass } = require("ajv") as typeof import("ajv");
	const addFormats = require("ajv-formats") as (ajv: Ajv) => Ajv;
	ajv = new AjvClass({ allErrors: true, strict: false, coerceTypes: true });
	addFormats(ajv);
	return ajv;
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
