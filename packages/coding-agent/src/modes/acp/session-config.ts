// What an editor can switch per session: the mode (code, or read-only with tools that cannot change
// anything), the model and the thinking level. Offered both as ACP session modes and as session config
// options (clients use one or the other); both always show the same state.
import type { ThinkingLevel } from "@agent/agent-core";
import type { Model } from "@agent/ai";
import type { SessionConfigOption, SessionConfigSelectOption, SessionModeState } from "@agentclientprotocol/sdk";
import { allTools } from "../../core/tools/tool-sets.js";

export const TOOL_NAMES_BUILT_IN: readonly string[] = Object.keys(allTools);

export const CODE_MODE_ID = "code";
export const READ_ONLY_MODE_ID = "read-only";
export type AcpModeId = typeof CODE_MODE_ID | typeof READ_ONLY_MODE_ID;

/** The tools of read-only mode: nothing that writes files or runs commands. */
export const READ_ONLY_TOOL_NAMES: readonly string[] = ["read", "grep", "find", "ls"];

export const MODE_CONFIG_ID = "mode";
export const MODEL_CONFIG_ID = "model";
export const THINKING_CONFIG_ID = "thinking";

const MODES = [
	{
		id: CODE_MODE_ID,
		name: "Code",
		description: "Reads, edits and writes files and runs commands",
	},
	{
		id: READ_ONLY_MODE_ID,
		name: "Read-only",
		description: "Reads and searches files only: no edits, no commands",
	},
] as const;

export function isAcpModeId(value: string): value is AcpModeId {
	return MODES.some((mode) => mode.id === value);
}

export function sessionModeState(current: AcpModeId): SessionModeState {
	return { currentModeId: current, availableModes: MODES.map((mode) => ({ ...mode })) };
}

/** `provider/id`: how a model is named in the model option. */
export function modelValueOf(model: Pick<Model, "provider" | "id">): string {
	return `${model.provider}/${model.id}`;
}

const THINKING_NAMES: Readonly<Record<ThinkingLevel, string>> = {
	off: "Off",
	minimal: "Minimal",
	low: "Low",
	medium: "Medium",
	high: "High",
	xhigh: "Extra high",
};

export interface SessionConfigState {
	mode: AcpModeId;
	model: Model | undefined;
	/** Models with credentials; the current one is listed even when it has none. */
	availableModels: readonly Model[];
	thinkingLevel: ThinkingLevel;
	availableThinkingLevels: readonly ThinkingLevel[];
}

export function sessionConfigOptions(state: SessionConfigState): SessionConfigOption[] {
	const models = [...state.availableModels];
	if (state.model && !models.some((model) => modelValueOf(model) === modelValueOf(state.model as Model))) {
		models.unshift(state.model);
	}
	const modelOptions: SessionConfigSelectOption[] = models.map((model) => ({
		value: modelValueOf(model),
		name: model.name || model.id,
		description: model.provider,
	}));
	const options: SessionConfigOption[] = [
		{
			type: "select",
			id: MODE_CONFIG_ID,
			name: "Mode",
			category: "mode",
			currentValue: state.mode,
			options: MODES.map((mode) => ({ value: mode.id, name: mode.name, description: mode.description })),
		},
	];
	if (state.model) {
		options.push({
			type: "select",
			id: MODEL_CONFIG_ID,
			name: "Model",
			category: "model",
			currentValue: modelValueOf(state.model),
			options: modelOptions,
		});
	}
	options.push({
		type: "select",
		id: THINKING_CONFIG_ID,
		name: "Thinking",
		category: "thought_level",
		currentValue: state.thinkingLevel,
		options: state.availableThinkingLevels.map((level) => ({ value: level, name: THINKING_NAMES[level] })),
	});
	return options;
}
