import type { ThinkingConfig } from "@google/genai";
import type {
	GoogleOptions,
	GoogleThinkingLevel,
	Model,
	ThinkingLevel as ReasoningLevel,
	ThinkingBudgets,
} from "../../types.js";
import { clampReasoning } from "../simple-options.js";

type GoogleThinking = NonNullable<GoogleOptions["thinking"]>;
type ClampedLevel = Exclude<ReasoningLevel, "xhigh">;

const GEMINI_3_PRO = /gemini-3(?:\.\d+)?-pro/;
const GEMINI_3_FLASH = /gemini-3(?:\.\d+)?-flash/;

/** Gemini 2.5 budgets per level (minimal, low, medium, high). */
const GEMINI_25_PRO_BUDGETS: Record<ClampedLevel, number> = { minimal: 128, low: 2048, medium: 8192, high: 32768 };
const GEMINI_25_FLASH_BUDGETS: Record<ClampedLevel, number> = { minimal: 128, low: 2048, medium: 8192, high: 24576 };
/** The model decides how much to think. */
export const DYNAMIC_THINKING_BUDGET = -1;

function gemini3Level(model: Pick<Model, "id">, level: ClampedLevel): GoogleThinkingLevel | undefined {
	if (GEMINI_3_PRO.test(model.id)) return level === "minimal" || level === "low" ? "LOW" : "HIGH";
	if (GEMINI_3_FLASH.test(model.id)) return level.toUpperCase() as GoogleThinkingLevel;
	return undefined;
}

function budgetFor(model: Pick<Model, "id">, level: ClampedLevel, custom: ThinkingBudgets | undefined): number {
	const override = custom?.[level];
	if (override !== undefined) return override;
	if (model.id.includes("2.5-pro")) return GEMINI_25_PRO_BUDGETS[level];
	if (model.id.includes("2.5-flash")) return GEMINI_25_FLASH_BUDGETS[level];
	return DYNAMIC_THINKING_BUDGET;
}

/** `streamSimple`'s level → Gemini 3 thinking level, or a token budget for older models. */
export function thinkingForLevel(
	model: Pick<Model, "id">,
	level: ReasoningLevel,
	custom?: ThinkingBudgets,
): GoogleThinking {
	const clamped = clampReasoning(level) ?? "medium";
	const gemini3 = gemini3Level(model, clamped);
	if (gemini3) return { enabled: true, level: gemini3 };
	return { enabled: true, budgetTokens: budgetFor(model, clamped, custom) };
}

/**
 * The SDK's `ThinkingLevel` is a string enum with the same spellings. Only its type is imported: this module is part
 * of `buildRequest`, which the package entry exports, and the entry must not load the SDK.
 */
type SdkThinkingLevel = NonNullable<ThinkingConfig["thinkingLevel"]>;

/** The request's thinkingConfig: only when thinking is on and the model reasons; a level wins over a budget. */
export function buildThinkingConfig(model: Model, thinking: GoogleOptions["thinking"]): ThinkingConfig | undefined {
	if (!thinking?.enabled || !model.reasoning) return undefined;
	const config: ThinkingConfig = { includeThoughts: true };
	if (thinking.level) config.thinkingLevel = thinking.level as SdkThinkingLevel;
	else if (thinking.budgetTokens !== undefined) config.thinkingBudget = thinking.budgetTokens;
	return config;
}
