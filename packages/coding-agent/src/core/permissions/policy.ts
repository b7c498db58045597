// The rules of every source compiled once, and the decision for one call: deny, then ask, then allow, then the
// mode. Pure: `evaluatePermission` takes a described call (subject.ts) and returns a verdict.
import { type CommandPattern, compileCommandPattern } from "./command-pattern.js";
import type { PermissionMode } from "./modes.js";
import {
	type CallPath,
	compilePathPattern,
	type PathAnchors,
	type PathPattern,
	relativeInside,
} from "./path-pattern.js";
import { type PathToolName, type PermissionRule, parseRule } from "./rule-syntax.js";
import type { AnalyzedCommand } from "./shell-commands.js";
import type { PermissionSubject } from "./subject.js";

export const RULE_LISTS = ["deny", "ask", "allow"] as const;
export type RuleList = (typeof RULE_LISTS)[number];

/** Rules of one source, as settings, flags, the session and extensions hold them. */
export interface PermissionRuleSet {
	allow?: readonly string[];
	ask?: readonly string[];
	deny?: readonly string[];
}

/** Where rules come from; named in notices, verdicts and the session's records. */
export interface RuleSource {
	/** `user settings`, `project settings`, `command line`, `this session`, `extension <path>`. */
	name: string;
	rules: PermissionRuleSet;
}

export interface CompiledRule extends PermissionRule {
	list: RuleList;
	source: string;
	command?: CommandPattern;
	path?: PathPattern;
}

/** A rule that was ignored because it does not parse. */
export interface RuleProblem {
	source: string;
	list: RuleList;
	error: string;
}

interface BashRules {
	/** `Bash` without a pattern. */
	whole: CompiledRule | undefined;
	byFirstWord: Map<string, CompiledRule[]>;
	/** Patterns starting with a wildcard. */
	unindexed: CompiledRule[];
	all: CompiledRule[];
}

interface ListRules {
	bash: BashRules;
	/** Path rules by the tool they cover (Edit rules under both edit and write). */
	paths: Map<PathToolName, CompiledRule[]>;
	/** Exact tool names. */
	tools: Map<string, CompiledRule[]>;
	mcpServers: CompiledRule[];
}

export interface PermissionPolicy {
	lists: Readonly<Record<RuleList, ListRules>>;
	problems: RuleProblem[];
	anchors: PathAnchors;
	/**
	 * Some deny or ask rule is about bash commands or about writing files (Bash, Edit and Write rules: a command's
	 * output redirections are file writes). Then a command that cannot be read fully must be asked about, even in
	 * default mode; without one, default mode runs every command whatever it says (`bashCommandMatters`).
	 */
	hasBashObjections: boolean;
}

function emptyList(): ListRules {
	return {
		bash: { whole: undefined, byFirstWord: new Map(), unindexed: [], all: [] },
		paths: new Map(),
		tools: new Map(),
		mcpServers: [],
	};
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
	const list = map.get(key);
	if (list) list.push(value);
	else map.set(key, [value]);
}

export function compilePolicy(sources: readonly RuleSource[], anchors: PathAnchors): PermissionPolicy {
	const lists: Record<RuleList, ListRules> = { deny: emptyList(), ask: emptyList(), allow: emptyList() };
	const problems: RuleProblem[] = [];
	for (const source of sources) {
		for (const list of RULE_LISTS) {
			for (const text of source.rules[list] ?? []) {
				const parsed = parseRule(text);
				if (!parsed.ok) {
					problems.push({ source: source.name, list, error: parsed.error });
					continue;
				}
				const rule: CompiledRule = { ...parsed.rule, list, source: source.name };
				const into = lists[list];
				const target = rule.target;
				if (target.kind === "bash") {
					if (rule.pattern === undefined) {
						into.bash.whole ??= rule;
						into.bash.all.push(rule);
						continue;
					}
					rule.command = compileCommandPattern(rule.pattern);
					into.bash.all.push(rule);
					if (rule.command.firstWord === undefined) into.bash.unindexed.push(rule);
					else push(into.bash.byFirstWord, rule.command.firstWord, rule);
				} else if (target.kind === "path") {
					if (rule.pattern !== undefined) rule.path = compilePathPattern(rule.pattern, anchors);
					for (const tool of target.tools) push(into.paths, tool, rule);
				} else if (target.kind === "mcpServer") {
					into.mcpServers.push(rule);
				} else {
					push(into.tools, target.name, rule);
				}
			}
		}
	}
	const hasBashObjections =
		problems.some((problem) => problem.list !== "allow") ||
		lists.deny.bash.all.length > 0 ||
		lists.ask.bash.all.length > 0 ||
		(lists.deny.paths.get("write")?.length ?? 0) > 0 ||
		(lists.ask.paths.get("write")?.length ?? 0) > 0;
	return { lists, problems, anchors, hasBashObjections };
}

// ---------------------------------------------------------------------------------------------------------
// Verdicts
// ---------------------------------------------------------------------------------------------------------

export type VerdictReason =
	/** `subject` is what matched: a command, a path, a tool name. */
	| { kind: "rule"; rule: CompiledRule; subject: string }
	| { kind: "mode"; mode: PermissionMode; detail: string }
	/** Something of the call can only be known when it runs, and a rule might object to it. */
	| { kind: "unknown"; detail: string };

export interface Verdict {
	behavior: "allow" | "ask" | "deny";
	reason: VerdictReason;
}

function firstWordOf(text: string): string {
	const space = text.indexOf(" ");
	return space < 0 ? text : text.slice(0, space);
}

function matchCommandText(rules: BashRules, text: string): CompiledRule | undefined {
	if (rules.whole) return rules.whole;
	for (const rule of rules.byFirstWord.get(firstWordOf(text)) ?? []) if (rule.command?.matches(text)) return rule;
	for (const rule of rules.unindexed) if (rule.command?.matches(text)) return rule;
	return undefined;
}

/** Whether an allow rule allows the command (suggestions leave those out). */
export function isCommandAllowed(policy: PermissionPolicy, command: AnalyzedCommand): boolean {
	return matchCommandText(policy.lists.allow.bash, command.allowText) !== undefined;
}

/** A deny or ask rule matching any form of the command. */
function objectionTo(rules: BashRules, command: AnalyzedCommand): { rule: CompiledRule; text: string } | undefined {
	for (const text of command.denyTexts) {
		const rule = matchCommandText(rules, text);
		if (rule) return { rule, text };
	}
	return undefined;
}

/** A deny or ask rule that could match once the shell fills in the command's dynamic words. */
function possibleObjectionTo(rules: BashRules, command: AnalyzedCommand): CompiledRule | undefined {
	for (const prefix of command.dynamicPrefixes) {
		for (const rule of rules.all) {
			if (!rule.command || rule.command.couldMatchCommandStartingWith(prefix)) return rule;
		}
	}
	return undefined;
}

const NOT_YET = null;

function matchPath(
	rules: readonly CompiledRule[] | undefined,
	path: CallPath,
	list: RuleList,
): CompiledRule | undefined {
	if (!rules || rules.length === 0) return undefined;
	// The path relative to each anchor (project, home, root), computed once for all the rules.
	const real: (string | undefined | null)[] = [NOT_YET, NOT_YET, NOT_YET];
	const lexical: (string | undefined | null)[] = [NOT_YET, NOT_YET, NOT_YET];
	for (const rule of rules) {
		const pattern = rule.path;
		if (!pattern) return rule;
		const { anchor, base } = pattern;
		let rel = real[anchor];
		if (rel === NOT_YET) {
			rel = relativeInside(base, path.real);
			real[anchor] = rel;
		}
		if (pattern.matchesRelative(rel)) return rule;
		// Refusing matches either form; allowing needs the file the call really reaches (links followed).
		if (list === "allow" || path.lexical === path.real) continue;
		rel = lexical[anchor];
		if (rel === NOT_YET) {
			rel = relativeInside(base, path.lexical);
			lexical[anchor] = rel;
		}
		if (pattern.matchesRelative(rel)) return rule;
	}
	return undefined;
}

function matchTool(list: ListRules, name: string): CompiledRule | undefined {
	const exact = list.tools.get(name)?.[0];
	if (exact) return exact;
	return list.mcpServers.find((rule) => rule.target.kind === "mcpServer" && name.startsWith(rule.target.prefix));
}

function isInsideProject(path: CallPath, anchors: PathAnchors): boolean {
	return relativeInside(anchors.projectRoot, path.real) !== undefined;
}

const byRule = (behavior: Verdict["behavior"], rule: CompiledRule, subject: string): Verdict => ({
	behavior,
	reason: { kind: "rule", rule, subject },
});

const byMode = (behavior: Verdict["behavior"], mode: PermissionMode, detail: string): Verdict => ({
	behavior,
	reason: { kind: "mode", mode, detail },
});

/** What a mode does with a file change no rule decided. */
function fileChangeByMode(path: CallPath, policy: PermissionPolicy, mode: PermissionMode): Verdict {
	switch (mode) {
		case "plan":
			return byMode("deny", mode, "plan mode is read-only");
		case "ask":
			return byMode("ask", mode, "ask mode asks before files change");
		case "acceptEdits":
			return isInsideProject(path, policy.anchors)
				? byMode("allow", mode, "accept-edits mode runs edits inside the project")
				: byMode("ask", mode, "the file is outside the project");
		default:
			return byMode("allow", mode, "no rule names it");
	}
}

function evaluatePath(
	subject: Extract<PermissionSubject, { kind: "path" }>,
	policy: PermissionPolicy,
	mode: PermissionMode,
): Verdict {
	const { lists } = policy;
	const shown = subject.path.given;
	const denied = matchPath(lists.deny.paths.get(subject.toolName), subject.path, "deny");
	if (denied) return byRule("deny", denied, shown);
	if (mode === "plan" && subject.writes) return byMode("deny", mode, "plan mode is read-only");
	const asked = matchPath(lists.ask.paths.get(subject.toolName), subject.path, "ask");
	if (asked) return byRule("ask", asked, shown);
	const allowed = matchPath(lists.allow.paths.get(subject.toolName), subject.path, "allow");
	if (allowed) return byRule("allow", allowed, shown);
	if (!subject.writes) return byMode("allow", mode, "reading runs in every mode");
	return fileChangeByMode(subject.path, policy, mode);
}

function evaluateBash(
	subject: Extract<PermissionSubject, { kind: "bash" }>,
	policy: PermissionPolicy,
	mode: PermissionMode,
): Verdict {
	const { lists } = policy;
	const { commands, unknowns } = subject.analysis;
	for (const command of commands) {
		const denied = objectionTo(lists.deny.bash, command);
		if (denied) return byRule("deny", denied.rule, command.text);
	}
	for (const path of subject.writes) {
		const denied = matchPath(lists.deny.paths.get("write"), path, "deny");
		if (denied) return byRule("deny", denied, `> ${path.given}`);
	}
	if (mode === "plan") {
		const changing = commands.find((command) => !command.readOnly);
		if (changing) return byMode("deny", mode, `plan mode is read-only, and "${changing.text}" may change something`);
		if (subject.writes.length > 0)
			return byMode("deny", mode, "plan mode is read-only, and the command writes a file");
		if (unknowns.length > 0) return byMode("deny", mode, `plan mode is read-only, and ${unknowns[0]}`);
	}
	for (const command of commands) {
		const asked = objectionTo(lists.ask.bash, command);
		if (asked) return byRule("ask", asked.rule, command.text);
	}
	for (const path of subject.writes) {
		const asked = matchPath(lists.ask.paths.get("write"), path, "ask");
		if (asked) return byRule("ask", asked, `> ${path.given}`);
	}
	for (const command of commands) {
		const possible = possibleObjectionTo(lists.deny.bash, command) ?? possibleObjectionTo(lists.ask.bash, command);
		if (possible) {
			return {
				behavior: "ask",
				reason: {
					kind: "unknown",
					detail: `"${command.text}" could match ${possible.list} rule ${possible.text} (${possible.source}) once the shell expands it`,
				},
			};
		}
	}
	// What cannot be read asks when some rule could object to it, or the mode asks anyway; `Bash` allowed as a whole
	// with nothing that could object lets it run.
	const allowsAllBash = lists.allow.bash.whole !== undefined && !policy.hasBashObjections;
	if (unknowns.length > 0 && !allowsAllBash && (mode !== "default" || policy.hasBashObjections)) {
		return { behavior: "ask", reason: { kind: "unknown", detail: unknowns[0] as string } };
	}
	if (lists.allow.bash.whole && subject.writes.length === 0)
		return byRule("allow", lists.allow.bash.whole, subject.command);

	let firstRule: { rule: CompiledRule; subject: string } | undefined;
	let unmatched: string | undefined;
	for (const command of commands) {
		const allowed = matchCommandText(lists.allow.bash, command.allowText);
		if (allowed) firstRule ??= { rule: allowed, subject: command.text };
		// Plan mode runs read-only commands (anything else was refused above).
		else if (!(mode === "plan" && command.readOnly)) unmatched ??= command.text;
	}
	for (const path of subject.writes) {
		const allowed = matchPath(lists.allow.paths.get("write"), path, "allow");
		if (allowed) {
			firstRule ??= { rule: allowed, subject: `> ${path.given}` };
			continue;
		}
		const byItsMode = fileChangeByMode(path, policy, mode);
		if (byItsMode.behavior !== "allow") return byItsMode;
	}
	if (unmatched === undefined) {
		if (firstRule) return byRule("allow", firstRule.rule, firstRule.subject);
		return byMode("allow", mode, mode === "plan" ? "plan mode runs read-only commands" : "nothing to run");
	}
	switch (mode) {
		case "ask":
			return byMode("ask", mode, `ask mode asks before commands no rule allows ("${unmatched}")`);
		case "acceptEdits":
			return byMode("ask", mode, `accept-edits mode asks before commands no rule allows ("${unmatched}")`);
		default:
			return byMode("allow", mode, "no rule names it");
	}
}

function evaluateTool(
	subject: Extract<PermissionSubject, { kind: "tool" }>,
	policy: PermissionPolicy,
	mode: PermissionMode,
): Verdict {
	const { lists } = policy;
	const names = subject.outerName ? [subject.name, subject.outerName] : [subject.name];
	for (const name of names) {
		const denied = matchTool(lists.deny, name);
		if (denied) return byRule("deny", denied, subject.name);
	}
	for (const name of names) {
		const asked = matchTool(lists.ask, name);
		if (asked) return byRule("ask", asked, subject.name);
	}
	// Allowing the `mcp` tool allows searching, not every tool it can call.
	const allowed = matchTool(lists.allow, subject.name);
	if (allowed) return byRule("allow", allowed, subject.name);
	if (subject.readOnly) return byMode("allow", mode, "it only searches");
	switch (mode) {
		case "default":
			return byMode("allow", mode, "no rule names it");
		case "plan":
			return byMode("ask", mode, "plan mode cannot tell whether this tool changes anything");
		case "ask":
			return byMode("ask", mode, "ask mode asks before tools no rule allows");
		default:
			return byMode("ask", mode, "accept-edits mode asks before tools that do not edit files");
	}
}

/**
 * Whether the verdict on a bash call depends on what its command says. It does not in yolo mode, nor in default
 * mode when no deny or ask rule is about commands or the files they write: every command runs then, so the
 * session does not parse it (`unreadBashVerdict`). Allow rules alone never make it matter in default mode.
 */
export function bashCommandMatters(policy: PermissionPolicy, mode: PermissionMode): boolean {
	return mode !== "yolo" && (mode !== "default" || policy.hasBashObjections);
}

/**
 * The verdict on a bash call whose command was not read because it does not matter. Throws when it does (a
 * caller's mistake, which the session's check turns into a denial).
 */
export function unreadBashVerdict(command: string, policy: PermissionPolicy, mode: PermissionMode): Verdict {
	if (bashCommandMatters(policy, mode))
		throw new Error(`a bash command must be read in ${mode} mode with these rules`);
	if (mode === "yolo") return byMode("allow", mode, "yolo mode runs every call");
	const whole = policy.lists.allow.bash.whole;
	if (whole) return byRule("allow", whole, command);
	return byMode("allow", mode, "no deny or ask rule is about commands or the files they write");
}

/** The decision for one call. `yolo` decides before any rule. Throws only on a programming error. */
export function evaluatePermission(
	subject: PermissionSubject,
	policy: PermissionPolicy,
	mode: PermissionMode,
): Verdict {
	if (mode === "yolo") return byMode("allow", mode, "yolo mode runs every call");
	const verdict = evaluateSubject(subject, policy, mode);
	// Fail closed: a deny or ask rule that cannot be read might have objected to what would now run.
	const unreadable =
		verdict.behavior === "allow" ? policy.problems.find((problem) => problem.list !== "allow") : undefined;
	if (!unreadable) return verdict;
	return {
		behavior: "ask",
		reason: {
			kind: "unknown",
			detail: `a ${unreadable.list} rule in ${unreadable.source} cannot be read (${unreadable.error}); fix or remove it`,
		},
	};
}

function evaluateSubject(subject: PermissionSubject, policy: PermissionPolicy, mode: PermissionMode): Verdict {
	switch (subject.kind) {
		case "bash":
			return evaluateBash(subject, policy, mode);
		case "path":
			return evaluatePath(subject, policy, mode);
		case "tool":
			return evaluateTool(subject, policy, mode);
	}
}
