import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { Tool, ToolCall } from "../types.js";

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
	ajv: Ajv,
) => Ajv;

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: true });
addFormats(ajv);

const compiled = new WeakMap<object, ValidateFunction>();

function validatorFor(tool: Tool): ValidateFunction {
	let validate = compiled.get(tool.parameters);
	if (!validate) {
		validate = ajv.compile(tool.parameters);
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
