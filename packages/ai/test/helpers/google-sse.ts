// Builders for Gemini streamGenerateContent SSE replies (`data: <GenerateContentResponse>` lines).
import type { FakeReply, SseChunk } from "./fake-server.js";

export interface GeminiPart {
	text?: string;
	thought?: boolean;
	thoughtSignature?: string;
	functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
}

export interface GeminiUsage {
	promptTokenCount?: number;
	candidatesTokenCount?: number;
	thoughtsTokenCount?: number;
	cachedContentTokenCount?: number;
	totalTokenCount?: number;
}

export function geminiChunk(
	parts: GeminiPart[],
	options: { finishReason?: string; finishMessage?: string; usage?: GeminiUsage } = {},
): SseChunk {
	return {
		data: {
			candidates: [
				{
					content: { role: "model", parts },
					index: 0,
					...(options.finishReason ? { finishReason: options.finishReason } : {}),
					...(options.finishMessage ? { finishMessage: options.finishMessage } : {}),
				},
			],
			...(options.usage ? { usageMetadata: options.usage } : {}),
			modelVersion: "gemini-test",
		},
	};
}

/** One chunk per text piece, the last one carrying the finish reason and usage. */
export function geminiTextChunks(
	pieces: string[],
	options: { finishReason?: string; usage?: GeminiUsage } = {},
): SseChunk[] {
	return pieces.map((text, i) =>
		geminiChunk(
			[{ text }],
			i === pieces.length - 1 ? { finishReason: options.finishReason ?? "STOP", usage: options.usage } : {},
		),
	);
}

export function geminiReply(chunks: SseChunk[], extra: Partial<Extract<FakeReply, { kind: "sse" }>> = {}): FakeReply {
	return { kind: "sse", chunks, ...extra };
}

/** An HTTP error with Google's error body. */
export function geminiHttpError(code: number, status: string, message: string): Extract<FakeReply, { kind: "json" }> {
	return { kind: "json", status: code, body: { error: { code, message, status } } };
}
