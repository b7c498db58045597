import type { AutocompleteItem, AutocompleteProvider } from "../autocomplete/types.js";
import { SelectList } from "../components/select-list.js";
import type { SelectListTheme } from "../theme/themes.js";
import type { EditorText } from "./editor-text.js";

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
		const provider = this.provider;
		if (!provider) return false;
		const lines = [...text.lines];
		const suggestions = forced
			? (provider.getForceFileSuggestions?.(lines, text.cursorLine, text.cursorCol) ?? null)
			: provider.getSuggestions(lines, text.cursorLine, text.cursorCol);
		if (!suggestions || suggestions.items.length === 0) {
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

	render(width: number): string[] {
		return this.list ? this.list.render(width) : [];
	}
}
