import type { FunctionTool } from "openai/resources/responses/responses";
import type { Context, Model, OpenAICodexResponsesOptions } from "../../types.js";
import type { ResponsesPayload } from "../openai-responses/build-payload.js";
import { convertResponsesInput } from "../openai-responses/convert-messages.js";
import { convertResponsesTools } from "../openai-responses/convert-tools.js";
import { RESPONSES_ID_NORMALIZING_PROVIDERS } from "../openai-responses/tool-call-id.js";

type Effort = NonNullable<OpenAICodexResponsesOptions["reasoningEffort"]>;

/** What each Codex model accepts. */
export function clampCodexEffort(modelId: string, effort: Effort): Effort {
	const id = modelId.split("/").pop() ?? modelId;
	if (/^gpt-5\.[234]/.test(id) && effort === "minimal") return "low";
	if (id === "gpt-5.1" && effort === "xhigh") return "high";
	if (id === "gpt-5.1-codex-mini") return effort === "high" || effort === "xhigh" ? "high" : "medium";
	return effort;
}

/**
 * The Codex request body: the Responses shape, with the system prompt as `instructions` (never in `input`),
 * encrypted reasoning always included (nothing is stored), the session as prompt-cache key, and tools with
 * `strict: null`. Codex takes no output-token limit.
 */
export function buildCodexPayload(
	model: Model,
	context: Context,
	options: OpenAICodexResponsesOptions | undefined,
	{ reuseConversions = false }: { reuseConversions?: boolean } = {},
): ResponsesPayload {
	const payload: ResponsesPayload = {
		model: model.id,
		store: false,
		stream: true,
		instructions: context.systemPrompt,
		input: convertResponsesInput(model, context, {
			includeSystemPrompt: false,
			normalizeIdsFor: RESPONSES_ID_NORMALIZING_PROVIDERS,
			reuseConversions,
		}),
		text: { verbosity: options?.textVerbosity ?? "medium" },
		include: ["reasoning.encrypted_content"],
		prompt_cache_key: options?.sessionId,
		tool_choice: "auto",
		parallel_tool_calls: true,
	};
	if (options?.temperature !== undefined) payload.temperature = options.temperature;
	if (context.tools) {
		payload.tools = convertResponsesTools(context.tools).map(
			(tool) => ({ ...tool, strict: null }) as unknown as FunctionTool,
		);
	}
	if (options?.reasoningEffort !== undefined) {
		const summary = options.reasoningSummary ?? "auto";
		payload.reasoning = {
			effort: clampCodexEffort(model.id, options.reasoningEffort) as "low",
			summary: summary as "auto",
		};
	}
	return payload;
}
