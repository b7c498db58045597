// Which thinking levels a model offers, and clamping a requested level to them (docs/rpc.md
// "Model and thinking level"). Pure.
import type { ThinkingLevel } from "@agent/agent-core";
import { type Model, supportsXhigh } from "@agent/ai";

export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** `off` only without reasoning (or without a model); `off`…`high` with it, plus `xhigh` where supported. */
export function getAvailableThinkingLevels(model: Pick<Model, "id" | "reasoning"> | undefined): ThinkingLevel[] {
	if (!model?.reasoning) return ["off"];
	const levels = THINKING_LEVELS.filter((level) => level !== "xhigh");
	return supportsXhigh(model) ? [...levels, "xhigh"] : levels;
}

/**
 * The first available level at or above `requested`, else the nearest one below. A value that is not a
 * level at all becomes the first available one (`off`).
 */
export function clampThinkingLevel(requested: string, available: readonly ThinkingLevel[]): ThinkingLevel {
	const index = THINKING_LEVELS.indexOf(requested as ThinkingLevel);
	const fallback = available[0] ?? "off";
	if (index < 0) return fallback;
	for (let i = index; i < THINKING_LEVELS.length; i++) {
		const level = THINKING_LEVELS[i] as ThinkingLevel;
		if (available.includes(level)) return level;
	}
	for (let i = index - 1; i >= 0; i--) {
		const level = THINKING_LEVELS[i] as ThinkingLevel;
		if (available.includes(level)) return level;
	}
	return fallback;
}
