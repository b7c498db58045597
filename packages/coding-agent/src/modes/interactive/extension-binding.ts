// Connects the extension runner to the interactive mode: `ctx.ui`, keyboard shortcuts, tool and message
// renderers, `ctx.shutdown()`, and session changes from extension commands (the transcript follows them).
import { matchesKey } from "@agent/tui";
import type { ExtensionRunner } from "../../core/extensions/runner.js";
import { BUILTIN_COMMANDS } from "./commands/command-table.js";
import { type ExtensionUiHost, InteractiveExtensionUI } from "./extension-ui.js";
import { DEFAULT_KEYBINDINGS, type KeybindingAction, RESERVED_SHORTCUT_ACTIONS } from "./keybindings.js";
import type { EditorHost, LifecycleHost } from "./mode-host.js";

export interface ExtensionBinding {
	ui: InteractiveExtensionUI;
	/** True when an extension shortcut took the key. */
	handleShortcut(data: string): boolean;
	/** The shortcuts in effect, for /hotkeys. */
	shortcuts: { key: string; description: string }[];
}

function effectiveBindings(host: ExtensionUiHost): Record<string, readonly string[]> {
	const bindings: Record<string, readonly string[]> = {};
	for (const action of Object.keys(DEFAULT_KEYBINDINGS) as KeybindingAction[]) {
		bindings[action] = host.keybindings.getKeys(action);
	}
	return bindings;
}

export function bindExtensionRunner(
	host: ExtensionUiHost & EditorHost & LifecycleHost,
	runner: ExtensionRunner,
): ExtensionBinding {
	const ui = new InteractiveExtensionUI(host);
	runner.setUIContext(ui, true);
	runner.setShutdownHandler(() => void host.quit(0));
	host.state.extensionRenderers = {
		toolDefinition: (name) => runner.getToolDefinition(name),
		messageRenderer: (customType) => runner.getMessageRenderer(customType),
	};
	const afterSessionChange = () => {
		host.rebuildTranscript();
		host.updateTitle();
		host.refreshEditorBorder();
	};
	runner.setCommandActions({
		newSession: async (options) => {
			const started = await host.session.newSession(options);
			if (started) afterSessionChange();
			return { cancelled: !started };
		},
		fork: async (entryId) => {
			const result = await host.session.fork(entryId);
			if (!result.cancelled) {
				afterSessionChange();
				host.editor.setText(result.selectedText);
			}
			return { cancelled: result.cancelled };
		},
		navigateTree: async (targetId, options) => {
			const result = await host.session.navigateTree(targetId, options);
			if (!result.cancelled) {
				afterSessionChange();
				if (result.editorText !== undefined && host.editor.getText().trim() === "")
					host.editor.setText(result.editorText);
			}
			return { cancelled: result.cancelled };
		},
		switchSession: async (path) => {
			const switched = await host.session.switchSession(path);
			if (switched) afterSessionChange();
			return { cancelled: !switched };
		},
	});

	const resolved = runner.getShortcuts(effectiveBindings(host), RESERVED_SHORTCUT_ACTIONS);
	for (const conflict of [...resolved.errors, ...resolved.warnings]) host.notify("warning", conflict.message);
	const builtinNames = new Set(BUILTIN_COMMANDS.map((command) => command.name));
	for (const command of runner.getRegisteredCommands()) {
		if (builtinNames.has(command.name)) {
			host.notify(
				"warning",
				`Extension command "/${command.name}" (${command.extensionPath}) has the name of a built-in command and is ignored here.`,
			);
		}
	}
	return {
		ui,
		shortcuts: [...resolved.shortcuts.values()].map((shortcut) => ({
			key: shortcut.shortcut,
			description: shortcut.description ?? `(${shortcut.extensionPath})`,
		})),
		handleShortcut: (data) => {
			for (const [key, shortcut] of resolved.shortcuts) {
				if (!matchesKey(data, key)) continue;
				void runner.runShortcut(shortcut);
				return true;
			}
			return false;
		},
	};
}
