// The interactive mode's built-in slash commands (docs/cli.md "Interactive commands"): names, descriptions for the autocomplete,
// and the dispatcher that recognises them. Matching is exact: the whole input is `/cmd`, or `/cmd <args>` for
// commands that take arguments; `/export` matches any input starting with it. Anything else beginning with
// `/` goes to the prompt pipeline (extension commands, templates, skills, or text for the model).
import type { AutocompleteItem, SlashCommand } from "@agent/tui";
import type { ModeHost } from "../mode-host.js";

export interface BuiltinCommand {
	name: string;
	description: string;
	/** Accepts `/name <args>`. */
	takesArgs?: boolean;
	/** Not offered by the autocomplete. */
	hidden?: boolean;
	/** Argument completions for the autocomplete. */
	completeArgs?(host: ModeHost, prefix: string): AutocompleteItem[] | null;
	run(host: ModeHost, args: string): Promise<void> | void;
}

export interface ParsedBuiltinCommand {
	command: BuiltinCommand;
	args: string;
}

/** The built-in command `text` invokes, if any. */
export function parseBuiltinCommand(
	text: string,
	commands: readonly BuiltinCommand[],
): ParsedBuiltinCommand | undefined {
	const input = text.trim();
	if (!input.startsWith("/")) return undefined;
	if (input.startsWith("/export")) {
		// As the reference does: any input starting with /export; the argument is the first word after it.
		const command = commands.find((candidate) => candidate.name === "export");
		const argument = input.split(/\s+/)[1] ?? "";
		if (command) return { command, args: argument };
	}
	const space = input.search(/\s/);
	const name = (space === -1 ? input : input.slice(0, space)).slice(1);
	const args = space === -1 ? "" : input.slice(space).trim();
	const command = commands.find((candidate) => candidate.name === name);
	if (!command) return undefined;
	if (args !== "" && !command.takesArgs) return undefined;
	return { command, args };
}

/** The autocomplete entries of the built-in commands. */
export function builtinSlashCommands(host: ModeHost, commands: readonly BuiltinCommand[]): SlashCommand[] {
	return commands
		.filter((command) => !command.hidden)
		.map((command) => ({
			name: command.name,
			description: command.description,
			...(command.completeArgs
				? { getArgumentCompletions: (prefix: string) => command.completeArgs?.(host, prefix) ?? null }
				: {}),
		}));
}
