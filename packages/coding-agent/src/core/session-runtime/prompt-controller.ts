// What happens to a message the user (or an extension) sends: extension commands, `input` handlers,
// expansion, queueing while the agent works, validation, and the start of a run (docs/rpc.md "prompt",
// "steer and follow_up"; docs/extensions.md "Events").
import { join } from "node:path";
import type { Agent, AgentMessage } from "@agent/agent-core";
import type { AssistantMessage, ImageContent, Model, TextContent } from "@agent/ai";
import { APP_NAME } from "../../config.js";
import { missingApiKeyText } from "../config/missing-key.js";
import type { ModelRegistry } from "../config/model-registry.js";
import type { CustomMessageInput, ExtensionError, ExtensionHooks, MessageDelivery } from "../extensions/hooks.js";
import { type CustomMessage, createCustomMessage } from "../messages.js";
import { getDocsPath } from "../resources/package-docs.js";
import type { ResourceLoader } from "../resources/resource-loader.js";
import type { SessionManager } from "../session/session-manager.js";
import type { PromptOptions } from "./events.js";
import { expandPromptText, parseSlashCommand, splitMessageContent } from "./prompt-input.js";

export const STREAMING_WITHOUT_BEHAVIOR_TEXT =
	"Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

export function extensionCommandCannotBeQueuedText(name: string): string {
	return `Extension command "/${name}" cannot be queued. Use prompt() or execute the command when not streaming.`;
}

export function noModelSelectedPromptText(docsPath: string = getDocsPath()): string {
	return `No model selected.\n\nUse /login or set an API key environment variable. See ${join(docsPath, "providers.md")}\n\nThen use /model to select a model.`;
}

/**
 * The reference's text (`No API key found for <provider>.` … `See <docs>/providers.md`) with every way to give the
 * provider a key spelled out: its variables, `--api-key`, `/login` and models.json.
 */
export function noApiKeyFoundText(provider: string, docsPath: string = getDocsPath(), modelsJsonPath?: string): string {
	return missingApiKeyText(provider, { docsPath, ...(modelsJsonPath ? { modelsJsonPath } : {}) });
}

export function oauthAuthenticationFailedText(provider: string): string {
	return `Authentication failed for "${provider}". Credentials may have expired or network is unavailable. Run '/login ${provider}' to re-authenticate.`;
}

/** The spec's text, then why the token refresh failed and the command that signs in again from a shell. */
export function oauthRefreshFailedText(provider: string, reason: string | undefined): string {
	return [
		oauthAuthenticationFailedText(provider),
		...(reason ? ["", `The token refresh failed: ${reason}`] : []),
		"",
		`From a shell: ${APP_NAME} login ${provider}`,
	].join("\n");
}

export interface PromptHost {
	readonly agent: Agent;
	readonly hooks: ExtensionHooks;
	readonly sessionManager: SessionManager;
	readonly modelRegistry: ModelRegistry;
	readonly resourceLoader: ResourceLoader;
	readonly model: Model | undefined;
	/** A run is going, or about to continue (retry, compaction): new messages must be queued. */
	readonly isStreaming: boolean;
	/** The system prompt of the active tools and resources, before `before_agent_start` handlers. */
	readonly baseSystemPrompt: string;
	/** `/mcp__<server>__<prompt> args`: the MCP prompt's text and images; undefined for other text. */
	expandMcpPrompt?(text: string): Promise<{ text: string; images: ImageContent[] } | undefined>;
	/** `!command` results held while the agent streamed, appended before a new run. */
	flushPendingBashMessages(): void;
	/** The pre-prompt compaction check (aborted replies count too). */
	checkCompactionBeforePrompt(lastAssistant: AssistantMessage): Promise<void>;
	/** Resolves when the run and its follow-on work (retry, compaction) are over. */
	settle(): Promise<void>;
	emitMessageEvents(message: AgentMessage): void;
	reportExtensionError(error: ExtensionError): void;
}

/**
 * Owns the queued-message texts shown to the user (`pendingMessageCount`) and the extension messages held
 * for the next turn; the agent owns the queues themselves.
 */
export class PromptController {
	private steeringTexts: string[] = [];
	private followUpTexts: string[] = [];
	/** `sendCustomMessage(…, {deliverAs: "nextTurn"})`: injected after the next user message. */
	private nextTurnMessages: CustomMessage[] = [];
	/** Between accepting a prompt and the agent's run starting (key lookup, compaction check, hooks). */
	private starting = false;

	constructor(private readonly host: PromptHost) {}

	/** A prompt was accepted and its run is about to start: another message must be queued. */
	get isStarting(): boolean {
		return this.starting;
	}

	get pendingMessageCount(): number {
		return this.steeringTexts.length + this.followUpTexts.length;
	}

	getSteeringMessages(): readonly string[] {
		return [...this.steeringTexts];
	}

	getFollowUpMessages(): readonly string[] {
		return [...this.followUpTexts];
	}

	async prompt(text: string, options: PromptOptions = {}): Promise<void> {
		const { host } = this;
		const expandCommands = options.expandPromptTemplates !== false;
		if (expandCommands && (await this.tryRunExtensionCommand(text))) return;

		let images = options.images;
		if (host.hooks.hasHandlers("input")) {
			const input = await host.hooks.emitInput({
				text,
				...(images ? { images } : {}),
				source: options.source ?? "interactive",
			});
			if (input.action === "handled") return;
			if (input.action === "transform") {
				text = input.text;
				images = input.images ?? images;
			}
		}
		const mcpPrompt = expandCommands ? await host.expandMcpPrompt?.(text) : undefined;
		if (mcpPrompt && mcpPrompt.images.length > 0) images = [...(images ?? []), ...mcpPrompt.images];
		const expanded = mcpPrompt ? mcpPrompt.text : expandCommands ? this.expandText(text) : text;

		if (host.isStreaming || this.starting) {
			if (options.streamingBehavior === "steer") return this.queueUserMessage("steer", expanded, images);
			if (options.streamingBehavior === "followUp") return this.queueUserMessage("followUp", expanded, images);
			throw new Error(STREAMING_WITHOUT_BEHAVIOR_TEXT);
		}
		this.starting = true;
		try {
			await this.startRun(expanded, images);
		} finally {
			this.starting = false;
		}
		await host.settle();
	}

	private async startRun(expanded: string, images: ImageContent[] | undefined): Promise<void> {
		const { host } = this;
		host.flushPendingBashMessages();
		const model = host.model;
		if (!model) throw new Error(noModelSelectedPromptText());
		await this.requireApiKey(model);
		const lastAssistant = findLastAssistant(host.agent.state.messages);
		if (lastAssistant) await host.checkCompactionBeforePrompt(lastAssistant);

		const messages: AgentMessage[] = [
			{ role: "user", content: [{ type: "text", text: expanded }, ...(images ?? [])], timestamp: Date.now() },
			...this.nextTurnMessages,
		];
		this.nextTurnMessages = [];
		let systemPrompt = host.baseSystemPrompt;
		if (host.hooks.hasHandlers("before_agent_start")) {
			const result = await host.hooks.emitBeforeAgentStart({
				prompt: expanded,
				...(images ? { images } : {}),
				systemPrompt,
			});
			for (const message of result?.messages ?? []) {
				messages.push(
					createCustomMessage(message.customType, message.content, message.display, message.details, Date.now()),
				);
			}
			if (result?.systemPrompt !== undefined) systemPrompt = result.systemPrompt;
		}
		host.agent.setSystemPrompt(systemPrompt);
		await host.agent.prompt(messages);
	}

	steer(text: string, images?: ImageContent[]): void {
		this.rejectExtensionCommand(text);
		this.queueUserMessage("steer", this.expandText(text), images);
	}

	followUp(text: string, images?: ImageContent[]): void {
		this.rejectExtensionCommand(text);
		this.queueUserMessage("followUp", this.expandText(text), images);
	}

	clearQueue(): { steering: string[]; followUp: string[] } {
		const cleared = { steering: this.steeringTexts, followUp: this.followUpTexts };
		this.steeringTexts = [];
		this.followUpTexts = [];
		this.host.agent.clearAllQueues();
		return cleared;
	}

	/** A queued message reached the model (a user message started with its text): it is no longer pending. */
	noteDelivered(text: string): void {
		const steering = this.steeringTexts.indexOf(text);
		if (steering >= 0) {
			this.steeringTexts.splice(steering, 1);
			return;
		}
		const followUp = this.followUpTexts.indexOf(text);
		if (followUp >= 0) this.followUpTexts.splice(followUp, 1);
	}

	/** Forgets queued texts and held messages (the agent's queues are reset with it). */
	reset(): void {
		this.steeringTexts = [];
		this.followUpTexts = [];
		this.nextTurnMessages = [];
	}

	async sendCustomMessage(
		input: CustomMessageInput,
		options: { triggerTurn?: boolean; deliverAs?: MessageDelivery | "nextTurn" } = {},
	): Promise<void> {
		const { host } = this;
		const message = createCustomMessage(input.customType, input.content, input.display, input.details, Date.now());
		if (options.deliverAs === "nextTurn") {
			this.nextTurnMessages.push(message);
			return;
		}
		if (host.isStreaming) {
			// Only the run's follow-on work is pending (an `agent_end` handler sends this): the loop that would take
			// a queued message has ended, so a message meant to start a turn waits for the session to settle.
			if (options.triggerTurn && !host.agent.state.isStreaming) {
				await host.settle();
				return this.sendCustomMessage(input, options);
			}
			if (options.deliverAs === "followUp") host.agent.followUp(message);
			else host.agent.steer(message);
			return;
		}
		if (options.triggerTurn) {
			await host.agent.prompt(message);
			await host.settle();
			return;
		}
		host.agent.appendMessage(message);
		host.sessionManager.appendCustomMessageEntry(
			message.customType,
			message.content,
			message.display,
			message.details,
		);
		host.emitMessageEvents(message);
	}

	async sendUserMessage(
		content: string | (TextContent | ImageContent)[],
		options: { deliverAs?: MessageDelivery } = {},
	): Promise<void> {
		const parts = splitMessageContent(content);
		await this.prompt(parts.text, {
			expandPromptTemplates: false,
			source: "extension",
			...(options.deliverAs ? { streamingBehavior: options.deliverAs } : {}),
			...(parts.images.length > 0 ? { images: parts.images } : {}),
		});
	}

	private async requireApiKey(model: Model): Promise<void> {
		const { modelRegistry } = this.host;
		if (await modelRegistry.getApiKey(model)) return;
		const credential = modelRegistry.authStorage.get(model.provider);
		throw new Error(
			credential?.type === "oauth"
				? oauthRefreshFailedText(model.provider, modelRegistry.authStorage.getRefreshError(model.provider))
				: noApiKeyFoundText(model.provider, getDocsPath(), modelRegistry.modelsJsonPath),
		);
	}

	/** Runs `/name args` when an extension registered `name`; true when it did. */
	private async tryRunExtensionCommand(text: string): Promise<boolean> {
		const call = parseSlashCommand(text);
		const command = call ? this.host.hooks.getCommand(call.name) : undefined;
		if (!call || !command) return false;
		try {
			await command.run(call.args);
		} catch (error) {
			this.host.reportExtensionError({
				extensionPath: `command:${command.name}`,
				event: "command",
				error: error instanceof Error ? error.message : String(error),
			});
		}
		return true;
	}

	private rejectExtensionCommand(text: string): void {
		const call = parseSlashCommand(text);
		if (call && this.host.hooks.getCommand(call.name)) throw new Error(extensionCommandCannotBeQueuedText(call.name));
	}

	private expandText(text: string): string {
		const { resourceLoader } = this.host;
		const expanded = expandPromptText(text, resourceLoader.getSkills().skills, resourceLoader.getPrompts().prompts);
		if (expanded.skillFailure) {
			this.host.reportExtensionError({
				extensionPath: expanded.skillFailure.filePath,
				event: "skill_expansion",
				error: expanded.skillFailure.error,
			});
		}
		return expanded.text;
	}

	private queueUserMessage(delivery: MessageDelivery, text: string, images: ImageContent[] | undefined): void {
		const message: AgentMessage = {
			role: "user",
			content: [{ type: "text", text }, ...(images ?? [])],
			timestamp: Date.now(),
		};
		if (delivery === "steer") {
			this.steeringTexts.push(text);
			this.host.agent.steer(message);
		} else {
			this.followUpTexts.push(text);
			this.host.agent.followUp(message);
		}
	}
}

function findLastAssistant(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as AgentMessage;
		if (message.role === "assistant") return message;
	}
	return undefined;
}
