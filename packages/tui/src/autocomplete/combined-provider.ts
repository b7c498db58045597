import { FileIndex, type FileIndexOptions } from "./file-search.js";
import { fuzzyFilter } from "./fuzzy.js";
import { completePath } from "./path-completion.js";
import type {
	AutocompleteItem,
	AutocompleteProvider,
	AutocompleteSuggestions,
	CompletionResult,
	SlashCommand,
} from "./types.js";

const MAX_FILE_RESULTS = 50;
/** `@` starting a file reference: at the line start or after a space, tab, quote or `=`; optionally quoted. */
const FILE_REFERENCE = /(?:^|[\s"'=])(@(?:"[^"]*|[^\s"']*))$/;

function isSlashCommand(command: SlashCommand | AutocompleteItem): command is SlashCommand {
	return "name" in command;
}

function quoteIfNeeded(path: string, wasQuoted: boolean, isDirectory: boolean): string {
	if (!wasQuoted && !/\s/.test(path)) return `@${path}`;
	// A directory stays open-quoted so the completion can continue inside it.
	return isDirectory ? `@"${path}` : `@"${path}"`;
}

/**
 * Completions for a prompt editor: slash commands (names, then their arguments), `@` file references
 * found by fuzzy search over the project (honouring .gitignore), and file-system paths on Tab.
 */
export class CombinedAutocompleteProvider implements AutocompleteProvider {
	private readonly commands: (SlashCommand | AutocompleteItem)[];
	private readonly files: FileIndex;

	constructor(
		commands: (SlashCommand | AutocompleteItem)[] = [],
		private readonly basePath: string = process.cwd(),
		fdPath: string | null = null,
		indexOptions: Omit<FileIndexOptions, "fdPath"> = {},
	) {
		this.commands = commands;
		this.files = new FileIndex(basePath, { ...indexOptions, fdPath });
	}

	getSuggestions(lines: string[], cursorLine: number, cursorCol: number): AutocompleteSuggestions | null {
		const before = lines[cursorLine].slice(0, cursorCol);
		const reference = FILE_REFERENCE.exec(before);
		if (reference) return this.fileSuggestions(reference[1]);
		if (cursorLine === 0 && before.startsWith("/")) return this.commandSuggestions(before);
		return null;
	}

	getForceFileSuggestions(lines: string[], cursorLine: number, cursorCol: number): AutocompleteSuggestions | null {
		const before = lines[cursorLine].slice(0, cursorCol);
		const reference = FILE_REFERENCE.exec(before);
		if (reference) return this.fileSuggestions(reference[1]);
		const token = /(?:^|\s)(\S*)$/.exec(before)?.[1] ?? "";
		const items = completePath(token, this.basePath);
		return items.length > 0 ? { items, prefix: token } : null;
	}

	applyCompletion(
		lines: string[],
		cursorLine: number,
		cursorCol: number,
		item: AutocompleteItem,
		prefix: string,
	): CompletionResult {
		const line = lines[cursorLine];
		const before = line.slice(0, cursorCol);
		let after = line.slice(cursorCol);
		const head = before.slice(0, before.length - prefix.length);
		let replacement: string;
		if (cursorLine === 0 && prefix === before && /^\/\S*$/.test(prefix)) {
			replacement = `/${item.value} `;
		} else if (prefix.startsWith("@")) {
			const isDirectory = item.value.endsWith("/") || item.value.endsWith('/"');
			replacement = isDirectory ? item.value : `${item.value} `;
			// Typing inside a quoted reference leaves the closing quote after the cursor.
			if (item.value.endsWith('"') && after.startsWith('"')) after = after.slice(1);
		} else {
			replacement = item.value;
		}
		const newBefore = head + replacement;
		const newLines = [...lines];
		newLines[cursorLine] = newBefore + after;
		return { lines: newLines, cursorLine, cursorCol: newBefore.length };
	}

	/** Forgets the cached file listing. */
	refreshFiles(): void {
		this.files.refresh();
	}

	private fileSuggestions(prefix: string): AutocompleteSuggestions | null {
		const wasQuoted = prefix.startsWith('@"');
		const query = prefix.slice(wasQuoted ? 2 : 1);
		const entries = this.files.search(query, MAX_FILE_RESULTS);
		if (entries.length === 0) return null;
		const items = entries.map((entry) => ({
			value: quoteIfNeeded(entry.path, wasQuoted, entry.isDirectory),
			label: entry.path,
		}));
		return { items, prefix };
	}

	private commandSuggestions(before: string): AutocompleteSuggestions | null {
		const space = before.indexOf(" ");
		if (space === -1) {
			const query = before.slice(1);
			const items = fuzzyFilter(this.commands, query, (command) =>
				isSlashCommand(command) ? command.name : command.value,
			).map((command): AutocompleteItem => {
				const name = isSlashCommand(command) ? command.name : command.value;
				return { value: name, label: `/${name}`, description: command.description };
			});
			return items.length > 0 ? { items, prefix: before } : null;
		}
		const name = before.slice(1, space);
		const command = this.commands.find((candidate) => isSlashCommand(candidate) && candidate.name === name);
		if (!command || !isSlashCommand(command) || !command.getArgumentCompletions) return null;
		const argumentPrefix = before.slice(space + 1);
		const items = command.getArgumentCompletions(argumentPrefix);
		return items && items.length > 0 ? { items, prefix: argumentPrefix } : null;
	}
}
