// git packages: cloned with the real `git` into a staging directory and checked out at their `@ref`; updated by
// fetching in place (which leaves the working tree alone) and, when the branch moved, rebuilding a staged copy.
import { cpSync } from "node:fs";
import { join } from "node:path";
import type { ParsedPackageSource } from "../resources/package-sources.js";
import { CommandFailedError, runCommand } from "./run-command.js";

export type GitSource = Extract<ParsedPackageSource, { type: "git" }>;

export class GitStepError extends Error {
	constructor(
		message: string,
		readonly step: "clone" | "checkout" | "fetch",
	) {
		super(message);
		this.name = "GitStepError";
	}
}

async function git(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; label: string }) {
	return runCommand(["git", ...args], options);
}

async function step<T>(kind: GitStepError["step"], run: () => Promise<T>): Promise<T> {
	try {
		return await run();
	} catch (error) {
		// git itself missing says so; no advice about the repository would help.
		if (error instanceof CommandFailedError && error.exitCode === null) throw error;
		throw new GitStepError(error instanceof Error ? error.message : String(error), kind);
	}
}

/** Clones `source` into `<stagingDir>/repo` and checks out its ref; resolves with the clone's directory. */
export async function stageGitClone(source: GitSource, stagingDir: string, env?: NodeJS.ProcessEnv): Promise<string> {
	const dir = join(stagingDir, "repo");
	const options = env ? { env } : {};
	await step("clone", () =>
		git(["clone", "--quiet", source.repo, dir], { ...options, label: `git clone ${source.repo}` }),
	);
	if (source.ref) {
		const ref = source.ref;
		await step("checkout", () =>
			git(["checkout", "--quiet", ref, "--"], { ...options, cwd: dir, label: `git checkout ${ref}` }),
		);
	}
	return dir;
}

/**
 * Fetches the clone's remote and says which commit an update would move to: the upstream of its branch, else
 * the remote's default branch. Undefined when the clone is already there.
 */
export async function findGitUpdate(dir: string, env?: NodeJS.ProcessEnv): Promise<string | undefined> {
	const options = { cwd: dir, ...(env ? { env } : {}) };
	await step("fetch", () => git(["fetch", "--prune", "--quiet", "origin"], { ...options, label: "git fetch" }));
	const revParse = async (rev: string) =>
		(
			await git(["rev-parse", "--verify", "--quiet", `${rev}^{commit}`], { ...options, label: "git rev-parse" })
		).trim();
	const head = await revParse("HEAD");
	let target: string;
	try {
		target = await revParse("@{upstream}");
	} catch {
		await git(["remote", "set-head", "origin", "--auto"], { ...options, label: "git remote set-head" }).catch(
			() => {},
		);
		target = await step("fetch", () => revParse("origin/HEAD"));
	}
	return target === head ? undefined : target;
}

/** A copy of the clone at `dir` in `<stagingDir>/repo`, moved to `commit`, with untracked files removed. */
export async function stageGitUpdate(
	dir: string,
	commit: string,
	stagingDir: string,
	env?: NodeJS.ProcessEnv,
): Promise<string> {
	const staged = join(stagingDir, "repo");
	cpSync(dir, staged, { recursive: true, verbatimSymlinks: true });
	const options = { cwd: staged, ...(env ? { env } : {}) };
	await git(["reset", "--hard", "--quiet", commit], { ...options, label: "git reset" });
	await git(["clean", "-fdxq"], { ...options, label: "git clean" });
	return staged;
}
