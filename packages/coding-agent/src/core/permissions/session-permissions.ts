// A session's permission check: the rules of every source (command line, user and project settings, this
// session, extensions), the mode, asking through whatever the mode bound, and a record of every decision in
// the session file. Runs before each tool call, after the extensions' `tool_call` handlers (which may still
// change the arguments), so it judges exactly what will run. Anything that goes wrong denies the call.
import { homedir } from "node:os";
import type { SettingsManager } from "../config/settings-manager.js";
import type { PermissionDecision } from "../session/entries.js";
import { realpathOfNearestExisting } from "../tools/path-utils.js";
import {
	checkFailedText,
	DISMISSED_TEXT,
	deniedByRuleText,
	deniedByUserText,
	noOneToAskText,
	refusedByModeText,
	unansweredNoticeText,
} from "./messages.js";
import { isPermissionMode, nextPermissionMode, type PermissionMode } from "./modes.js";
import {
	bashCommandMatters,
	compilePolicy,
	evaluatePermission,
	type PermissionPolicy,
	type PermissionRuleSet,
	RULE_LISTS,
	type RuleList,
	type RuleSource,
	unreadBashVerdict,
	type Verdict,
} from "./policy.js";
import type { PermissionAnswer, PermissionPrompt, PermissionRequest } from "./prompt.js";
import { BashSandbox } from "./sandbox.js";
import { analyzeBashCommand, type BashAnalysis } from "./shell-commands.js";
import { loadShellParser, type ShellParser } from "./shell-parser.js";
import { describeCall, type PathContext, type PermissionSubject } from "./subject.js";
import { suggestRules } from "./suggestions.js";

export const COMMAND_LINE_SOURCE = "command line";
export const USER_SETTINGS_SOURCE = "user settings";
export const PROJECT_SETTINGS_SOURCE = "project settings";
export const SESSION_SOURCE = "this session";

/** `--allow`, `--deny`, `--permission-mode`. */
export interface CommandLinePermissions extends PermissionRuleSet {
	mode?: PermissionMode;
}

export interface SessionPermissionsOptions {
	cwd: string;
	settingsManager: SettingsManager;
	commandLine?: CommandLinePermissions;
	/** Writes a decision to the session file. */
	record(decision: PermissionDecision): void;
	/** Default: the user's home directory (`~/` in rules). */
	home?: string;
}

/** A tool call as the check sees it (arguments validated, and as the `tool_call` handlers left them). */
export interface PermissionCall {
	toolCallId: string;
	toolName: string;
	args: Record<string, unknown>;
}

/** One rule in effect, for extensions (`pi.permissions.getRules()`). */
export interface ListedRule {
	list: RuleList;
	rule: string;
	source: string;
}

/** What the rules and the mode decide for a call, before anyone is asked. */
export interface PermissionEvaluation {
	behavior: Verdict["behavior"];
	/** Why, in words: `deny rule Bash(rm:*) (user settings)`, `plan mode is read-only`. */
	reason: string;
	/** Rules that would allow it. */
	suggestedRules: string[];
}

interface Outcome {
	allowed: boolean;
	/** The tool result the model gets when refused. */
	message?: string;
	decision: PermissionDecision;
}

const MAX_CACHED_ANALYSES = 500;

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function reasonOf(verdict: Verdict): string {
	const reason = verdict.reason;
	if (reason.kind === "rule") return `${reason.rule.list} rule ${reason.rule.text} (${reason.rule.source})`;
	return reason.detail;
}

function clip(text: string, max = 200): string {
	const line = text.replace(/\s+/g, " ").trim();
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function summarize(subject: PermissionSubject): string {
	switch (subject.kind) {
		case "bash":
			return `bash: ${clip(subject.command)}`;
		case "path":
			return `${subject.toolName} ${subject.path.given}`;
		case "tool":
			return subject.outerName ? `${subject.outerName}: ${subject.name}` : subject.name;
	}
}

/** A bash call whose command is not read (see `bashCommandMatters`): what the record shows of it. */
function unreadBashSubject(args: Record<string, unknown>): Extract<PermissionSubject, { kind: "bash" }> {
	const command = typeof args.command === "string" ? args.command : "";
	return { kind: "bash", toolName: "bash", command, analysis: { commands: [], writes: [], unknowns: [] }, writes: [] };
}

export class SessionPermissions {
	/** The OS sandbox of the bash tool (`permissions.sandbox` in settings). */
	readonly sandbox: BashSandbox;
	private currentMode: PermissionMode;
	/** Cycling reaches yolo only when the session started in it. */
	private readonly yoloInCycle: boolean;
	private prompt: PermissionPrompt | undefined;
	private unansweredListener: ((line: string) => void) | undefined;
	private readonly modeListeners = new Set<(mode: PermissionMode) => void>();
	private readonly extraSources: RuleSource[] = [];
	private readonly sessionRules: Record<RuleList, string[]> = { allow: [], ask: [], deny: [] };
	private extraVersion = 0;
	private cachedPolicy: { key: readonly unknown[]; policy: PermissionPolicy } | undefined;
	private readonly analyses = new Map<string, BashAnalysis>();
	private parser: ShellParser | undefined;
	private readonly paths: PathContext;

	constructor(private readonly options: SessionPermissionsOptions) {
		const fromSettings = options.settingsManager.getDefaultPermissionMode();
		this.currentMode = options.commandLine?.mode ?? (isPermissionMode(fromSettings) ? fromSettings : "default");
		this.yoloInCycle = this.currentMode === "yolo";
		this.sandbox = new BashSandbox(options.settingsManager);
		this.paths = {
			cwd: options.cwd,
			projectRoot: realpathOfNearestExisting(options.cwd),
			home: options.home ?? homedir(),
		};
	}

	// ── mode ────────────────────────────────────────────────────────────────────────────────────────────

	get mode(): PermissionMode {
		return this.currentMode;
	}

	setMode(mode: PermissionMode): void {
		if (!isPermissionMode(mode)) throw new Error(`Unknown permission mode: ${String(mode)}`);
		if (mode === this.currentMode) return;
		this.currentMode = mode;
		for (const listener of [...this.modeListeners]) listener(mode);
	}

	/** The next mode of the terminal UI's cycle (default → acceptEdits → plan → ask → default). */
	cycleMode(): PermissionMode {
		this.setMode(nextPermissionMode(this.currentMode, this.yoloInCycle));
		return this.currentMode;
	}

	/** Returns the unsubscribe function. */
	onModeChange(listener: (mode: PermissionMode) => void): () => void {
		this.modeListeners.add(listener);
		return () => this.modeListeners.delete(listener);
	}

	// ── how to ask ──────────────────────────────────────────────────────────────────────────────────────

	/** The mode's way of asking; without one (print mode, an SDK embedder) a call that would ask is refused. */
	setPrompt(prompt: PermissionPrompt | undefined): void {
		this.prompt = prompt;
	}

	get canAsk(): boolean {
		return this.prompt !== undefined;
	}

	/** Told (one line) about every call refused because no one could answer (print mode writes it to stderr). */
	onUnanswered(listener: ((line: string) => void) | undefined): void {
		this.unansweredListener = listener;
	}

	// ── rules ───────────────────────────────────────────────────────────────────────────────────────────

	/** Rules for the rest of the session (not saved). Returns the function that removes them again. */
	addRules(rules: PermissionRuleSet, source = SESSION_SOURCE): () => void {
		const added: RuleSource = {
			name: source,
			rules: { allow: [...(rules.allow ?? [])], ask: [...(rules.ask ?? [])], deny: [...(rules.deny ?? [])] },
		};
		if (source === SESSION_SOURCE) {
			for (const list of RULE_LISTS) this.sessionRules[list].push(...(added.rules[list] ?? []));
		} else {
			this.extraSources.push(added);
		}
		this.extraVersion++;
		return () => {
			if (source === SESSION_SOURCE) {
				for (const list of RULE_LISTS) {
					for (const rule of added.rules[list] ?? []) {
						const index = this.sessionRules[list].indexOf(rule);
						if (index >= 0) this.sessionRules[list].splice(index, 1);
					}
				}
			} else {
				const index = this.extraSources.indexOf(added);
				if (index >= 0) this.extraSources.splice(index, 1);
			}
			this.extraVersion++;
		};
	}

	/** Every rule in effect, deny first, with its source. */
	listRules(): ListedRule[] {
		const listed: ListedRule[] = [];
		for (const list of RULE_LISTS) {
			for (const source of this.sources()) {
				for (const rule of source.rules[list] ?? []) listed.push({ list, rule, source: source.name });
			}
		}
		return listed;
	}

	/** Rules that do not parse (ignored), as warnings. */
	ruleProblems(): string[] {
		return this.policy().problems.map(
			(problem) => `Ignored permission rule in ${problem.source} (${problem.list}): ${problem.error}`,
		);
	}

	/** What the user should know at start: rules that are ignored, and whether the sandbox is on. */
	notices(): string[] {
		const sandbox = this.sandbox.notice();
		return [...this.ruleProblems(), ...(sandbox ? [sandbox] : [])];
	}

	// ── checking ────────────────────────────────────────────────────────────────────────────────────────

	/** What rules and mode decide for a call, without asking anyone or recording anything. */
	async evaluate(toolName: string, args: Record<string, unknown>): Promise<PermissionEvaluation> {
		const subject = await this.describe(toolName, args);
		const policy = this.policy();
		const verdict = evaluatePermission(subject, policy, this.currentMode);
		return { behavior: verdict.behavior, reason: reasonOf(verdict), suggestedRules: suggestRules(subject, policy) };
	}

	/** Decides a call before it runs: undefined to run it, else the text the model gets instead of a result. */
	async check(call: PermissionCall, signal?: AbortSignal): Promise<string | undefined> {
		const mode = this.currentMode;
		let outcome: Outcome;
		try {
			const policy = this.policy();
			let subject: PermissionSubject;
			let verdict: Verdict;
			if (call.toolName === "bash" && !bashCommandMatters(policy, mode)) {
				// Nothing could object to any command: it is not parsed (nor the parser loaded).
				const unread = unreadBashSubject(call.args);
				subject = unread;
				verdict = unreadBashVerdict(unread.command, policy, mode);
			} else {
				subject = await this.describe(call.toolName, call.args);
				verdict = evaluatePermission(subject, policy, mode);
			}
			outcome =
				verdict.behavior === "ask"
					? await this.ask(call, subject, verdict, policy, signal)
					: this.decided(call, subject, verdict, mode);
		} catch (error) {
			// Fail closed: a check that cannot finish never lets the call through.
			const message = errorText(error);
			outcome = {
				allowed: false,
				message: checkFailedText(message),
				decision: { ...this.base(call, mode), decision: "deny", decidedBy: "error", reason: message },
			};
		}
		try {
			this.options.record(outcome.decision);
		} catch {
			// The session file reports its own write failures; the decision stands.
		}
		return outcome.allowed ? undefined : outcome.message;
	}

	private base(
		call: PermissionCall,
		mode: PermissionMode,
	): Pick<PermissionDecision, "toolCallId" | "toolName" | "mode"> {
		return { toolCallId: call.toolCallId, toolName: call.toolName, mode };
	}

	private decided(call: PermissionCall, subject: PermissionSubject, verdict: Verdict, mode: PermissionMode): Outcome {
		const allowed = verdict.behavior === "allow";
		const reason = verdict.reason;
		const decision: PermissionDecision = {
			...this.base(call, mode),
			decision: allowed ? "allow" : "deny",
			decidedBy: reason.kind === "rule" ? "rule" : "mode",
			...(reason.kind === "rule"
				? { rule: reason.rule.text, ruleSource: reason.rule.source, subject: clip(reason.subject) }
				: { subject: clip(summarize(subject)), reason: reason.detail }),
		};
		if (allowed) return { allowed, decision };
		const message =
			reason.kind === "rule"
				? deniedByRuleText(clip(reason.subject), reason.rule.text, reason.rule.source)
				: refusedByModeText(reason.detail);
		return { allowed, message, decision };
	}

	private async ask(
		call: PermissionCall,
		subject: PermissionSubject,
		verdict: Verdict,
		policy: PermissionPolicy,
		signal: AbortSignal | undefined,
	): Promise<Outcome> {
		const reason = reasonOf(verdict);
		const suggestedRules = suggestRules(subject, policy);
		const summary = summarize(subject);
		const asked: PermissionDecision = {
			...this.base(call, this.currentMode),
			decision: "deny",
			decidedBy: "user",
			subject: clip(summary),
			reason: `asked: ${reason}`,
			...(verdict.reason.kind === "rule"
				? { rule: verdict.reason.rule.text, ruleSource: verdict.reason.rule.source }
				: {}),
		};
		const prompt = this.prompt;
		if (!prompt) {
			const suggested = suggestedRules.length === 1 ? suggestedRules[0] : undefined;
			this.unansweredListener?.(unansweredNoticeText(summary, reason, suggested));
			return {
				allowed: false,
				message: noOneToAskText(reason, suggested),
				decision: { ...asked, decidedBy: "unanswered" },
			};
		}
		const request: PermissionRequest = {
			toolCallId: call.toolCallId,
			toolName: call.toolName,
			args: call.args,
			summary,
			reason,
			suggestedRules,
			alwaysScope: this.options.settingsManager.isProjectTrusted() ? "project" : "user",
		};
		const answer: PermissionAnswer | undefined = await prompt(request, signal);
		if (!answer) return { allowed: false, message: DISMISSED_TEXT, decision: asked };
		if (answer.decision === "allow") {
			if (answer.scope !== "once")
				this.remember("allow", suggestedRules, answer.scope === "always", request.alwaysScope);
			return { allowed: true, decision: { ...asked, decision: "allow", scope: answer.scope } };
		}
		if (answer.scope === "always") this.remember("deny", suggestedRules, true, request.alwaysScope);
		return {
			allowed: false,
			message: deniedByUserText(answer.reason),
			decision: {
				...asked,
				scope: answer.scope ?? "once",
				...(answer.reason?.trim() ? { userReason: answer.reason.trim() } : {}),
			},
		};
	}

	/** "For this session" adds the rules here; "always" also saves them (project settings once trusted). */
	private remember(list: "allow" | "deny", rules: readonly string[], save: boolean, scope: "project" | "user"): void {
		if (rules.length === 0) return;
		this.addRules({ [list]: rules });
		if (!save) return;
		for (const rule of rules) {
			this.options.settingsManager.addPermissionRule(scope === "project" ? "project" : "global", list, rule);
		}
	}

	private async describe(toolName: string, args: Record<string, unknown>): Promise<PermissionSubject> {
		if (toolName === "bash" && !this.parser) this.parser = await loadShellParser();
		return describeCall(toolName, args, this.paths, (command) => this.analyze(command));
	}

	private analyze(command: string): BashAnalysis {
		const cached = this.analyses.get(command);
		if (cached) return cached;
		if (!this.parser) throw new Error("the shell parser is not loaded");
		const analysis = analyzeBashCommand(command, this.parser);
		if (this.analyses.size >= MAX_CACHED_ANALYSES) {
			const oldest = this.analyses.keys().next().value;
			if (oldest !== undefined) this.analyses.delete(oldest);
		}
		this.analyses.set(command, analysis);
		return analysis;
	}

	private sources(): RuleSource[] {
		const settings = this.options.settingsManager;
		const sources: RuleSource[] = [];
		const commandLine = this.options.commandLine;
		if (commandLine) sources.push({ name: COMMAND_LINE_SOURCE, rules: commandLine });
		const project = settings.getPermissionSettings("project");
		if (project) sources.push({ name: PROJECT_SETTINGS_SOURCE, rules: project });
		const user = settings.getPermissionSettings("global");
		if (user) sources.push({ name: USER_SETTINGS_SOURCE, rules: user });
		sources.push({ name: SESSION_SOURCE, rules: this.sessionRules }, ...this.extraSources);
		return sources;
	}

	/** The compiled rules; compiled again when a source changed (settings values change by replacement). */
	private policy(): PermissionPolicy {
		const settings = this.options.settingsManager;
		const key = [
			settings.getPermissionSettings("global"),
			settings.getPermissionSettings("project"),
			this.extraVersion,
		];
		const cached = this.cachedPolicy;
		if (cached?.key.every((part, index) => part === key[index])) return cached.policy;
		const policy = compilePolicy(this.sources(), { projectRoot: this.paths.projectRoot, home: this.paths.home });
		this.cachedPolicy = { key, policy };
		return policy;
	}
}
