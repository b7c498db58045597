import type { StopReason } from "../../types.js";

/**
 * Maps Anthropic's `stop_reason`. Unknown values throw, which ends the stream with an error naming the
 * value (e.g. `model_context_window_exceeded`, which isContextOverflow then recognises).
 */
export function mapStopReason(reason: string): StopReason {
	switch (reason) {
		case "end_turn":
		case "pause_turn":
		case "stop_sequence":
			return "stop";
		case "max_tokens":
			return "length";
		case "tool_use":
			return "toolUse";
		case "refusal":
		case "sensitive":
			return "error";
		default:
			throw new Error(`Unhandled stop reason: ${reason}`);
	}
}
