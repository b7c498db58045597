// Which projects the user trusts. A repository's `.agent/` (its extensions, and the settings that run code or
// decide what runs, `PROJECT_SETTINGS_NEEDING_TRUST`) must not act just because someone cloned it and started the
// agent there. The user trusts a project by answering the prompt of an interactive start, or with
// `--trust-project`; the answer is remembered per project path in `<agentDir>/trusted-projects.json`.
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { replaceFileAtomically } from "../tools/atomic-write.js";

export const TRUSTED_PROJECTS_FILE_NAME = "trusted-projects.json";

export const TRUST_PROJECT_FLAG = "--trust-project";

export function getTrustedProjectsPath(agentDir: string): string {
	return join(agentDir, TRUSTED_PROJECTS_FILE_NAME);
}

interface TrustedProjectsFile {
	trusted: string[];
}

/** The project's real path (symbolic links resolved), the key it is remembered by. */
function projectKey(cwd: string): string {
	try {
		return realpathSync(cwd);
	} catch {
		return cwd;
	}
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
	return readTrustedProjects(agentDir).includes(projectKey(cwd));
}

/** Remembers the project (its real path) as trusted; written atomically, readable only by the user. */
export function trustProject(cwd: string, agentDir: string): void {
	const project = projectKey(cwd);
	const trusted = readTrustedProjects(agentDir);
	if (trusted.includes(project)) return;
	const path = getTrustedProjectsPath(agentDir);
	mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
	replaceFileAtomically(path, `${JSON.stringify({ trusted: [...trusted, project] }, null, 2)}\n`, 0o600);
}
