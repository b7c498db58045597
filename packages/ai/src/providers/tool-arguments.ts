import type { AssistantMessage, ToolCall } from "../types.js";
import { parseStreamingJson } from "../utils/json-parse.js";

// Reasons set as `ToolCall.invalidArguments`: the call must not run, and the reason says why.
export const ARGUMENTS_CUT_BY_OUTPUT_LIMIT =
	"the reply reached the output token limit before this call's arguments were complete";
export const ARGUMENTS_CUT_OFF = "the reply ended before this call's arguments were complete";
export const ARGUMENTS_NOT_AN_OBJECT = "arguments are not a JSON object";

export function invalidJsonReason(parserMessage: string): string {
	return `arguments are not valid JSON: ${parserMessage}`;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Sets a finished call's arguments from its complete JSON text with a strict `JSON.parse`. Text that does not
 * parse to an object marks the call invalid; `arguments` then keeps what partial parsing recovers, for display
 * only. Empty text is `{}` (a tool without parameters).
 */
export function settleToolArguments(block: ToolCall, json: string): void {
	delete block.invalidArguments;
	if (json.trim() === "") {
		block.arguments = {};
		return;
	}
	let value: unknown;
	try {
		value = JSON.parse(json);
	} catch (error) {
		block.arguments = parseStreamingJson(json);
		block.invalidArguments = invalidJsonReason(error instanceof Error ? error.message : String(error));
		return;
	}
	if (isJsonObject(value)) {
		block.arguments = value;
	} else {
		block.arguments = {};
		block.invalidArguments = ARGUMENTS_NOT_AN_OBJECT;
	}
}

/** A call still streaming when the reply failed: its partial arguments are for display only. */
export function abandonToolArguments(block: ToolCall, json: string): void {
	block.arguments = parseStreamingJson(json);
	block.invalidArguments = ARGUMENTS_CUT_OFF;
}

/**
 * A reply that stopped at the output limit (`length`) right after a tool call was cut inside that call, even
 * when the text received so far happens to parse.
 */
export function markCallCutByOutputLimit(output: AssistantMessage): void {
	if (output.stopReason !== "length") return;
	const last = output.content.at(-1);
	if (last?.type === "toolCall") last.invalidArguments = ARGUMENTS_CUT_BY_OUTPUT_LIMIT;
}
