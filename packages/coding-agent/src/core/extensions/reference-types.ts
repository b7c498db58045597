// Type names of the reference's extension API that ours spells differently, so code written for the reference
// type-checks unchanged. Each is an alias of our own type.
import type { AgentToolResult, AgentToolUpdateCallback } from "@agent/agent-core";
import type { SlashCommandInfo } from "../session-runtime/events.js";
import type { BashToolInput } from "../tools/bash.js";
import type { EditToolInput } from "../tools/edit.js";
import type { FindToolInput } from "../tools/find.js";
import type { GrepToolInput } from "../tools/grep.js";
import type { LsToolInput } from "../tools/ls.js";
import type { ReadToolInput } from "../tools/read.js";
import type { WriteToolInput } from "../tools/write.js";
import type { ExtensionEventMap } from "./events.js";
import type { ExtensionSessionBinding, ToolCallEvent } from "./hooks.js";
import type {
	EventBus,
	ExtensionAPI,
	ExtensionCommandContext,
	ExtensionContext,
	RegisteredFlag,
	RegisteredShortcut,
} from "./types.js";
import type { DialogOptions, WidgetOptions } from "./ui-context.js";

export type { AgentToolResult, AgentToolUpdateCallback };

type ToolCallEventOf<TName extends string, TInput> = Omit<ToolCallEvent, "toolName" | "input"> & {
	toolName: TName;
	input: TInput;
};
export type BashToolCallEvent = ToolCallEventOf<"bash", BashToolInput>;
export type ReadToolCallEvent = ToolCallEventOf<"read", ReadToolInput>;
export type EditToolCallEvent = ToolCallEventOf<"edit", EditToolInput>;
export type WriteToolCallEvent = ToolCallEventOf<"write", WriteToolInput>;
export type GrepToolCallEvent = ToolCallEventOf<"grep", GrepToolInput>;
export type FindToolCallEvent = ToolCallEventOf<"find", FindToolInput>;
export type LsToolCallEvent = ToolCallEventOf<"ls", LsToolInput>;
export type CustomToolCallEvent = ToolCallEventOf<string, Record<string, unknown>>;

/** A `before_provider_request` handler's answer: a replacement payload (undefined keeps it). */
export type BeforeProviderRequestEventResult = unknown;
export type EventBusController = EventBus & { clear?(): void };
export type ExtensionFlag = RegisteredFlag;
export type ExtensionShortcut = RegisteredShortcut;
export type ExtensionUIDialogOptions = DialogOptions;
export type ExtensionWidgetOptions = WidgetOptions;
export type MessageRenderOptions = { expanded: boolean };
export type SlashCommandSource = SlashCommandInfo["source"];
export type SlashCommandLocation = NonNullable<SlashCommandInfo["location"]>;
export type ToolInfo = { name: string; description: string; parameters: unknown };
export type ExtensionEvent = ExtensionEventMap[keyof ExtensionEventMap];

// The reference binds its extension runner with three tables of actions (`bindCore(actions, contextActions)`,
// `bindCommandContext(actions)`); ours binds one `ExtensionSessionBinding` (`ExtensionHooks.bindSession`). The
// tables are described here by the methods extensions reach them through.
export type ExtensionActions = Pick<
	ExtensionAPI,
	| "sendMessage"
	| "sendUserMessage"
	| "appendEntry"
	| "setSessionName"
	| "getSessionName"
	| "setLabel"
	| "getActiveTools"
	| "getAllTools"
	| "setActiveTools"
	| "getCommands"
	| "setModel"
	| "getThinkingLevel"
	| "setThinkingLevel"
> &
	Pick<ExtensionSessionBinding, "refreshTools">;
export type ExtensionContextActions = Pick<
	ExtensionContext,
	"isIdle" | "abort" | "hasPendingMessages" | "shutdown" | "getContextUsage" | "compact" | "getSystemPrompt"
> & { getModel(): ExtensionContext["model"] };
export type ExtensionCommandContextActions = Pick<
	ExtensionCommandContext,
	"waitForIdle" | "newSession" | "fork" | "navigateTree" | "switchSession" | "reload"
>;
