// Project trust. Extensions are code that runs with the user's permissions; a repository's `.agent/` (its
// extensions directory, or extensions and packages named in its settings.json) must not run just because
// someone cloned it and started the agent there. Project extensions wait until the user trusts the project:
// by answering the prompt of an interactive start, or with `--trust-project`. The answer is remembered per
// project path in `<agentDir>/trusted-projects.json`. User-level extensions and `-e` paths load as before.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { createInterface } from "node:readline/promises";
import { realPathOf } from "../resources/path-probes.js";
import type { ExtensionPath } from "../resources/resource-loader.js";

export const TRUSTED_PROJECTS_FILE_NAME = "trusted-projects.json";

export const TRUST_PROJECT_FLAG = "--trust-project";

export function getTrustedProjectsPath(agentDir: string): string {
	return join(agentDir, TRUSTED_PROJECTS_FILE_NAME);
}

interface TrustedProjectsFile {
	trusted: string[];
}

/** The trusted project paths; an unreadable or malformed file trusts nothing. */
export function readTrustedProjects(agentDir: string): string[] {
	try {
		const parsed: unknown = JSON.parse(readFileSync(getTrustedProjectsPath(agentDir), "utf8"));
		const trusted = (parsed as Partial<TrustedProjectsFile> | null)?.trusted;
		return Array.isArray(trusted) ? trusted.filter((entry): entry is string => typeof entry === "string") : [];
	} catch {
		return [];
	}
}

export function isProjectTrusted(cwd: string, agentDir: string): boolean {
	return readTrustedProjects(agentDir).includes(realPathOf(cwd));
}

/** Remembers the project (its real path) as trusted; written atomically, readable only by the user. */
export function trustProject(cwd: string, agentDir: string): void {
	const project = realPathOf(cwd);
	const trusted = readTrustedProjects(agentDir);
	if (trusted.includes(project)) return;
	const path = getTrustedProjectsPath(agentDir);
	mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
	const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
	writeFileSync(temp, `${JSON.stringify({ trusted: [...trusted, project] }, null, 2)}\n`, { mode: 0o600 });
	renameSync(temp, path);
}

/** Extensions contributed by the project's own configuration (as opposed to the user's or the command line). */
export function isProjectExtension(extension: ExtensionPath): boolean {
	return extension.scope === "project";
}

/** How a skipped-extensions notice names a file: relative to the project when inside it. */
function displayPath(path: string, cwd: string): string {
	const rel = relative(cwd, path);
	return rel && !rel.startsWith("..") ? rel : path;
}

export function untrustedProjectNotice(cwd: string, skipped: readonly string[], agentDir: string): string {
	const files = skipped.map((path) => displayPath(path, cwd)).join(", ");
	return (
		`Skipped ${skipped.length} project extension(s) because ${cwd} is not a trusted project: ${files}\n` +
		`To trust it, start agent there interactively and accept, or run with ${TRUST_PROJECT_FLAG} ` +
		`(remembered in ${getTrustedProjectsPath(agentDir)}).`
	);
}

export interface TrustPromptOptions {
	input: NodeJS.ReadableStream;
	output: NodeJS.WritableStream;
	cwd: string;
	/** The project extension files waiting for trust. */
	files: readonly string[];
}

/** Asks on a terminal whether to trust the project; only `y` / `yes` trusts. */
export async function promptProjectTrust(options: TrustPromptOptions): Promise<boolean> {
	const lines = [
		`${options.cwd} has extensions that would run with your permissions:`,
		...options.files.map((file) => `  ${displayPath(file, options.cwd)}`),
		"",
	];
	options.output.write(`${lines.join("\n")}\n`);
	const readline = createInterface({ input: options.input, output: options.output, terminal: false });
	try {
		return await new Promise<boolean>((resolve) => {
			// Input that ends without an answer (Ctrl+D, a closed pipe) is a no.
			readline.once("close", () => resolve(false));
			readline.question("Trust this project and load them? [y/N] ").then(
				(answer) => resolve(/^\s*y(es)?\s*$/i.test(answer)),
				() => resolve(false),
			);
		});
	} finally {
		readline.close();
	}
}

export interface ProjectTrustOptions {
	cwd: string;
	agentDir: string;
	extensions: readonly ExtensionPath[];
	/** `--trust-project`: trust (and remember) without asking. */
	trustProjectFlag?: boolean;
	/** Asks the user (interactive start only); without it, an untrusted project's extensions are skipped. */
	prompt?: (files: readonly string[]) => Promise<boolean>;
}

export interface ProjectTrustDecision {
	trusted: boolean;
	/** The paths to load, in order. */
	allowed: string[];
	/** Project extensions left out because the project is not trusted. */
	skipped: string[];
	/** What to tell the user about `skipped` (stderr, or a notice in the interactive mode). */
	notice?: string;
}

/** Decides which extensions may load; remembers the project when the flag or the user trusts it. */
export async function decideProjectTrust(options: ProjectTrustOptions): Promise<ProjectTrustDecision> {
	const project = options.extensions.filter(isProjectExtension).map((extension) => extension.path);
	const all = options.extensions.map((extension) => extension.path);
	if (project.length === 0)
		return { trusted: isProjectTrusted(options.cwd, options.agentDir), allowed: all, skipped: [] };
	let trusted = isProjectTrusted(options.cwd, options.agentDir);
	if (!trusted && (options.trustProjectFlag || (options.prompt && (await options.prompt(project))))) {
		trustProject(options.cwd, options.agentDir);
		trusted = true;
	}
	if (trusted) return { trusted, allowed: all, skipped: [] };
	const skipped = new Set(project);
	return {
		trusted,
		allowed: all.filter((path) => !skipped.has(path)),
		skipped: project,
		notice: untrustedProjectNotice(options.cwd, project, options.agentDir),
	};
}
