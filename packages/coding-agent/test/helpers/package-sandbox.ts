// The world of a package test: the built `agent` in a CLI sandbox whose npm talks to a local registry (with a
// cache and configuration of its own) and whose git clones local bare repositories; nothing reaches the network.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type CliResult, type CliSandbox, createCliSandbox, runCli } from "./cli-sandbox.js";
import { GitRepos } from "./git-repos.js";
import { NpmRegistry, type PublishedVersion } from "./npm-registry.js";

/** npm and git are slow on a busy machine: package commands get a generous safety net. */
export const PACKAGE_COMMAND_TIMEOUT_MS = 120_000;
/** A package test runs several of them (set with `vi.setConfig` at the top of the file). */
export const PACKAGE_TEST_TIMEOUT_MS = 300_000;

export interface PackageSandbox extends CliSandbox {
	repos: GitRepos;
	/** Runs `agent <args>` in the sandbox (online: AGENT_OFFLINE is unset). */
	agent(args: string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<CliResult>;
	/** The `packages` of the user (or project) settings file as written. */
	packages(scope?: "user" | "project"): unknown[];
	/** Files and directories below `dir`, relative, sorted (empty when it does not exist). */
	tree(dir: string): string[];
}

/** The registry of a test file: started before its first test, closed after its last. */
export function startRegistryForFile(): { current: NpmRegistry } {
	const holder = {} as { current: NpmRegistry };
	beforeAll(async () => {
		holder.current = await NpmRegistry.start();
	});
	afterAll(async () => {
		await holder.current?.close();
	});
	return holder;
}

export function createPackageSandbox(
	registry: NpmRegistry,
	options: { modelServerUrl?: string; env?: NodeJS.ProcessEnv } = {},
): PackageSandbox {
	const base = createCliSandbox({ ...(options.modelServerUrl ? { modelServerUrl: options.modelServerUrl } : {}) });
	const repos = GitRepos.create(join(base.root, "repos"));
	const env: NodeJS.ProcessEnv = {
		...base.env,
		AGENT_OFFLINE: "",
		...registry.npmEnv(join(base.root, "npm-cache")),
		...repos.env(),
		...options.env,
	};
	const sandbox: PackageSandbox = {
		...base,
		env,
		repos,
		agent: (args, runOptions = {}) =>
			runCli(sandbox, args, {
				timeoutMs: PACKAGE_COMMAND_TIMEOUT_MS,
				...(runOptions.cwd ? { cwd: runOptions.cwd } : {}),
				...(runOptions.env ? { env: runOptions.env } : {}),
			}),
		packages: (scope = "user") => {
			const path =
				scope === "user" ? join(base.agentDir, "settings.json") : join(base.cwd, ".agent", "settings.json");
			if (!existsSync(path)) return [];
			return (JSON.parse(readFileSync(path, "utf8")) as { packages?: unknown[] }).packages ?? [];
		},
		tree: (dir) => (existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).sort() : []),
	};
	return sandbox;
}

const skillFile = (name: string, description: string) =>
	`---\nname: ${name}\ndescription: ${description}\n---\nDo the ${name} thing.\n`;

/** An npm package with one skill in the conventional `skills/` directory. */
export function skillPackage(name: string, version: string, skill: string, extra: Partial<PublishedVersion> = {}) {
	return {
		name,
		version,
		...extra,
		files: {
			[`skills/${skill}/SKILL.md`]: skillFile(skill, `The ${skill} skill, version ${version}`),
			...extra.files,
		},
	} satisfies PublishedVersion;
}

/** Files of a package (npm tarball or git repository) with one skill. */
export function skillFiles(skill: string, description = `The ${skill} skill`): Record<string, string> {
	return { [`skills/${skill}/SKILL.md`]: skillFile(skill, description) };
}
