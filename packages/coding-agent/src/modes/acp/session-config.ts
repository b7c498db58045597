// What an editor can switch per session: the mode (a permission mode, or read-only with tools that cannot change
// anything), the model and the thinking level. Offered both as ACP session modes and as session config
// options (clients use one or the other); both always show the same state.
import type { ThinkingLevel } from "@agent/agent-core";
import type { Model } from "@agent/ai";
import type { SessionConfigOption, SessionConfigSelectOption, SessionModeState } from "@agentclientprotocol/sdk";
import {
	PERMISSION_MODE_DESCRIPTIONS,
	PERMISSION_MODE_NAMES,
	PERMISSION_MODES,
	type PermissionMode,
} from "../../core/permissions/modes.js";
import { allTools } from "../../core/tools/tool-sets.js";

export const TOOL_NAMES_BUILT_IN: readonly string[] = Object.keys(allTools);

/** The mode of older clients' (and this agent's earlier) sessions: the permission mode `default`. */
export const CODE_MODE_ID = "code";
export const READ_ONLY_MODE_ID = "read-only";
/** The permission modes (docs/permissions.md), plus read-only: only the tools that cannot change anything. */
export type AcpModeId = PermissionMode | typeof READ_ONLY_MODE_ID;

/** The tools of read-only mode: nothing that writes files or runs commands. */
export const READ_ONLY_TOOL_NAMES: readonly string[] = ["read", "grep", "find", "ls"];

export const MODE_CONFIG_ID = "mode";
export const MODEL_CONFIG_ID = "model";
export const THINKING_CONFIG_ID = "thinking";

const MODES: readonly { id: AcpModeId; name: string; description: string }[] = [
	...PERMISSION_MODES.map((mode) => ({
		id: mode,
		name: PERMISSION_MODE_NAMES[mode],
		description: PERMISSION_MODE_DESCRIPTIONS[mode],
	})),
	{
		id: READ_ONLY_MODE_ID,
		name: "Read-only",
		description: "Reads and searches files only: no edits, no commands",
	},
];

/** The mode an id names (`code` is `default`); undefined for an unknown id. */
export function acpModeOf(value: string): AcpModeId | undefined {
	if (value === CODE_MODE_ID) return "default";
	return MODES.find((mode) => mode.id === value)?.id;
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
