// `<agentDir>/keybindings.json` (docs/keybindings.md): action names mapped to a key id or an array of key ids; an
// entry replaces that action's defaults, `[]` unbinds it. Invalid JSON leaves the defaults in place.
import { type KeyId, parseKeybindingsConfig } from "@agent/tui";
import { getKeybindingsPath } from "./config/paths.js";
import { AppKeybindings, isAppAction, isEditorAction } from "./keybindings.js";
import { readSmallTextFileSync } from "./tools/regular-file.js";

export interface LoadedKeybindings {
	keybindings: AppKeybindings;
	/** Problems worth telling the user: bad JSON, unknown actions or key ids, keys bound twice. */
	warnings: string[];
}

/** Parses keybindings.json text; `undefined` text (no file) gives the defaults. */
export function parseKeybindingsFile(
	text: string | undefined,
	path: string,
	options: { platform?: NodeJS.Platform; env?: Record<string, string | undefined> } = {},
): LoadedKeybindings {
	if (text === undefined) return { keybindings: new AppKeybindings({}, options), warnings: [] };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return {
			keybindings: new AppKeybindings({}, options),
			warnings: [`${path}: invalid JSON (${reason}); using the default key bindings`],
		};
	}
	const { config, errors } = parseKeybindingsConfig(value);
	const warnings = errors.map((error) => `${path}: ${error}`);
	const known: Record<string, KeyId[]> = {};
	for (const [action, keys] of Object.entries(config)) {
		if (isAppAction(action) || isEditorAction(action)) known[action] = keys;
		else warnings.push(`${path}: unknown action "${action}"`);
	}
	const keybindings = new AppKeybindings(known, options);
	for (const conflict of keybindings.findConflicts()) {
		warnings.push(
			`${path}: "${conflict.key}" is bound to ${conflict.actions.join(" and ")}; ${conflict.actions[0]} takes it`,
		);
	}
	return { keybindings, warnings };
}

/** Reads `<agentDir>/keybindings.json` (a missing file means the defaults). */
export function loadKeybindings(
	agentDir: string,
	options: { platform?: NodeJS.Platform; env?: Record<string, string | undefined> } = {},
): LoadedKeybindings {
	const path = getKeybindingsPath(agentDir);
	let text: string | undefined;
	try {
		text = readSmallTextFileSync(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
			const reason = error instanceof Error ? error.message : String(error);
			return { keybindings: new AppKeybindings({}, options), warnings: [`${path}: cannot read (${reason})`] };
		}
	}
	return parseKeybindingsFile(text, path, options);
}
