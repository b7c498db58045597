// What every transcript component reads when it renders: the theme, whether tool output and thinking are
// expanded, key names for hints, and the working directory for shorter paths. The mode owns one instance and
// invalidates the transcript when a field changes, so components re-render with the new value once.
import { CachedComponent } from "@agent/tui";
import type { MessageRenderer, ToolDefinition } from "../../core/extensions/types.js";
import type { AppKeybindings } from "./keybindings.js";
import type { Theme } from "./theme/theme.js";

export interface DisplayState {
	theme: Theme;
	/** Ctrl+O: tool output shown in full. */
	toolsExpanded: boolean;
	/** Ctrl+T / `hideThinkingBlock`: thinking blocks collapsed to a label. */
	hideThinking: boolean;
	keybindings: AppKeybindings;
	cwd: string;
	/** `markdown.codeBlockIndent` */
	codeBlockIndent: string;
	/** `terminal.showImages` */
	showImages: boolean;
	/** Renderers extensions registered: tool call/result renderers and custom-message renderers. */
	extensionRenderers?: ExtensionRenderers;
}

export interface ExtensionRenderers {
	toolDefinition(name: string): ToolDefinition | undefined;
	messageRenderer(customType: string): MessageRenderer | undefined;
}

const KEY_NAMES: Record<string, string> = {
	ctrl: "Ctrl",
	alt: "Alt",
	shift: "Shift",
	super: "Super",
	escape: "Esc",
	esc: "Esc",
	enter: "Enter",
	return: "Enter",
	tab: "Tab",
	space: "Space",
	backspace: "Backspace",
	delete: "Del",
	pageup: "PgUp",
	pagedown: "PgDn",
	up: "Up",
	down: "Down",
	left: "Left",
	right: "Right",
	home: "Home",
	end: "End",
};

/** `ctrl+shift+p` as users read it: `Ctrl+Shift+P`. */
export function formatKeyLabel(key: string): string {
	return key
		.split(/\+(?=.)/)
		.map((part) => KEY_NAMES[part.toLowerCase()] ?? (part.length === 1 ? part.toUpperCase() : part))
		.join("+");
}

/** An action's keys for hints ("Ctrl+O", "Esc/Ctrl+C"); the action name when it is unbound. */
export function keyHint(state: DisplayState, action: Parameters<AppKeybindings["describe"]>[0]): string {
	const keys = state.keybindings.getKeys(action);
	return keys.length > 0 ? keys.map(formatKeyLabel).join("/") : action;
}

/** A block that expands or collapses on its own (a click on it in the full-screen mode). */
export interface ExpandableBlock {
	toggleExpanded(): void;
	/** Back to the global Ctrl+O state (Ctrl+O applies to every block). */
	resetExpanded(): void;
}

export function isExpandableBlock(component: unknown): component is ExpandableBlock {
	return typeof (component as Partial<ExpandableBlock> | undefined)?.toggleExpanded === "function";
}

/** A click on a tool call, `!` output or summary expands or collapses that block alone; false: none was hit. */
export function toggleClickedBlock(path: readonly unknown[]): boolean {
	for (const component of path) {
		if (!isExpandableBlock(component)) continue;
		component.toggleExpanded();
		return true;
	}
	return false;
}

/**
 * A transcript block that expands and collapses: by the global Ctrl+O state, or by its own once toggled (a click
 * on it). Subclasses read `isExpanded` when they render.
 */
export abstract class ExpandableComponent extends CachedComponent implements ExpandableBlock {
	private override: boolean | undefined;

	constructor(private readonly expansionState: DisplayState) {
		super();
	}

	protected get isExpanded(): boolean {
		return this.override ?? this.expansionState.toolsExpanded;
	}

	toggleExpanded(): void {
		this.override = !this.isExpanded;
		this.markChanged();
	}

	resetExpanded(): void {
		this.override = undefined;
		this.markChanged();
	}
}
