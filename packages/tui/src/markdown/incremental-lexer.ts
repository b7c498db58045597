import { marked, type Token } from "marked";

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
			const tail = marked.lexer(text.slice(reusable.offset));
			this.tokens = [...this.tokens.slice(0, reusable.count), ...tail];
		} else {
			this.tokens = marked.lexer(text);
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
