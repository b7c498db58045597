export interface AutocompleteItem {
	/** Text the completion inserts (for slash commands: the command name). */
	value: string;
	label: string;
	description?: string;
}

export interface SlashCommand {
	name: string;
	description?: string;
	/** Completions for the argument typed after the command name; null when it has none. */
	getArgumentCompletions?(prefix: string): AutocompleteItem[] | null;
}

export interface AutocompleteSuggestions {
	items: AutocompleteItem[];
	/** The text before the cursor that the completion replaces. */
	prefix: string;
}

export interface CompletionResult {
	lines: string[];
	cursorLine: number;
	cursorCol: number;
}

/** Supplies completions to the editor. */
export interface AutocompleteProvider {
	/** Suggestions for the text around the cursor, or null when none apply (closes the list). */
	getSuggestions(lines: string[], cursorLine: number, cursorCol: number): AutocompleteSuggestions | null;
	/** The editor content after choosing `item` for the text `prefix` before the cursor. */
	applyCompletion(
		lines: string[],
		cursorLine: number,
		cursorCol: number,
		item: AutocompleteItem,
		prefix: string,
	): CompletionResult;
	/** Suggestions when the user presses Tab outside a slash command (file-system paths). */
	getForceFileSuggestions?(lines: string[], cursorLine: number, cursorCol: number): AutocompleteSuggestions | null;
}
