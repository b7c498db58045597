import { createRequire } from "node:module";
import type { marked, Token } from "marked";

// marked builds ~100 regular expressions as it loads (~10 ms, with its 67 kB of code): it loads when markdown is
// first lexed, not with the TUI, since a terminal app's first frame seldom shows any. `prepareMarkdown()` loads it
// ahead of that; without that, the first lex requires the package synchronously (an ES module: Node >= 20.19), so it
// stays a dependency of whatever bundles this module.
type Lexer = typeof marked.lexer;

let lexer: Lexer | undefined;
let preparing: Promise<void> | undefined;

function loadLexer(): Lexer {
	lexer ??= (createRequire(import.meta.url)("marked") as { marked: typeof marked }).marked.lexer;
	return lexer;
}

/**
 * In the `agent` command's bundle (CommonJS files) marked is a chunk of its own, which an `import()` there requires.
 * Elsewhere this module is an ES module, and the package is required as by a first lex: Node refuses to require a
 * module that an import is still loading, so a render during an import would fail.
 */
const BUNDLED = import.meta.url.endsWith(".cjs");

/** Loads the markdown parser ahead of the first render that needs it. Safe to call often; never rejects. */
export function prepareMarkdown(): Promise<void> {
	preparing ??= (
		BUNDLED
			? import("marked").then((module) => {
					lexer ??= module.marked.lexer;
				})
			: Promise.resolve().then(loadLexer)
	).then(
		() => {},
		() => {
			// The first lex requires it and reports what is wrong.
		},
	);
	return preparing;
}

/**
 * Lexes markdown into top-level tokens, re-lexing only the end of the text when it grew by appending
 * (the streaming case). Appended text can change the meaning of the last block only (a paragraph
 * becoming a setext heading or a table, a list or an open code fence continuing), so every block
 * before the last non-blank one is kept as is and lexing restarts at that block.
 *
 * Known limit: a reference-style link definition that arrives after its use is not applied to
 * blocks lexed before it.
 */
export class IncrementalLexer {
	private source = "";
	private tokens: Token[] = [];

	lex(text: string): Token[] {
		if (text === this.source) return this.tokens;
		const reusable = text.startsWith(this.source) ? this.reusablePrefix() : undefined;
		if (reusable && reusable.count > 0) {
			const tail = loadLexer()(text.slice(reusable.offset));
			this.tokens = [...this.tokens.slice(0, reusable.count), ...tail];
		} else {
			this.tokens = loadLexer()(text);
		}
		this.source = text;
		return this.tokens;
	}

	/** How many leading tokens survive an append, and where their source ends. */
	private reusablePrefix(): { count: number; offset: number } | undefined {
		let lastBlock = this.tokens.length - 1;
		while (lastBlock >= 0 && this.tokens[lastBlock].type === "space") lastBlock--;
		if (lastBlock <= 0) return undefined;
		let offset = 0;
		for (let i = 0; i < lastBlock; i++) offset += this.tokens[i].raw.length;
		// marked normalises line endings; only trust the offsets when the raws spell the source.
		if (this.tokens[lastBlock].raw !== this.source.slice(offset, offset + this.tokens[lastBlock].raw.length)) {
			return undefined;
		}
		return { count: lastBlock, offset };
	}
}
