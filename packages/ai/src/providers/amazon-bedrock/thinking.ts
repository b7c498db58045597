import type { BedrockOptions, Model, ThinkingLevel } from "../../types.js";
import { DEFAULT_THINKING_BUDGETS } from "../simple-options.js";

export const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

export function isClaude(model: Pick<Model, "id">): boolean {
	return model.id.includes("anthropic.claude") || model.id.includes("anthropic/claude");
}

/** Claude 4.6 models think adaptively (an effort level) instead of within a token budget. */
export function supportsAdaptiveThinking(model: Pick<Model, "id">): boolean {
	return /opus-4[-.]6|sonnet-4[-.]6/.test(model.id);
}

function effortFor(level: ThinkingLevel, model: Pick<Model, "id">): "low" | "medium" | "high" | "max" {
	if (level === "minimal" || level === "low") return "low";
	if (level === "medium") return "medium";
	if (level === "xhigh") return /opus-4[-.]6/.test(model.id) ? "max" : "high";
	return "high";
}

/**
 * Claude's thinking switches, passed through `additionalModelRequestFields`: adaptive thinking with
 * an effort for 4.6 models, otherwise a token budget plus the interleaved-thinking beta. Other models get none.
 */
export function buildAdditionalModelRequestFields(
	model: Model,
	options: BedrockOptions | undefined,
): Record<string, unknown> | undefined {
	const level = options?.reasoning;
	if (!level || !model.reasoning || !isClaude(model)) return undefined;
	if (supportsAdaptiveThinking(model)) {
		return { thinking: { type: "adaptive" }, output_config: { effort: effortFor(level, model) } };
	}
	const clamped = level === "xhigh" ? "high" : level;
	const budget = options?.thinkingBudgets?.[clamped] ?? DEFAULT_THINKING_BUDGETS[clamped];
	const fields: Record<string, unknown> = { thinking: { type: "enabled", budget_tokens: budget } };
	if (options?.interleavedThinking ?? true) fields.anthropic_beta = [INTERLEAVED_THINKING_BETA];
	return fields;
}
