// A session file with every entry kind and two branches, written as raw JSONL lines like the program writes them.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** 1x1 transparent PNG. */
export const PNG_BASE64 =
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

const usage = (input: number, output: number, cost: number) => ({
	input,
	output,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: input + output,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
});

const assistant = (content: unknown[], extra: Record<string, unknown> = {}) => ({
	role: "assistant",
	content,
	api: "anthropic-messages",
	provider: "anthropic",
	model: "claude-sonnet-4-5",
	usage: usage(100, 20, 0.01),
	stopReason: "stop",
	timestamp: 1736933420000,
	...extra,
});

let clock = Date.parse("2025-01-15T09:30:13.000Z");
function entry(type: string, id: string, parentId: string | null, fields: Record<string, unknown>) {
	clock += 1000;
	return { type, id, parentId, timestamp: new Date(clock).toISOString(), ...fields };
}

export const TS_SNIPPET = 'export const answer: number = 42; // the "answer"';

/** A file read by the `read` call: 25 lines, so the output starts folded. */
export const READ_OUTPUT = Array.from(
	{ length: 25 },
	(_, i) => `export function step${i}(value: string): number {`,
).join("\n");

/** The edit's diff as the edit tool writes it: context, one change, and lines skipped between hunks. */
export const EDIT_DIFF = [
	"  9 import { a } from './a';",
	" 10 ",
	" 11 function main() {",
	"-12 \told line",
	"+12 \tnew line",
	" 13 }",
	"    ...",
	" 40 export { main };",
].join("\n");

export const FIXTURE_HEADER = {
	type: "session",
	version: 3,
	id: "6f1c3f5e-4b7a-4f0e-9c55-2d7b0a1e9f10",
	timestamp: "2025-01-15T09:30:12.345Z",
	cwd: "/home/alice/proj",
};

/** Lines of the fixture: `e7` forks into branch A (`a1`, `a2`, older) and the current branch (`b1` … `b11`). */
export function everyKindSessionLines(): string[] {
	const lines: unknown[] = [
		FIXTURE_HEADER,
		entry("model_change", "e1", null, { provider: "anthropic", modelId: "claude-sonnet-4-5" }),
		entry("thinking_level_change", "e2", "e1", { thinkingLevel: "high" }),
		entry("message", "e3", "e2", {
			message: {
				role: "user",
				content: [
					{ type: "text", text: "List the files please" },
					{ type: "image", data: PNG_BASE64, mimeType: "image/png" },
				],
				timestamp: 1736933420000,
			},
		}),
		entry("message", "e4", "e3", {
			message: assistant(
				[
					{ type: "thinking", thinking: "The user wants a listing.", thinkingSignature: "sig" },
					{ type: "text", text: "I'll **list** them." },
					{ type: "toolCall", id: "call_bash", name: "bash", arguments: { command: "ls -la" } },
					{
						type: "toolCall",
						id: "call_edit",
						name: "edit",
						arguments: { path: "src/a.ts", oldText: "old line", newText: "new line" },
					},
					{ type: "toolCall", id: "call_custom", name: "deploy", arguments: { target: "staging" } },
					{ type: "toolCall", id: "call_read", name: "read", arguments: { path: "src/a.ts" } },
				],
				{ stopReason: "toolUse" },
			),
		}),
		entry("message", "e5", "e4", {
			message: {
				role: "toolResult",
				toolCallId: "call_bash",
				toolName: "bash",
				content: [{ type: "text", text: "README.md\nsrc" }],
				details: {
					truncation: { truncated: true, truncatedBy: "lines", outputLines: 2, totalLines: 3000 },
					fullOutputPath: "/tmp/agent-bash-0a1b.log",
				},
				isError: false,
				timestamp: 1736933421000,
			},
		}),
		entry("message", "e6", "e5", {
			message: {
				role: "toolResult",
				toolCallId: "call_edit",
				toolName: "edit",
				content: [{ type: "text", text: "Successfully replaced text in src/a.ts." }],
				details: { diff: EDIT_DIFF, firstChangedLine: 12 },
				isError: false,
				timestamp: 1736933422000,
			},
		}),
		entry("message", "e6b", "e6", {
			message: {
				role: "toolResult",
				toolCallId: "call_custom",
				toolName: "deploy",
				content: [{ type: "text", text: "deploy failed: no credentials" }],
				isError: true,
				timestamp: 1736933422500,
			},
		}),
		entry("message", "e6c", "e6b", {
			message: {
				role: "toolResult",
				toolCallId: "call_read",
				toolName: "read",
				content: [{ type: "text", text: READ_OUTPUT }],
				isError: false,
				timestamp: 1736933422700,
			},
		}),
		entry("message", "e7", "e6c", {
			message: assistant([{ type: "text", text: `Listed and edited.\n\n\`\`\`ts\n${TS_SNIPPET}\n\`\`\`` }]),
		}),
		// Branch A: the older continuation of e7.
		entry("message", "a1", "e7", {
			message: { role: "user", content: [{ type: "text", text: "Try approach A" }], timestamp: 1736933430000 },
		}),
		entry("message", "a2", "a1", {
			message: assistant([], { stopReason: "error", errorMessage: "Rate limit exceeded", usage: usage(50, 0, 0.5) }),
		}),
		// The current branch: back at e7 with a summary of branch A.
		entry("branch_summary", "b1", "e7", {
			fromId: "e7",
			summary: "Explored approach A; it hit a rate limit.",
			details: { readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] },
			fromHook: false,
		}),
		entry("message", "b2", "b1", {
			message: { role: "user", content: [{ type: "text", text: "Try approach B" }], timestamp: 1736933440000 },
		}),
		entry("message", "b3", "b2", {
			message: {
				role: "bashExecution",
				command: "npm test",
				output: "1 failing",
				exitCode: 1,
				cancelled: false,
				truncated: false,
				excludeFromContext: true,
				timestamp: 1736933441000,
			},
		}),
		entry("custom_message", "b4", "b3", {
			customType: "my-extension",
			content: "Injected context from the extension",
			display: true,
		}),
		entry("custom", "b5", "b4", { customType: "my-extension", data: { count: 42 } }),
		entry("compaction", "b6", "b5", {
			summary: "## Goal\nRefactor the auth module",
			firstKeptEntryId: "b2",
			tokensBefore: 50000,
			details: { readFiles: ["src/auth.ts"], modifiedFiles: [] },
			fromHook: false,
		}),
		entry("message", "b7", "b6", {
			message: assistant([{ type: "text", text: "Partial answer" }], { stopReason: "aborted" }),
		}),
		entry("label", "b8", "b7", { targetId: "b2", label: "checkpoint-1" }),
		entry("session_info", "b9", "b8", { name: "Refactor auth" }),
		entry("future_kind", "b10", "b9", { payload: "from a newer program" }),
		entry("message", "b11", "b10", {
			message: assistant([{ type: "text", text: "Final answer with `code`" }]),
		}),
	];
	const text = lines.map((line) => JSON.stringify(line));
	// A line damaged by a crash, before the last entry: skipped, the rest still renders.
	text.splice(text.length - 1, 0, '{"type":"message","id":"broken","parentId":"b10","timest');
	return text;
}

export function writeSessionFile(dir: string, name: string, lines: readonly string[]): string {
	const path = join(dir, name);
	writeFileSync(path, `${lines.join("\n")}\n`);
	return path;
}
