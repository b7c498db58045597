/**
 * Defensive argument reads for `execute`. The agent loop validates arguments against each tool's schema
 * before calling it, but tools are also called directly (extensions, SDK users, tests); a wrong type must
 * then surface as an error that tells the model how to fix its call, never as a crash deep inside a tool.
 */

function describeType(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "array";
	return typeof value;
}

function fieldOf(args: unknown, tool: string, field: string): unknown {
	if (typeof args !== "object" || args === null || Array.isArray(args)) {
		throw new Error(
			`Invalid arguments for ${tool}: expected an object with a "${field}" field, got ${describeType(args)}.`,
		);
	}
	return (args as Record<string, unknown>)[field];
}

function invalid(tool: string, field: string, expected: string, value: unknown): Error {
	return new Error(`Invalid arguments for ${tool}: "${field}" must be ${expected}, got ${describeType(value)}.`);
}

export function requireString(args: unknown, tool: string, field: string): string {
	const value = fieldOf(args, tool, field);
	if (typeof value !== "string") throw invalid(tool, field, "a string", value);
	return value;
}

export function optionalString(args: unknown, tool: string, field: string): string | undefined {
	const value = fieldOf(args, tool, field);
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "string") throw invalid(tool, field, "a string", value);
	return value;
}

export function optionalNumber(args: unknown, tool: string, field: string): number | undefined {
	const value = fieldOf(args, tool, field);
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "number" || Number.isNaN(value)) throw invalid(tool, field, "a number", value);
	return value;
}

export function optionalBoolean(args: unknown, tool: string, field: string): boolean | undefined {
	const value = fieldOf(args, tool, field);
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "boolean") throw invalid(tool, field, "a boolean", value);
	return value;
}

/** A count argument as a usable limit: floored, at least 1. */
export function toPositiveInteger(value: number | undefined, fallback: number): number {
	if (value === undefined || !Number.isFinite(value)) return fallback;
	return Math.max(1, Math.floor(value));
}
