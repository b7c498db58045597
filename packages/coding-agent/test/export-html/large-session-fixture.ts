// A long coding session as JSONL lines, deterministic for a given size: turns of a user prompt, assistant messages
// with thinking, text, code blocks and tool calls, and their results (TypeScript files read, edit diffs, shell
// output), with a model change now and then, a label every 250 messages, a branch every 500 and a compaction
// every 2,000. About 2 KB per message, like real sessions with tools.

const CODE_LINES = [
	'import { readFile } from "node:fs/promises";',
	"export interface Token { kind: string; text: string; line: number }",
	"export function tokenize(source: string): Token[] {",
	"\tconst tokens: Token[] = [];",
	"\tlet line = 1;",
	"\tfor (const match of source.matchAll(/\\w+|\\S/g)) {",
	'\t\tif (match[0] === "\\n") line++;',
	'\t\ttokens.push({ kind: /\\d/.test(match[0]) ? "number" : "word", text: match[0], line });',
	"\t}",
	"\treturn tokens; // the parser reads them in order",
	"}",
	"",
	"export async function parseFile(path: string): Promise<Token[]> {",
	'\tconst text = await readFile(path, "utf8");',
	"\treturn tokenize(text);",
	"}",
];

const WORDS = ["the", "parser", "returns", "a", "token", "stream", "function", "file", "test", "error", "value"];

function words(count: number, seed: number): string {
	const out: string[] = [];
	for (let i = 0; i < count; i++) out.push(WORDS[(seed + i * 7) % WORDS.length] as string);
	return out.join(" ");
}

function code(lineCount: number, seed: number): string {
	const out: string[] = [];
	for (let i = 0; i < lineCount; i++) out.push(CODE_LINES[(seed + i) % CODE_LINES.length] as string);
	return out.join("\n");
}

/** A diff in the edit tool's format: context, a change, and skipped lines between hunks. */
function editDiff(seed: number): string {
	const n = (value: number) => String(value).padStart(3);
	const lines: string[] = [];
	for (let hunk = 0; hunk < 2; hunk++) {
		const base = 10 + hunk * 40 + (seed % 7);
		if (hunk > 0) lines.push("     ...");
		for (let i = 0; i < 3; i++) lines.push(` ${n(base + i)} ${CODE_LINES[(seed + i) % CODE_LINES.length]}`);
		lines.push(`-${n(base + 3)} \treturn tokens;`);
		lines.push(`+${n(base + 3)} \treturn tokens.filter((token) => token.text !== "");`);
		for (let i = 4; i < 7; i++) lines.push(` ${n(base + i)} ${CODE_LINES[(seed + i) % CODE_LINES.length]}`);
	}
	return lines.join("\n");
}

const USAGE = {
	input: 1200,
	output: 180,
	cacheRead: 9000,
	cacheWrite: 1100,
	totalTokens: 11480,
	cost: { input: 0.0036, output: 0.0027, cacheRead: 0.0027, cacheWrite: 0.0041, total: 0.0131 },
};

/**
 * Lines of a session file with `messageCount` message entries (plus the header and a few non-message entries).
 * The last line is the last message, so the file opens on the newest branch.
 */
export function largeSessionLines(messageCount: number): string[] {
	const start = Date.UTC(2025, 0, 15, 9, 0, 0);
	let clock = start;
	const lines: string[] = [
		JSON.stringify({
			type: "session",
			version: 3,
			id: "0b8e5a52-3c1d-4f7e-9a61-5d2f8c7b9e04",
			timestamp: new Date(start).toISOString(),
			cwd: "/home/alice/parser",
		}),
	];
	const ids: string[] = [];
	let parentId: string | null = null;
	let entryCount = 0;
	const append = (fields: Record<string, unknown>): string => {
		clock += 1500;
		const id = (entryCount++).toString(16).padStart(8, "0");
		lines.push(JSON.stringify({ id, parentId, timestamp: new Date(clock).toISOString(), ...fields }));
		ids.push(id);
		parentId = id;
		return id;
	};
	const assistant = (content: unknown[], stopReason: string) => ({
		type: "message",
		message: {
			role: "assistant",
			content,
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-sonnet-4-5",
			usage: USAGE,
			stopReason,
			timestamp: clock,
		},
	});
	const toolResult = (toolCallId: string, toolName: string, text: string, details?: unknown) => ({
		type: "message",
		message: { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], details, isError: false },
	});
	append({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
	append({ type: "thinking_level_change", thinkingLevel: "medium" });
	for (let m = 0; m < messageCount; m++) {
		if (m > 0 && m % 2000 === 0) {
			append({
				type: "compaction",
				summary: `## Goal\n${words(80, m)}\n\n## Progress\n- ${words(20, m + 1)}\n- ${words(20, m + 2)}`,
				firstKeptEntryId: ids[ids.length - 20],
				tokensBefore: 150_000,
				details: { readFiles: ["src/parser.ts"], modifiedFiles: ["src/tokenize.ts"] },
				fromHook: false,
			});
		}
		if (m > 0 && m % 500 === 0) {
			// The user goes back a few messages and continues from there.
			parentId = ids[ids.length - 6] as string;
		}
		if (m % 250 === 249) append({ type: "label", targetId: parentId, label: `checkpoint-${m + 1}` });
		const call = `toolu_${m}`;
		const file = `src/module-${m % 37}.ts`;
		switch (m % 8) {
			case 0:
				append({
					type: "message",
					message: {
						role: "user",
						content: [
							{
								type: "text",
								text: `Turn ${m}: ${words(25, m)}. Look at \`${file}\` and fix the \`tokenize\` bug.`,
							},
						],
						timestamp: clock,
					},
				});
				break;
			case 1:
				append(
					assistant(
						[
							{ type: "thinking", thinking: words(60, m), thinkingSignature: "sig" },
							{ type: "text", text: `I'll read \`${file}\` first. ${words(20, m)}.` },
							{ type: "toolCall", id: call, name: "read", arguments: { path: file } },
						],
						"toolUse",
					),
				);
				break;
			case 2:
				append(toolResult(`toolu_${m - 1}`, "read", code(40 + (m % 80), m)));
				break;
			case 3:
				append(
					assistant(
						[
							{ type: "text", text: `The bug is in the return. ${words(15, m)}.` },
							{
								type: "toolCall",
								id: call,
								name: "edit",
								arguments: {
									path: file,
									oldText: "\treturn tokens;",
									newText: '\treturn tokens.filter((token) => token.text !== "");',
								},
							},
						],
						"toolUse",
					),
				);
				break;
			case 4:
				append(
					toolResult(`toolu_${m - 1}`, "edit", `Successfully replaced text in ${file}.`, {
						diff: editDiff(m),
						firstChangedLine: 13,
					}),
				);
				break;
			case 5:
				append(
					assistant(
						[{ type: "toolCall", id: call, name: "bash", arguments: { command: "npm test -- --run parser" } }],
						"toolUse",
					),
				);
				break;
			case 6:
				append(
					toolResult(
						`toolu_${m - 1}`,
						"bash",
						Array.from({ length: 5 + (m % 40) }, (_, i) => ` ✓ parser test ${i} (${i % 9} ms)`).join("\n"),
					),
				);
				break;
			default:
				append(
					assistant(
						[
							{
								type: "text",
								text:
									`Fixed. ${words(30, m)}.\n\n\`\`\`ts\n${code(12, m)}\n\`\`\`\n\n` +
									`| test | result |\n|---|---|\n| parser | **passed** |\n\n- ${words(8, m)}\n- ${words(8, m + 3)}`,
							},
						],
						"stop",
					),
				);
		}
		if (m % 1000 === 999 && m < messageCount - 1)
			append({ type: "model_change", provider: "anthropic", modelId: "claude-opus-4-1" });
	}
	return lines;
}
