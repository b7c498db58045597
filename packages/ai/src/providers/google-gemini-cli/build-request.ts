import type { Content, Tool as GoogleTool, ThinkingConfig, ToolConfig } from "@google/genai";
import { APP_NAME_FOR_PROVIDERS } from "../../oauth/app-name.js";
import type { Context, GoogleGeminiCliOptions, Model } from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { convertMessages } from "../google/convert-messages.js";
import { convertToolChoice, convertTools } from "../google/convert-tools.js";
import { buildThinkingConfig } from "../google/thinking.js";

/** The Cloud Code Assist envelope around a generateContent request. */
export interface CloudCodeAssistRequest {
	project: string;
	model: string;
	request: {
		contents: Content[];
		sessionId?: string;
		systemInstruction?: { role?: string; parts: { text: string }[] };
		generationConfig?: { maxOutputTokens?: number; temperature?: number; thinkingConfig?: ThinkingConfig };
		tools?: GoogleTool[];
		toolConfig?: ToolConfig;
	};
	requestType?: string;
	userAgent?: string;
	requestId?: string;
}

/** Antigravity serves only requests that introduce themselves as its agent. */
const ANTIGRAVITY_SYSTEM_INSTRUCTION =
	"You are Antigravity, a powerful agentic AI coding assistant designed by the Google Deepmind team working on Advanced Agentic Coding." +
	"You are pair programming with a USER to solve their coding task. The task may require creating a new codebase, modifying or debugging an existing codebase, or simply answering a question." +
	"**Absolute paths only**" +
	"**Proactiveness**";

export function isAntigravity(model: Model): boolean {
	return model.provider === "google-antigravity";
}

function requestId(prefix: string): string {
	return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 11)}`;
}

/** The request body; the generateContent part is the Gemini API's own. */
export function buildRequest(
	model: Model,
	context: Context,
	projectId: string,
	options: GoogleGeminiCliOptions = {},
	antigravity: boolean = isAntigravity(model),
): CloudCodeAssistRequest {
	const request: CloudCodeAssistRequest["request"] = { contents: convertMessages(context.messages, model) };
	if (options.sessionId) request.sessionId = options.sessionId;
	if (context.systemPrompt)
		request.systemInstruction = { parts: [{ text: sanitizeSurrogates(context.systemPrompt) }] };
	const generationConfig: NonNullable<CloudCodeAssistRequest["request"]["generationConfig"]> = {};
	if (options.temperature !== undefined) generationConfig.temperature = options.temperature;
	if (options.maxTokens !== undefined) generationConfig.maxOutputTokens = options.maxTokens;
	const thinkingConfig = buildThinkingConfig(model, options.thinking);
	if (thinkingConfig) generationConfig.thinkingConfig = thinkingConfig;
	if (Object.keys(generationConfig).length > 0) request.generationConfig = generationConfig;
	if (context.tools && context.tools.length > 0) {
		const tools = convertTools(context.tools);
		// Claude behind Cloud Code Assist takes the older `parameters` field, which it turns into `input_schema`.
		if (model.id.startsWith("claude-")) {
			for (const declaration of tools[0]?.functionDeclarations ?? []) {
				declaration.parameters = declaration.parametersJsonSchema as never;
				delete declaration.parametersJsonSchema;
			}
		}
		request.tools = tools;
		if (options.toolChoice) request.toolConfig = convertToolChoice(options.toolChoice);
	}
	if (antigravity) {
		request.systemInstruction = {
			role: "user",
			parts: [
				{ text: ANTIGRAVITY_SYSTEM_INSTRUCTION },
				{ text: `Please ignore following [ignore]${ANTIGRAVITY_SYSTEM_INSTRUCTION}[/ignore]` },
				...(request.systemInstruction?.parts ?? []),
			],
		};
	}
	return {
		project: projectId,
		model: model.id,
		request,
		...(antigravity ? { requestType: "agent" } : {}),
		userAgent: antigravity ? "antigravity" : APP_NAME_FOR_PROVIDERS,
		requestId: requestId(antigravity ? "agent" : APP_NAME_FOR_PROVIDERS),
	};
}
