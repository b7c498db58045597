// Public API of @agent/agent-core. Nothing inside the package imports this file.
export {
	Agent,
	type AgentListener,
	CONTINUE_WHILE_RUNNING_TEXT,
	NO_MESSAGES_TO_CONTINUE_FROM_TEXT,
	NO_MODEL_TEXT,
	PROMPT_WHILE_RUNNING_TEXT,
} from "./agent.js";
export {
	agentLoop,
	agentLoopContinue,
	cannotContinueFromRoleText,
	NO_MESSAGES_TO_CONTINUE_TEXT,
	runAgentLoop,
	runAgentLoopContinue,
} from "./agent-loop.js";
export {
	createFailureAssistantMessage,
	defaultConvertToLlm,
	hasAssistantContent,
	isEmptyAbortedAssistantMessage,
} from "./agent-messages.js";
export { MessageQueue } from "./message-queue.js";
export {
	PROXY_STREAM_PATH,
	type ProxyAssistantMessageEvent,
	type ProxyRequestOptions,
	type ProxyStreamOptions,
	type ProxyStreamRequest,
} from "./proxy-protocol.js";
export { PROXY_STREAM_ENDED_TEXT, streamProxy } from "./proxy-stream.js";
export { STREAM_ENDED_WITHOUT_RESULT_TEXT } from "./stream-assistant-response.js";
export { DEFAULT_MAX_PARALLEL_TOOL_CALLS } from "./tool-execution.js";
export {
	CUT_OFF_AT_LENGTH_TEXT,
	INTERRUPTED_TOOL_CALL_TEXT,
	invalidArgumentsText,
	normalizeToolResult,
	SIBLING_INVALID_TEXT,
	SKIPPED_FOR_ABORT_TEXT,
	SKIPPED_FOR_STEERING_TEXT,
	TOOL_BLOCKED_TEXT,
	toolNotFoundText,
} from "./tool-result.js";
export type * from "./types.js";
export { QUEUE_MODES } from "./types.js";
