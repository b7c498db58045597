// The `pi` object a factory receives (docs/extensions.md "`ExtensionAPI`"): registration methods write into this extension's
// record and work at any time; action methods go to the shared runtime, which refuses them until the session
// is bound.
import type { KeyId } from "@agent/tui";
import type { ExtensionEventName } from "./events.js";
import type { ExtensionRuntime } from "./runtime.js";
import type {
	Extension,
	ExtensionAPI,
	ExtensionHandler,
	MessageRenderer,
	StoredHandler,
	ToolDefinition,
} from "./types.js";

export function createEmptyExtension(path: string, resolvedPath: string): Extension {
	return {
		path,
		resolvedPath,
		handlers: new Map(),
		tools: new Map(),
		commands: new Map(),
		shortcuts: new Map(),
		flags: new Map(),
		messageRenderers: new Map(),
	};
}

export function createExtensionAPI(extension: Extension, runtime: ExtensionRuntime): ExtensionAPI {
	const extensionPath = extension.resolvedPath;
	return {
		on<K extends ExtensionEventName>(event: K, handler: ExtensionHandler<K>): void {
			const list = extension.handlers.get(event) ?? [];
			// Stored untyped; the runner calls it with the payload `on` promised for this event name.
			list.push(handler as unknown as StoredHandler);
			extension.handlers.set(event, list);
		},
		registerTool(tool) {
			extension.tools.set(tool.name, { definition: tool as unknown as ToolDefinition, extensionPath });
			runtime.notifyToolsChanged();
		},
		registerCommand(name, options) {
			extension.commands.set(name, { ...options, name, extensionPath });
		},
		registerShortcut(shortcut: KeyId, options) {
			extension.shortcuts.set(shortcut, { ...options, shortcut, extensionPath });
		},
		registerFlag(name, options) {
			extension.flags.set(name, { ...options, name, extensionPath });
			if (options.default !== undefined && !runtime.flagValues.has(name)) {
				runtime.flagValues.set(name, options.default);
			}
		},
		getFlag(name) {
			return extension.flags.has(name) ? runtime.flagValues.get(name) : undefined;
		},
		registerMessageRenderer(customType, renderer) {
			extension.messageRenderers.set(customType, renderer as MessageRenderer);
		},
		sendMessage(message, options) {
			runtime.sendMessage(message, options);
		},
		sendUserMessage(content, options) {
			runtime.sendUserMessage(content, options);
		},
		appendEntry(customType, data) {
			runtime.appendEntry(customType, data);
		},
		setSessionName: (name) => runtime.setSessionName(name),
		getSessionName: () => runtime.getSessionName(),
		setLabel: (entryId, label) => runtime.setLabel(entryId, label),
		exec: (command, args, options) => runtime.exec(command, args, options),
		getActiveTools: () => runtime.getActiveTools(),
		getAllTools: () => runtime.getAllTools(),
		setActiveTools: (names) => runtime.setActiveTools(names),
		getCommands: () => runtime.getCommands(),
		setModel: (model) => runtime.setModel(model),
		getThinkingLevel: () => runtime.getThinkingLevel(),
		setThinkingLevel: (level) => runtime.setThinkingLevel(level),
		registerProvider: (name, config) => runtime.registerProvider(name, config),
		unregisterProvider: (name) => runtime.unregisterProvider(name),
		events: runtime.events,
		permissions: runtime.permissionsFor(extensionPath),
	};
}
