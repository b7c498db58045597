// `Bash(…)` patterns, matched against one simple command written as its words joined by single spaces (quotes
// removed, wrappers such as `env X=1` or `sudo` seen through as shell-commands.ts describes). Pure.
//
//   Bash(npm test)          exactly that command
//   Bash(npm run test:*)    that prefix, then nothing or a space and anything ("npm run test", "npm run test -- x")
//   Bash(git * --force)     `*` stands for any text, anywhere

export interface CommandPattern {
	/** The pattern with runs of white space collapsed. */
	text: string;
	/** The literal text before the first wildcard (all of it for an exact pattern). */
	head: string;
	/** The first word, when the pattern starts with a literal word: candidates with another first word are skipped. */
	firstWord: string | undefined;
	matches(command: string): boolean;
	/**
	 * Whether some command that starts with `literalPrefix` (the words of a command up to the first one the shell
	 * only knows when it runs: `$VAR`, `$(…)`, a glob) could match.
	 */
	couldMatchCommandStartingWith(literalPrefix: string): boolean;
}

/** White space collapsed, as commands are compared. */
export function normalizeCommandText(text: string): string {
	return text.trim().replace(/\s+/g, " ");
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function firstWordOf(head: string, hasWildcard: boolean): string | undefined {
	const space = head.indexOf(" ");
	// `git*` has no literal first word; `git *` and `git` do.
	if (space >= 0) return head.slice(0, space) || undefined;
	return hasWildcard || head.length === 0 ? undefined : head;
}

export function compileCommandPattern(pattern: string): CommandPattern {
	const text = normalizeCommandText(pattern);
	if (text.endsWith(":*")) {
		const prefix = text.slice(0, -2).trimEnd();
		const firstWord = firstWordOf(prefix, false);
		return {
			text,
			head: prefix,
			firstWord,
			matches: (command) => command === prefix || command.startsWith(`${prefix} `),
			couldMatchCommandStartingWith: (literal) => literal.startsWith(prefix) || prefix.startsWith(literal),
		};
	}
	const star = text.indexOf("*");
	if (star < 0) {
		return {
			text,
			head: text,
			firstWord: firstWordOf(text, false),
			matches: (command) => command === text,
			couldMatchCommandStartingWith: (literal) => text.startsWith(literal),
		};
	}
	const head = text.slice(0, star);
	const source = text.split("*").map(escapeRegExp).join(".*");
	const regex = new RegExp(`^${source}$`, "s");
	return {
		text,
		head,
		firstWord: firstWordOf(head, true),
		matches: (command) => regex.test(command),
		couldMatchCommandStartingWith: (literal) => literal.startsWith(head) || head.startsWith(literal),
	};
}
