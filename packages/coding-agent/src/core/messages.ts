// The coding agent's own message kinds and their conversion to provider messages
// (docs/session-format.md "Messages", "What the model sees"). Declared on @agent/agent-core's CustomAgentMessages by
// declaration merging, so `AgentMessage` includes them everywhere this module is loaded.
import type { AgentMessage } from "@agent/agent-core";
import type { ImageContent, Message, TextContent, UserMessage } from "@agent/ai";

/** Output of a user `!command` / RPC `bash`, stored as a `message` entry with role `bashExecution`. */
export interface BashExecutionMessage {
	role: "bashExecution";
	command: string;
	output: string;
	/** Absent when the command was killed. */
	exitCode?: number;
	cancelled: boolean;
	truncated: boolean;
	fullOutputPath?: string;
	/** True for `!!` commands: shown to the user, never sent to the model. */
	excludeFromContext?: boolean;
	timestamp: number;
}

/** An extension's message; the model sees it as a user message whether or not it is displayed. */
export interface CustomMessage<TDetails = unknown> {
	role: "custom";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	/** Extension metadata, never sent to the model. */
	details?: TDetails;
	timestamp: number;
}

/** Produced by context building from a `branch_summary` entry; never stored as a message. */
export interface BranchSummaryMessage {
	role: "branchSummary";
	summary: string;
	fromId: string;
	timestamp: number;
}

/** Produced by context building from the latest `compaction` entry on the path; never stored as a message. */
export interface CompactionSummaryMessage {
	role: "compactionSummary";
	summary: string;
	tokensBefore: number;
	timestamp: number;
}

declare module "@agent/agent-core" {
	interface CustomAgentMessages {
		bashExecution: BashExecutionMessage;
		custom: CustomMessage;
		branchSummary: BranchSummaryMessage;
		compactionSummary: CompactionSummaryMessage;
	}
}

// Model-facing wrappers, byte for byte.
export const COMPACTION_SUMMARY_PREFIX =
	"The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
export const BRANCH_SUMMARY_PREFIX =
	"The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
export const BRANCH_SUMMARY_SUFFIX = "</summary>";
export const IMAGE_BLOCKED_TEXT = "Image reading is disabled.";

/** The user-message text the model sees for a `!command` result. */
export function bashExecutionToText(message: BashExecutionMessage): string {
	let text = `Ran \`${message.command}\`\n`;
	text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : "(no output)";
	if (message.cancelled) {
		text += "\n\n(command cancelled)";
	} else if (typeof message.exitCode === "number" && message.exitCode !== 0) {
		text += `\n\nCommand exited with code ${message.exitCode}`;
	}
	if (message.truncated && message.fullOutputPath) {
		text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
	}
	return text;
}

export function createBranchSummaryMessage(summary: string, fromId: string, timestamp: number): BranchSummaryMessage {
	return { role: "branchSummary", summary, fromId, timestamp };
}

export function createCompactionSummaryMessage(
	summary: string,
	tokensBefore: number,
	timestamp: number,
): CompactionSummaryMessage {
	return { role: "compactionSummary", summary, tokensBefore, timestamp };
}

export function createCustomMessage<TDetails = unknown>(
	customType: string,
	content: string | (TextContent | ImageContent)[],
	display: boolean,
	details: TDetails | undefined,
	timestamp: number,
): CustomMessage<TDetails> {
	const message: CustomMessage<TDetails> = { role: "custom", customType, content, display, timestamp };
	if (details !== undefined) message.details = details;
	return message;
}

function userText(text: string, timestamp: number): UserMessage {
	return { role: "user", content: [{ type: "text", text }], timestamp };
}

function convertOne(message: AgentMessage): Message | undefined {
	switch (message.role) {
		case "user":
		case "assistant":
		case "toolResult":
			return message;
		case "bashExecution":
			return message.excludeFromContext ? undefined : userText(bashExecutionToText(message), message.timestamp);
		case "custom": {
			const content =
				typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
			return { role: "user", content, timestamp: message.timestamp };
		}
		case "branchSummary":
			return userText(`${BRANCH_SUMMARY_PREFIX}${message.summary}${BRANCH_SUMMARY_SUFFIX}`, message.timestamp);
		case "compactionSummary":
			return userText(
				`${COMPACTION_SUMMARY_PREFIX}${message.summary}${COMPACTION_SUMMARY_SUFFIX}`,
				message.timestamp,
			);
		default:
			// Roles declared by other layers (extensions' own kinds) never reach the provider unconverted.
			return undefined;
	}
}

export interface ConvertToLlmOptions {
	/** The `images.blockImages` setting: every image the model would see becomes a text notice. */
	blockImages?: boolean;
}

function withoutImages<T extends TextContent | ImageContent>(content: T[]): (T | TextContent)[] {
	const result: (T | TextContent)[] = [];
	for (const block of content) {
		if (block.type !== "image") {
			result.push(block);
			continue;
		}
		const previous = result[result.length - 1];
		if (previous?.type === "text" && previous.text === IMAGE_BLOCKED_TEXT) continue;
		result.push({ type: "text", text: IMAGE_BLOCKED_TEXT });
	}
	return result;
}

function blockImagesIn(message: Message): Message {
	if (message.role === "user" && Array.isArray(message.content) && message.content.some((b) => b.type === "image")) {
		return { ...message, content: withoutImages(message.content) };
	}
	if (message.role === "toolResult" && message.content.some((b) => b.type === "image")) {
		return { ...message, content: withoutImages(message.content) };
	}
	return message;
}

/**
 * Turns the agent's context into provider messages (docs/session-format.md "What the model sees"): user, assistant and tool
 * results pass through; bash executions, custom messages and summaries become user messages; bash runs
 * marked `excludeFromContext` and unknown roles are dropped.
 */
export function convertToLlm(messages: readonly AgentMessage[], options: ConvertToLlmOptions = {}): Message[] {
	const result: Message[] = [];
	const cache = options.blockImages ? convertedWithoutImages : converted;
	for (const message of messages) {
		const isLlmRole = message.role === "user" || message.role === "assistant" || message.role === "toolResult";
		if (isLlmRole && !options.blockImages) {
			result.push(message);
			continue;
		}
		let llm = cache.get(message);
		if (llm === undefined) {
			const one = convertOne(message);
			llm = one && options.blockImages ? blockImagesIn(one) : (one ?? null);
			cache.set(message, llm);
		}
		if (llm) result.push(llm);
	}
	return result;
}

// Each message's conversion, so a message the provider sees as another one (a bash run, a summary) is the same
// object on every call and the layers below can reuse what they derived from it. Null: not sent.
const converted = new WeakMap<AgentMessage, Message | null>();
const convertedWithoutImages = new WeakMap<AgentMessage, Message | null>();
