// Public API of @agent/coding-agent: re-exports only. No module it reaches imports it back; the CLI, which it does
// not reach, hands it to extensions lazily (`cli.ts` gives `main` a loader for it; core/extensions/host-modules.ts).

export {
	InteractiveMode,
	type InteractiveModeOptions,
	main,
	type PrintModeOptions,
	runPrintMode,
	runRpcMode,
} from "./cli/sdk-modes.js";
export { APP_NAME, VERSION } from "./config.js";
export * from "./core/agent-session.js";
export * from "./core/checkpoints/index.js";
export * from "./core/compaction/index.js";
export * from "./core/config/index.js";
export * from "./core/export-html/index.js";
export * from "./core/extensions/hooks.js";
export * from "./core/extensions/index.js";
export type { DialogOptions as RpcDialogOptions } from "./core/extensions/ui-context.js";
export * from "./core/mcp/index.js";
export * from "./core/packages/index.js";
export * from "./core/permissions/index.js";
export * from "./core/resources/index.js";
export * from "./core/sdk.js";
export * from "./core/session/index.js";
export * from "./core/session-runtime/index.js";
export * from "./core/tools/index.js";
export {
	AssistantMessageComponent,
	BashExecutionComponent,
	BranchSummaryMessageComponent,
	CompactionSummaryMessageComponent,
	CustomMessageComponent,
	FooterComponent,
	type ReadonlyFooterDataProvider,
	ToolExecutionComponent,
	type ToolExecutionOptions,
	type ToolExecutionResultInput,
	UserMessageComponent,
} from "./modes/interactive/components/reference-components.js";
export {
	type ExtensionDialogOptions,
	ExtensionEditorComponent,
	ExtensionInputComponent,
	ExtensionSelectorComponent,
	LoginDialogComponent,
	SkillInvocationMessageComponent,
} from "./modes/interactive/components/reference-dialogs.js";
export {
	ModelSelectorComponent,
	OAuthSelectorComponent,
	SessionSelectorComponent,
	type SessionSelectorOptions,
	SettingsSelectorComponent,
	ShowImagesSelectorComponent,
	ThemeSelectorComponent,
	ThinkingSelectorComponent,
	TreeSelectorComponent,
	UserMessageSelectorComponent,
} from "./modes/interactive/components/reference-selectors.js";
export { type RenderDiffOptions, renderDiff } from "./modes/interactive/components/tool-renderers/diff-lines.js";
export * from "./modes/interactive/extension-kit/index.js";
export { RESERVED_SHORTCUT_ACTIONS } from "./modes/interactive/keybindings.js";
export type { SettingsCallbacks, SettingsConfig } from "./modes/interactive/selectors/settings-panel.js";
export {
	getCurrentTheme,
	getEditorTheme,
	getMarkdownTheme,
	getSelectListTheme,
	getSettingsListTheme,
	initTheme,
	setCurrentTheme,
} from "./modes/interactive/theme/current-theme.js";
export { Theme } from "./modes/interactive/theme/theme.js";
export type { ThemeBackground, ThemeColor } from "./modes/interactive/theme/theme-schema.js";
export { RpcExtensionUiBridge } from "./modes/rpc/extension-ui-bridge.js";
export {
	attachJsonlReader,
	JsonlLineSplitter,
	JsonlWriter,
	serializeJsonLine,
} from "./modes/rpc/jsonl.js";
export {
	isRpcCommandType,
	PARSE_ERROR_COMMAND,
	RPC_COMMAND_TYPES,
	RPC_DIALOG_METHODS,
	type RpcAgentEvent,
	type RpcBashResult,
	type RpcCheckpoint,
	type RpcCommand,
	type RpcCommandOf,
	type RpcCommandType,
	type RpcCompactionResult,
	type RpcErrorResponse,
	type RpcEvent,
	type RpcEventType,
	type RpcExtensionUiDialogRequest,
	type RpcExtensionUiMethod,
	type RpcExtensionUiNotificationRequest,
	type RpcExtensionUiRequest,
	type RpcExtensionUiResponse,
	type RpcFileRestoreResult,
	type RpcForkMessage,
	type RpcInputRecord,
	type RpcMcpServer,
	type RpcModelCycleResult,
	type RpcNavigateTreeResult,
	type RpcNotifyType,
	type RpcOutputRecord,
	type RpcPermissionMode,
	type RpcPermissionModeState,
	type RpcQueueMode,
	type RpcResponse,
	type RpcResponseDataMap,
	type RpcResponseFor,
	type RpcSessionState,
	type RpcSessionStats,
	type RpcSlashCommand,
	type RpcStreamingBehavior,
	type RpcSuccessResponse,
	type RpcWidgetPlacement,
} from "./modes/rpc/protocol.js";
export {
	RpcClient,
	type RpcClientOptions,
	RpcCommandError,
	type RpcExtensionUiAnswer,
	type RpcExtensionUiHandler,
} from "./modes/rpc/rpc-client.js";
export * from "./modes/rpc/rpc-ui-context.js";
