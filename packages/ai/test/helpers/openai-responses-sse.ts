import type { FakeReply, SseChunk } from "./fake-server.js";
import { splitText } from "./split-text.js";

let sequence = 0;

/** One Responses API event, framed with its `event:` line as OpenAI sends it. */
export function event(type: string, fields: Record<string, unknown> = {}): SseChunk {
	return { event: type, data: { type, sequence_number: sequence++, ...fields } };
}

export function created(): SseChunk {
	return event("response.created", {
		response: { id: "resp_1", object: "response", status: "in_progress", output: [] },
	});
}

export interface ReasoningFixture {
	id: string;
	summaries: string[];
	encrypted?: string;
}

export function reasoningItemJson(fixture: ReasoningFixture): Record<string, unknown> {
	return {
		type: "reasoning",
		id: fixture.id,
		summary: fixture.summaries.map((text) => ({ type: "summary_text", text })),
		...(fixture.encrypted ? { encrypted_content: fixture.encrypted } : {}),
	};
}

export function reasoningItem(outputIndex: number, fixture: ReasoningFixture, size = 6): SseChunk[] {
	const chunks: SseChunk[] = [
		event("response.output_item.added", {
			output_index: outputIndex,
			item: { type: "reasoning", id: fixture.id, summary: [] },
		}),
	];
	fixture.summaries.forEach((text, summaryIndex) => {
		const base = { item_id: fixture.id, output_index: outputIndex, summary_index: summaryIndex };
		chunks.push(
			event("response.reasoning_summary_part.added", { ...base, part: { type: "summary_text", text: "" } }),
		);
		for (const delta of splitText(text, size))
			chunks.push(event("response.reasoning_summary_text.delta", { ...base, delta }));
		chunks.push(event("response.reasoning_summary_text.done", { ...base, text }));
		chunks.push(event("response.reasoning_summary_part.done", { ...base, part: { type: "summary_text", text } }));
	});
	chunks.push(event("response.output_item.done", { output_index: outputIndex, item: reasoningItemJson(fixture) }));
	return chunks;
}

export function messageItem(
	outputIndex: number,
	id: string,
	text: string,
	options: { size?: number; phase?: string } = {},
): SseChunk[] {
	const base = { item_id: id, output_index: outputIndex, content_index: 0 };
	const phase = options.phase ? { phase: options.phase } : {};
	return [
		event("response.output_item.added", {
			output_index: outputIndex,
			item: { type: "message", id, role: "assistant", status: "in_progress", content: [], ...phase },
		}),
		event("response.content_part.added", { ...base, part: { type: "output_text", text: "", annotations: [] } }),
		...splitText(text, options.size ?? 5).map((delta) => event("response.output_text.delta", { ...base, delta })),
		event("response.output_text.done", { ...base, text }),
		event("response.content_part.done", { ...base, part: { type: "output_text", text, annotations: [] } }),
		event("response.output_item.done", {
			output_index: outputIndex,
			item: {
				type: "message",
				id,
				role: "assistant",
				status: "completed",
				content: [{ type: "output_text", text, annotations: [] }],
				...phase,
			},
		}),
	];
}

export function functionCallItem(
	outputIndex: number,
	callId: string,
	itemId: string,
	name: string,
	args: string,
	size = 4,
): SseChunk[] {
	const base = { item_id: itemId, output_index: outputIndex };
	const item = { type: "function_call", id: itemId, call_id: callId, name, status: "in_progress" };
	return [
		event("response.output_item.added", { output_index: outputIndex, item: { ...item, arguments: "" } }),
		...splitText(args, size).map((delta) => event("response.function_call_arguments.delta", { ...base, delta })),
		event("response.function_call_arguments.done", { ...base, arguments: args }),
		event("response.output_item.done", {
			output_index: outputIndex,
			item: { ...item, status: "completed", arguments: args },
		}),
	];
}

export interface CompletedFixture {
	status?: string;
	usage?: { input: number; output: number; cached?: number; reasoning?: number; total?: number };
	serviceTier?: string;
	type?: "response.completed" | "response.incomplete";
	incompleteReason?: string;
}

export function completed(fixture: CompletedFixture = {}): SseChunk {
	const usage = fixture.usage ?? { input: 10, output: 5 };
	const type = fixture.type ?? "response.completed";
	return event(type, {
		response: {
			id: "resp_1",
			object: "response",
			status: fixture.status ?? (type === "response.incomplete" ? "incomplete" : "completed"),
			...(fixture.serviceTier ? { service_tier: fixture.serviceTier } : {}),
			...(fixture.incompleteReason ? { incomplete_details: { reason: fixture.incompleteReason } } : {}),
			usage: {
				input_tokens: usage.input,
				input_tokens_details: { cached_tokens: usage.cached ?? 0 },
				output_tokens: usage.output,
				output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
				total_tokens: usage.total ?? usage.input + usage.output,
			},
		},
	});
}

export function responsesReply(
	chunks: SseChunk[],
	extra: Partial<Extract<FakeReply, { kind: "sse" }>> = {},
): FakeReply {
	return { kind: "sse", chunks, ...extra };
}

export function textResponse(text: string, id = "msg_1"): FakeReply {
	return responsesReply([created(), ...messageItem(0, id, text), completed()]);
}
