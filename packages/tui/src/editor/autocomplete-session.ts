import type { AutocompleteItem, AutocompleteProvider } from "../autocomplete/types.js";
import { SelectList } from "../components/select-list.js";
import { matchesKey } from "../keys/key-matching.js";
import { getEditorKeybindings } from "../keys/keybindings.js";
import type { SelectListTheme } from "../theme/themes.js";
import type { EditorText } from "./editor-text.js";

/** Text before the cursor that names a slash command (no argument yet). */
const SLASH_COMMAND_NAME = /^\/\S*$/;
/** Text before the cursor that ends in an `@file` reference. */
const FILE_REFERENCE = /(?:^|[\s"'=])@[^\s]*$/;

/** The completion list shown under the editor while the user types a command, `@file` or path. */
export class AutocompleteSession {
	private list: SelectList | undefined;
	private prefix = "";
	private isForced = false;
	provider: AutocompleteProvider | undefined;

	constructor(
		private readonly theme: SelectListTheme,
		private maxVisible: number,
	) {}

	get isOpen(): boolean {
		return this.list !== undefined;
	}

	setMaxVisible(maxVisible: number): void {
		this.maxVisible = maxVisible;
		this.list?.setMaxVisible(maxVisible);
	}

	/**
	 * Asks the provider for suggestions at the cursor and shows them; closes the list when there are
	 * none. `forced` is the Tab path completion (kept while the list stays open).
	 */
	refresh(text: EditorText, forced = this.isForced): boolean {
		if (!this.provider) return false;
		const suggestions = this.peek(text, forced);
		if (!suggestions) {
			this.close();
			return false;
		}
		this.prefix = suggestions.prefix;
		this.isForced = forced;
		const items = suggestions.items.map((item) => ({ ...item }));
		if (this.list) this.list.setItems(items);
		else this.list = new SelectList(items, this.maxVisible, this.theme);
		return true;
	}

	/** Suggestions at the cursor without opening the list (for completing a single match directly). */
	peek(text: EditorText, forced: boolean): { items: AutocompleteItem[]; prefix: string } | undefined {
		const provider = this.provider;
		if (!provider) return undefined;
		const lines = [...text.lines];
		const suggestions = forced
			? (provider.getForceFileSuggestions?.(lines, text.cursorLine, text.cursorCol) ?? null)
			: provider.getSuggestions(lines, text.cursorLine, text.cursorCol);
		return suggestions && suggestions.items.length > 0 ? suggestions : undefined;
	}

	close(): void {
		this.list = undefined;
		this.isForced = false;
	}

	/** Moves the selection (up, down, page keys). */
	navigate(data: string): void {
		this.list?.handleInput(data);
	}

	/** A chosen directory keeps completing inside it; a chosen command name continues with its arguments. */
	private continueAfter(
		applied: AutocompleteItem | undefined,
		text: EditorText,
		wasCommandName: boolean,
		forced: boolean,
	): void {
		if (!applied) return;
		if (applied.value.endsWith("/") || applied.value.endsWith('/"')) this.refresh(text, forced);
		else if (wasCommandName) this.refresh(text, false);
	}

	private isCommandNameContext(text: EditorText): boolean {
		return text.cursorLine === 0 && SLASH_COMMAND_NAME.test(text.textBeforeCursor());
	}

	/** Applies the selected item (or `item`) to the text; returns the item applied. */
	apply(text: EditorText, item?: AutocompleteItem, prefix = this.prefix): AutocompleteItem | undefined {
		const chosen = item ?? this.list?.getSelectedItem();
		const provider = this.provider;
		if (!chosen || !provider) return undefined;
		const result = provider.applyCompletion([...text.lines], text.cursorLine, text.cursorCol, chosen, prefix);
		text.lines = result.lines;
		text.setCursor({ line: result.cursorLine, col: result.cursorCol });
		return chosen;
	}

	/**
	 * A key while the list is open: Escape closes it, arrows and page keys move the selection, Tab or
	 * Enter apply it. `beforeEdit` runs before the text changes (for undo).
	 */
	handleKey(data: string, text: EditorText, beforeEdit: () => void): "applied" | "navigated" | undefined {
		const keys = getEditorKeybindings();
		if (matchesKey(data, "escape")) {
			this.close();
			return "navigated";
		}
		if (
			keys.matches(data, "selectUp") ||
			keys.matches(data, "selectDown") ||
			keys.matches(data, "selectPageUp") ||
			keys.matches(data, "selectPageDown")
		) {
			this.navigate(data);
			return "navigated";
		}
		if (keys.matches(data, "tab") || keys.matches(data, "selectConfirm")) {
			const isCommandName = this.isCommandNameContext(text);
			const wasForced = this.isForced;
			beforeEdit();
			const applied = this.apply(text);
			this.close();
			this.continueAfter(applied, text, isCommandName, wasForced);
			return "applied";
		}
		return undefined;
	}

	/**
	 * Tab with the list closed: completes slash commands (and their arguments) and `@file` references,
	 * or else file-system paths. A single match is applied at once; several open the list. Returns
	 * whether the text changed.
	 */
	completeOnTab(text: EditorText, beforeEdit: () => void): boolean {
		if (!this.provider) return false;
		const before = text.textBeforeCursor();
		const isSlashContext = text.cursorLine === 0 && before.startsWith("/");
		const forced = !isSlashContext && !FILE_REFERENCE.test(before);
		const suggestions = this.peek(text, forced);
		if (!suggestions) return false;
		if (suggestions.items.length > 1) {
			this.refresh(text, forced);
			return false;
		}
		const isCommandName = this.isCommandNameContext(text);
		beforeEdit();
		const applied = this.apply(text, suggestions.items[0], suggestions.prefix);
		this.continueAfter(applied, text, isCommandName, forced);
		return true;
	}

	/** After typing: refreshes an open list, or opens one for a command name or an `@` reference. */
	afterTyping(text: EditorText): void {
		if (this.isOpen) {
			this.refresh(text);
			return;
		}
		if (!this.provider) return;
		if (this.isCommandNameContext(text) || FILE_REFERENCE.test(text.textBeforeCursor())) this.refresh(text, false);
	}

	render(width: number): string[] {
		return this.list ? this.list.render(width) : [];
	}
}
