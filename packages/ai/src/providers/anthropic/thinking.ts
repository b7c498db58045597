import type { AnthropicOptions, Model, ThinkingLevel } from "../../types.js";

export type AnthropicEffort = NonNullable<AnthropicOptions["effort"]>;

const ADAPTIVE_MARKERS = ["opus-4-6", "opus-4.6", "sonnet-4-6", "sonnet-4.6"];
const MAX_EFFORT_MARKERS = ["opus-4-6", "opus-4.6"];

/** Models that decide their own thinking budget (`thinking:{type:"adaptive"}` plus an effort). */
export function isAdaptiveThinkingModel(model: Pick<Model, "id">): boolean {
	return ADAPTIVE_MARKERS.some((marker) => model.id.includes(marker));
}

/** Adaptive models map levels to efforts; `xhigh` is `max` only where the model offers it. */
export function effortForLevel(model: Pick<Model, "id">, level: ThinkingLevel): AnthropicEffort {
	switch (level) {
		case "minimal":
		case "low":
			return "low";
		case "medium":
			return "medium";
		case "high":
			return "high";
		case "xhigh":
			return MAX_EFFORT_MARKERS.some((marker) => model.id.includes(marker)) ? "max" : "high";
	}
}
