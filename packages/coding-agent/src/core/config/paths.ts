import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Project-level configuration folder name (`<cwd>/.agent/`). */
export const CONFIG_DIR_NAME = ".agent";

/** Environment variable overriding the user-level directory. */
export const AGENT_DIR_ENV = "AGENT_DIR";

function expandHome(path: string): string {
	if (path === "~") return homedir();
	if (path.startsWith("~/")) return join(homedir(), path.slice(2));
	return path;
}

/** The user-level directory: `$AGENT_DIR` (with `~` expanded) or `~/.agent`. */
export function getAgentDir(env: NodeJS.ProcessEnv = process.env): string {
	const override = env[AGENT_DIR_ENV];
	return override ? resolve(expandHome(override)) : join(homedir(), CONFIG_DIR_NAME);
}

/** `<cwd>/.agent` */
export function getProjectConfigDir(cwd: string): string {
	return join(cwd, CONFIG_DIR_NAME);
}

export function getSettingsPath(agentDir: string = getAgentDir()): string {
	return join(agentDir, "settings.json");
}

export function getAuthPath(agentDir: string = getAgentDir()): string {
	return join(agentDir, "auth.json");
}

export function getModelsPath(agentDir: string = getAgentDir()): string {
	return join(agentDir, "models.json");
}

export function getKeybindingsPath(agentDir: string = getAgentDir()): string {
	return join(agentDir, "keybindings.json");
}

export function getSessionsRoot(agentDir: string = getAgentDir()): string {
	return join(agentDir, "sessions");
}
