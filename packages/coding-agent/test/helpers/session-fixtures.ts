// Shared builders for session tests: temp directories and realistic messages.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, ToolResultMessage, UserMessage } from "@agent/ai";
import { afterEach } from "vitest";

/** A fresh temp directory per test, removed afterwards. Call at the top of a describe block. */
export function useTempDirs(prefix = "agent-session-"): () => string {
	const created: string[] = [];
	afterEach(() => {
		for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
	});
	return () => {
		const dir = mkdtempSync(join(tmpdir(), prefix));
		created.push(dir);
		return dir;
	};
}

export const FIXTURES_DIR = join(import.meta.dirname, "..", "fixtures", "sessions");

let clock = 1_736_933_420_000;
function nextTime(): number {
	clock += 1000;
	return clock;
}

export function userMessage(text: string, timestamp = nextTime()): UserMessage {
	return { role: "user", content: [{ type: "text", text }], timestamp };
}

export function assistantMessage(
	text: string,
	options: { provider?: string; model?: string; timestamp?: number } = {},
): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text }],
		api: "anthropic-messages",
		provider: options.provider ?? "anthropic",
		model: options.model ?? "claude-sonnet-4-5",
		usage: {
			input: 10,
			output: 5,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 15,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "stop",
		timestamp: options.timestamp ?? nextTime(),
	};
}

export function toolResultMessage(text: string, toolCallId = "call_1"): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId,
		toolName: "bash",
		content: [{ type: "text", text }],
		isError: false,
		timestamp: nextTime(),
	};
}
