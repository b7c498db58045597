// What wins when extensions register the same name (docs/extensions.md "Loading", "Commands, shortcuts, flags, message renderers"): tools, commands
// and flags — the first in load order, later ones reported; shortcuts — reserved built-in keys are protected,
// other built-in keys and earlier extensions' keys are overridden with a warning.
import type { KeyId } from "@agent/tui";
import type { Extension, RegisteredCommand, RegisteredFlag, RegisteredShortcut, RegisteredTool } from "./types.js";

/** The interactive mode's slash commands (docs/cli.md "Interactive commands"), and ours (`mcp`). */
export const BUILTIN_SLASH_COMMAND_NAMES: readonly string[] = [
	"settings",
	"model",
	"scoped-models",
	"export",
	"share",
	"copy",
	"name",
	"session",
	"changelog",
	"hotkeys",
	"fork",
	"tree",
	"login",
	"logout",
	"new",
	"compact",
	"resume",
	"reload",
	"quit",
	"mcp",
];

export function builtinCommandConflictText(name: string, path: string): string {
	return `Extension command '${name}' from ${path} conflicts with built-in commands. Skipping.`;
}

export function commandConflictText(name: string, path: string, otherPath: string): string {
	return `Extension command '${name}' from ${path} conflicts with ${otherPath}. Skipping.`;
}

export function toolConflictText(name: string, path: string, otherPath: string): string {
	return `Extension tool '${name}' from ${path} conflicts with ${otherPath}. Skipping.`;
}

export function flagConflictText(name: string, path: string, otherPath: string): string {
	return `Extension flag '--${name}' from ${path} conflicts with ${otherPath}. Skipping.`;
}

export function reservedShortcutConflictText(key: string, path: string): string {
	return `Extension shortcut '${key}' from ${path} conflicts with built-in shortcut. Skipping.`;
}

export function builtinShortcutOverrideText(key: string, path: string, action: string): string {
	return `Extension shortcut '${key}' from ${path} overrides the built-in shortcut for '${action}'.`;
}

export function shortcutOverrideText(key: string, path: string, otherPath: string): string {
	return `Extension shortcut '${key}' from ${path} overrides the one from ${otherPath}.`;
}

export interface Conflict {
	path: string;
	message: string;
}

/** Each name's first registration in load order; every later one is a conflict naming the first. */
function firstWins<T extends { extensionPath: string }>(
	extensions: readonly Extension[],
	pick: (extension: Extension) => Iterable<[string, T]>,
	conflictText: (name: string, path: string, otherPath: string) => string,
	conflicts: Conflict[],
): Map<string, T> {
	const winners = new Map<string, T>();
	for (const extension of extensions) {
		for (const [name, registration] of pick(extension)) {
			const first = winners.get(name);
			if (first) {
				conflicts.push({
					path: registration.extensionPath,
					message: conflictText(name, registration.extensionPath, first.extensionPath),
				});
				continue;
			}
			winners.set(name, registration);
		}
	}
	return winners;
}

export function resolveTools(extensions: readonly Extension[], conflicts: Conflict[]): Map<string, RegisteredTool> {
	return firstWins(extensions, (extension) => extension.tools, toolConflictText, conflicts);
}

export function resolveFlags(extensions: readonly Extension[], conflicts: Conflict[]): Map<string, RegisteredFlag> {
	return firstWins(extensions, (extension) => extension.flags, flagConflictText, conflicts);
}

export function resolveCommands(
	extensions: readonly Extension[],
	builtInNames: readonly string[],
	conflicts: Conflict[],
): Map<string, RegisteredCommand> {
	const reserved = new Set(builtInNames);
	const allowed = (extension: Extension): [string, RegisteredCommand][] => {
		const kept: [string, RegisteredCommand][] = [];
		for (const [name, command] of extension.commands) {
			if (reserved.has(name)) {
				conflicts.push({
					path: command.extensionPath,
					message: builtinCommandConflictText(name, command.extensionPath),
				});
			} else kept.push([name, command]);
		}
		return kept;
	};
	return firstWins(extensions, allowed, commandConflictText, conflicts);
}

/**
 * `Ctrl+Shift+P`, `shift+ctrl+p` → `ctrl+shift+p`: lower case, the known modifiers in the order the TUI matches
 * them (`matchesKey`), unknown ones dropped.
 */
export function normalizeKeyId(key: string): string {
	const parts = key.toLowerCase().split("+");
	let base = parts.pop() ?? "";
	if (base === "" && parts.length > 0 && parts[parts.length - 1] === "") {
		parts.pop();
		base = "+";
	}
	const order = ["ctrl", "alt", "shift", "super"];
	const modifiers = order.filter((modifier) => parts.includes(modifier));
	const aliases: Record<string, string> = { esc: "escape", return: "enter" };
	return [...modifiers, aliases[base] ?? base].join("+");
}

export interface ResolvedShortcuts {
	/** Normalized key id → the shortcut that handles it. */
	shortcuts: Map<string, RegisteredShortcut>;
	/** Skipped shortcuts. */
	errors: Conflict[];
	/** Shortcuts that took a key from a built-in action or another extension. */
	warnings: Conflict[];
}

/**
 * Extension shortcuts against the effective built-in key bindings (action → keys, user overrides applied).
 * Later extensions win between extensions.
 */
export function resolveShortcuts(
	extensions: readonly Extension[],
	builtInBindings: Readonly<Record<string, readonly KeyId[] | readonly string[]>>,
	reservedActions: readonly string[],
): ResolvedShortcuts {
	const actionsByKey = new Map<string, string[]>();
	for (const [action, keys] of Object.entries(builtInBindings)) {
		for (const key of keys) {
			const normalized = normalizeKeyId(key);
			actionsByKey.set(normalized, [...(actionsByKey.get(normalized) ?? []), action]);
		}
	}
	const reserved = new Set(reservedActions);
	const result: ResolvedShortcuts = { shortcuts: new Map(), errors: [], warnings: [] };
	for (const extension of extensions) {
		for (const shortcut of extension.shortcuts.values()) {
			const key = normalizeKeyId(shortcut.shortcut);
			const actions = actionsByKey.get(key) ?? [];
			if (actions.some((action) => reserved.has(action))) {
				result.errors.push({
					path: shortcut.extensionPath,
					message: reservedShortcutConflictText(shortcut.shortcut, shortcut.extensionPath),
				});
				continue;
			}
			for (const action of actions) {
				result.warnings.push({
					path: shortcut.extensionPath,
					message: builtinShortcutOverrideText(shortcut.shortcut, shortcut.extensionPath, action),
				});
			}
			const previous = result.shortcuts.get(key);
			if (previous && previous.extensionPath !== shortcut.extensionPath) {
				result.warnings.push({
					path: shortcut.extensionPath,
					message: shortcutOverrideText(shortcut.shortcut, shortcut.extensionPath, previous.extensionPath),
				});
			}
			result.shortcuts.set(key, shortcut);
		}
	}
	return result;
}
