import type { StopReason } from "../../types.js";

/** Gemini's finishReason: STOP and MAX_TOKENS are normal ends; safety and every other reason are errors. */
export function mapFinishReason(reason: string): StopReason {
	switch (reason) {
		case "STOP":
			return "stop";
		case "MAX_TOKENS":
			return "length";
		default:
			return "error";
	}
}
