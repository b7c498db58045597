// Evaluating permission rules in tests: a real shell parser, a project directory, and one call at a time.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PermissionMode } from "../../src/core/permissions/modes.js";
import {
	compilePolicy,
	evaluatePermission,
	type PermissionPolicy,
	type PermissionRuleSet,
	type Verdict,
} from "../../src/core/permissions/policy.js";
import { analyzeBashCommand, type BashAnalysis } from "../../src/core/permissions/shell-commands.js";
import { loadShellParser, type ShellParser } from "../../src/core/permissions/shell-parser.js";
import { describeCall, type PathContext, type PermissionSubject } from "../../src/core/permissions/subject.js";

export interface PermissionProject extends PathContext {
	root: string;
	cleanup(): void;
}

/** A temp directory holding `project/` (the cwd) and `home/`. */
export function createPermissionProject(): PermissionProject {
	const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-permissions-")));
	const cwd = join(root, "project");
	const home = join(root, "home");
	mkdirSync(cwd, { recursive: true });
	mkdirSync(home, { recursive: true });
	return { root, cwd, projectRoot: cwd, home, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

let parser: ShellParser | undefined;

export async function shellParser(): Promise<ShellParser> {
	parser ??= await loadShellParser();
	return parser;
}

export async function analyze(command: string): Promise<BashAnalysis> {
	return analyzeBashCommand(command, await shellParser());
}

export function policyOf(rules: PermissionRuleSet, context: PathContext, source = "test rules"): PermissionPolicy {
	return compilePolicy([{ name: source, rules }], { projectRoot: context.projectRoot, home: context.home });
}

export async function subjectOf(
	toolName: string,
	args: Record<string, unknown>,
	context: PathContext,
): Promise<PermissionSubject> {
	const loaded = await shellParser();
	return describeCall(toolName, args, context, (command) => analyzeBashCommand(command, loaded));
}

/** The verdict for one call under `rules` in `mode`. */
export async function verdictFor(
	toolName: string,
	args: Record<string, unknown>,
	options: { rules?: PermissionRuleSet; mode?: PermissionMode; context: PathContext },
): Promise<Verdict> {
	const policy = policyOf(options.rules ?? {}, options.context);
	return evaluatePermission(await subjectOf(toolName, args, options.context), policy, options.mode ?? "default");
}

/** `allow`, `ask` or `deny` for a bash command. */
export async function bashBehavior(
	command: string,
	options: { rules?: PermissionRuleSet; mode?: PermissionMode; context: PathContext },
): Promise<Verdict["behavior"]> {
	return (await verdictFor("bash", { command }, options)).behavior;
}
