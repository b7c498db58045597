// Permission rules as users write them (the syntax of other coding agents): `Tool` or `Tool(pattern)`.
// `Bash(npm run test:*)`, `Read(./src/**)`, `Edit(**/*.ts)`, `Write(docs/*.md)`, `mcp__github`,
// `mcp__github__create_issue`, an extension tool's name. Pure: parsing only, no matching.

/** What a rule's pattern is matched against. */
export type PatternKind = "command" | "path" | "none";

/** Which calls a rule is about: built-in tool families, an MCP server's tools, or one tool by exact name. */
export type RuleTarget =
	| { kind: "bash" }
	| { kind: "path"; tools: readonly PathToolName[]; family: PathFamily }
	| { kind: "mcpServer"; prefix: string }
	| { kind: "tool"; name: string };

/** The built-in tools whose calls name a path. */
export type PathToolName = "read" | "edit" | "write" | "grep" | "find" | "ls";

/** How a path rule names its tools (and how suggestions are written): `Read(…)`, `Edit(…)`, … */
export type PathFamily = "Read" | "Edit" | "Write" | "Grep" | "Find" | "LS";

export interface PermissionRule {
	/** The rule as written (trimmed): shown in notices, saved back to settings, recorded in the session. */
	text: string;
	target: RuleTarget;
	/** Inside the parentheses, trimmed; undefined for a rule on the whole tool (or `Tool(*)`). */
	pattern?: string;
}

export type RuleParseResult = { ok: true; rule: PermissionRule } | { ok: false; error: string };

// Read rules cover every tool that reads (as other agents do); Edit rules every tool that changes a file.
const PATH_FAMILIES: Readonly<Record<string, { family: PathFamily; tools: readonly PathToolName[] }>> = {
	read: { family: "Read", tools: ["read", "grep", "find", "ls"] },
	edit: { family: "Edit", tools: ["edit", "write"] },
	multiedit: { family: "Edit", tools: ["edit", "write"] },
	write: { family: "Write", tools: ["write"] },
	grep: { family: "Grep", tools: ["grep"] },
	find: { family: "Find", tools: ["find"] },
	glob: { family: "Find", tools: ["find"] },
	ls: { family: "LS", tools: ["ls"] },
};

export const MCP_RULE_PREFIX = "mcp__";

const RULE_SHAPE = /^([^\s()]+)(?:\((.*)\))?$/s;

function describe(text: string): string {
	return JSON.stringify(text);
}

/** Parses one rule; an error says what is wrong with it (the rule is then ignored, with a warning). */
export function parseRule(raw: string): RuleParseResult {
	const text = raw.trim();
	if (text.length === 0) return { ok: false, error: "an empty rule" };
	const shape = RULE_SHAPE.exec(text);
	if (!shape) return { ok: false, error: `${describe(text)} is not Tool or Tool(pattern)` };
	const name = shape[1] as string;
	const inner = shape[2];
	const pattern = inner === undefined ? undefined : inner.trim();
	if (pattern !== undefined && pattern.length === 0) {
		return { ok: false, error: `${describe(text)} has an empty pattern; write ${name} for every call` };
	}
	const whole = pattern === undefined || pattern === "*" ? undefined : pattern;
	const lower = name.toLowerCase();
	if (lower === "bash")
		return { ok: true, rule: { text, target: { kind: "bash" }, ...(whole ? { pattern: whole } : {}) } };
	const family = PATH_FAMILIES[lower];
	if (family) {
		const target: RuleTarget = { kind: "path", tools: family.tools, family: family.family };
		return { ok: true, rule: { text, target, ...(whole ? { pattern: whole } : {}) } };
	}
	if (whole !== undefined) {
		return {
			ok: false,
			error: `${describe(text)}: patterns are understood for Bash, Read, Edit, Write, Grep, Find and LS only; write ${name} for every call of that tool`,
		};
	}
	if (name.startsWith(MCP_RULE_PREFIX)) {
		const rest = name.slice(MCP_RULE_PREFIX.length);
		// `mcp__server` and `mcp__server__*` name every tool of the server.
		const serverOnly = rest.endsWith("__*") ? rest.slice(0, -3) : rest.includes("__") ? undefined : rest;
		if (serverOnly !== undefined) {
			if (serverOnly.length === 0) return { ok: false, error: `${describe(text)} names no MCP server` };
			return {
				ok: true,
				rule: { text, target: { kind: "mcpServer", prefix: `${MCP_RULE_PREFIX}${serverOnly}__` } },
			};
		}
	}
	return { ok: true, rule: { text, target: { kind: "tool", name } } };
}

/** What a rule's pattern is matched against. */
export function patternKindOf(target: RuleTarget): PatternKind {
	if (target.kind === "bash") return "command";
	if (target.kind === "path") return "path";
	return "none";
}

/** `Bash(git push:*)`: how suggestions and saved rules are written. */
export function formatRule(tool: string, pattern?: string): string {
	return pattern === undefined ? tool : `${tool}(${pattern})`;
}
