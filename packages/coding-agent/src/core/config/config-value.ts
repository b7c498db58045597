// Resolving credential strings of auth.json and models.json (docs/providers.md "`~/.agent/auth.json`: stored keys"): `!command`, an environment
// variable name, or a literal.
import { execSync } from "node:child_process";

const COMMAND_TIMEOUT_MS = 10_000;

/** `!command` results (including "no value") for the life of the process, keyed by the full string. */
const commandResults = new Map<string, string | undefined>();

function runCommand(command: string): string | undefined {
	try {
		const stdout = execSync(command, {
			encoding: "utf8",
			stdio: ["ignore", "pipe", "ignore"],
			timeout: COMMAND_TIMEOUT_MS,
			windowsHide: true,
		});
		const value = stdout.trim();
		return value.length > 0 ? value : undefined;
	} catch {
		// Non-zero exit, timeout or spawn failure: no value (and no fall-through to other sources).
		return undefined;
	}
}

/**
 * The value of a config string:
 * 1. `!cmd` → trimmed stdout of `cmd` run by the system shell (10 s timeout; empty output, failure or timeout
 *    give undefined), run once per process;
 * 2. the name of a non-empty environment variable → its value (read every time);
 * 3. otherwise the string itself.
 */
export function resolveConfigValue(value: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
	if (value.startsWith("!")) {
		if (commandResults.has(value)) return commandResults.get(value);
		const result = runCommand(value.slice(1));
		commandResults.set(value, result);
		return result;
	}
	const fromEnv = env[value];
	if (fromEnv !== undefined && fromEnv.length > 0) return fromEnv;
	return value.length > 0 ? value : undefined;
}

/** Each header value resolved; headers that resolve to nothing are dropped; none left → undefined. */
export function resolveHeaders(
	headers: Readonly<Record<string, string>> | undefined,
	env: NodeJS.ProcessEnv = process.env,
): Record<string, string> | undefined {
	if (!headers) return undefined;
	const resolved: Record<string, string> = {};
	for (const [name, raw] of Object.entries(headers)) {
		const value = resolveConfigValue(raw, env);
		if (value !== undefined) resolved[name] = value;
	}
	return Object.keys(resolved).length > 0 ? resolved : undefined;
}

/** Forgets every cached `!command` result, so the next resolution runs the commands again. */
export function clearConfigValueCache(): void {
	commandResults.clear();
}

/** Forgets cached `!command` API keys (they are config values; this clears the same cache). */
export function clearApiKeyCache(): void {
	clearConfigValueCache();
}
