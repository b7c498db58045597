import type { StopReason } from "../../types.js";

/** Chat Completions `finish_reason` to our stop reason. Unknown values are a protocol error. */
export function mapFinishReason(reason: string): StopReason {
	switch (reason) {
		case "stop":
		case "end":
			return "stop";
		case "length":
			return "length";
		case "function_call":
		case "tool_calls":
			return "toolUse";
		case "content_filter":
			return "error";
		default:
			throw new Error(`Unhandled stop reason: ${reason}`);
	}
}

// Ours differs: the reference reports "An unknown error occurred" for a filtered response, which tells the
// user nothing; the reason is known, so say it.
export const CONTENT_FILTER_MESSAGE =
	"The provider's content filter stopped the response (finish_reason: content_filter)";
