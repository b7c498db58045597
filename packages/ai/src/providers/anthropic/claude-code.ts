// OAuth (Claude Pro/Max subscription) tokens are only accepted for requests that look like Claude Code's:
// its identity line first in the system prompt, and its canonical casing for the built-in tool names.

/** First system block of every OAuth request. */
export const CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude.";

/** Claude Code's tool names; ours are matched case-insensitively and sent in this casing. */
export const CLAUDE_CODE_TOOL_NAMES = [
	"Read",
	"Write",
	"Edit",
	"Bash",
	"Grep",
	"Glob",
	"AskUserQuestion",
	"EnterPlanMode",
	"ExitPlanMode",
	"KillShell",
	"NotebookEdit",
	"Skill",
	"Task",
	"TaskOutput",
	"TodoWrite",
	"WebFetch",
	"WebSearch",
] as const;

const CANONICAL_BY_LOWER = new Map<string, string>(CLAUDE_CODE_TOOL_NAMES.map((name) => [name.toLowerCase(), name]));

/** Anthropic OAuth access tokens carry this marker; API keys never do. */
export function isOAuthToken(key: string): boolean {
	return key.includes("sk-ant-oat");
}

/** Outgoing: our tool name in Claude Code's casing when it is one of its tools, otherwise unchanged. */
export function toClaudeCodeToolName(name: string): string {
	return CANONICAL_BY_LOWER.get(name.toLowerCase()) ?? name;
}

/** Incoming: the caller's tool whose name matches case-insensitively, otherwise the name as received. */
export function fromClaudeCodeToolName(name: string, toolNames: readonly string[]): string {
	const lower = name.toLowerCase();
	return toolNames.find((candidate) => candidate.toLowerCase() === lower) ?? name;
}
