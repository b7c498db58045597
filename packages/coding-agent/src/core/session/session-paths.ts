// Where session files live (docs/session-format.md "Where they live").
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { getAgentDir, getSessionsRoot } from "../config/paths.js";

/**
 * The per-cwd folder name: one leading `/` or `\` removed, every `/`, `\` and `:` replaced by `-`, wrapped
 * in `--` (`/home/alice/proj` → `--home-alice-proj--`).
 */
export function encodeSessionDirName(cwd: string): string {
	const withoutRoot = cwd.startsWith("/") || cwd.startsWith("\\") ? cwd.slice(1) : cwd;
	return `--${withoutRoot.replace(/[/\\:]/g, "-")}--`;
}

/** `<agentDir>/sessions/--<encoded cwd>--`, without creating it. */
export function getSessionDirForCwd(cwd: string, agentDir: string = getAgentDir()): string {
	return join(getSessionsRoot(agentDir), encodeSessionDirName(cwd));
}

/**
 * The default session directory for `cwd`, created eagerly as the reference does. A directory that cannot be
 * created is not an error here: writing the session reports it later and the session keeps working in memory.
 */
export function getDefaultSessionDir(cwd: string, agentDir: string = getAgentDir()): string {
	const dir = getSessionDirForCwd(cwd, agentDir);
	try {
		mkdirSync(dir, { recursive: true });
	} catch {
		// Reported on first write.
	}
	return dir;
}
