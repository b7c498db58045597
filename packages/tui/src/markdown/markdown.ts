import type { Token } from "marked";
import { CachedComponent } from "../component.js";
import { applyBackground } from "../text/background.js";
import type { StyleFn } from "../theme/style.js";
import type { DefaultTextStyle, MarkdownTheme } from "../theme/themes.js";
import { type BlockContext, isBlankLineBetween, renderBlock } from "./block-renderer.js";
import { IncrementalLexer } from "./incremental-lexer.js";

const TAB_AS_SPACES = "   ";

function composeTextStyle(style: DefaultTextStyle | undefined, theme: MarkdownTheme): StyleFn {
	if (!style) return (text) => text;
	return (text) => {
		if (text.length === 0) return text;
		let out = style.color ? style.color(text) : text;
		if (style.bold) out = theme.bold(out);
		if (style.italic) out = theme.italic(out);
		if (style.strikethrough) out = theme.strikethrough(out);
		if (style.underline) out = theme.underline(out);
		return out;
	};
}

/**
 * Markdown rendered for the terminal: headings, paragraphs, emphasis, inline code, links, lists, tables,
 * block quotes, rules and syntax-highlighted code blocks.
 *
 * Rendering is cached per top-level block: when the text grows (a streamed reply), only the last block
 * is lexed and rendered again, and unchanged blocks keep their exact line strings, so a token appended
 * to a long reply costs about as much as one appended to a short one. The tokens and the highlighted lines
 * of code blocks do not depend on the width and are kept across widths: a resize only wraps again (syntax
 * highlighting was most of the cost of re-rendering a transcript at a new width).
 */
export class Markdown extends CachedComponent {
	private text = "";
	private readonly lexer = new IncrementalLexer();
	private blockCache = new Map<string, RenderedBlock>();
	private blockCacheWidth = -1;
	/** Highlighted code blocks by language and text, for any width; pruned to the blocks of the last render. */
	private highlightCache = new Map<string, string[]>();
	private readonly baseStyle: StyleFn;

	constructor(
		text: string,
		private readonly paddingX: number,
		private readonly paddingY: number,
		private readonly theme: MarkdownTheme,
		private readonly defaultTextStyle?: DefaultTextStyle,
	) {
		super();
		this.text = normalize(text);
		this.baseStyle = composeTextStyle(defaultTextStyle, theme);
	}

	getText(): string {
		return this.text;
	}

	setText(text: string): void {
		const normalized = normalize(text);
		if (normalized === this.text) return;
		this.text = normalized;
		this.markChanged();
	}

	override invalidate(): void {
		this.blockCache.clear();
		this.highlightCache.clear();
		super.invalidate();
	}

	protected renderLines(width: number): string[] {
		if (this.text.trim().length === 0) return [];
		const paddingX = Math.max(0, Math.min(this.paddingX, Math.floor((width - 1) / 2)));
		const contentWidth = Math.max(1, width - paddingX * 2);
		if (width !== this.blockCacheWidth) {
			this.blockCache.clear();
			this.blockCacheWidth = width;
		}
		const highlightCode = this.theme.highlightCode;
		const nextHighlights = new Map<string, string[]>();
		let blockHighlights: string[] = [];
		const context: BlockContext = { theme: this.theme, base: this.baseStyle };
		if (highlightCode) {
			context.highlight = (code, lang) => {
				const key = `${lang ?? ""}\u0000${code}`;
				let highlighted = nextHighlights.get(key) ?? this.highlightCache.get(key);
				if (!highlighted) highlighted = highlightCode(code, lang);
				nextHighlights.set(key, highlighted);
				blockHighlights.push(key);
				return highlighted;
			};
		}
		const margin = " ".repeat(paddingX);
		const blank = this.finishLine("", width);
		const nextCache = new Map<string, RenderedBlock>();
		const lines: string[] = [];
		for (let i = 0; i < this.paddingY; i++) lines.push(blank);
		let previous: Token | undefined;
		let hadBlankLine = false;
		for (const token of this.lexer.lex(this.text)) {
			if (token.type === "space") {
				hadBlankLine = true;
				continue;
			}
			if (token.type === "def") continue;
			if (previous && isBlankLineBetween(previous, token, hadBlankLine)) lines.push(blank);
			const key = `${token.type}\u0000${token.raw}`;
			let block = nextCache.get(key) ?? this.blockCache.get(key);
			if (block) {
				// Served from the line cache: its code blocks stay highlighted for the next width.
				for (const highlightKey of block.highlights) {
					const highlighted = this.highlightCache.get(highlightKey);
					if (highlighted) nextHighlights.set(highlightKey, highlighted);
				}
			} else {
				blockHighlights = [];
				const blockLines = renderBlock(token, contentWidth, context).map((line) =>
					this.finishLine(margin + line, width),
				);
				block = { lines: blockLines, highlights: blockHighlights };
			}
			nextCache.set(key, block);
			for (const line of block.lines) lines.push(line);
			previous = token;
			hadBlankLine = false;
		}
		for (let i = 0; i < this.paddingY; i++) lines.push(blank);
		this.blockCache = nextCache;
		this.highlightCache = nextHighlights;
		return lines;
	}

	private finishLine(line: string, width: number): string {
		const background = this.defaultTextStyle?.bgColor;
		return background ? applyBackground(line, width, background) : line;
	}
}

interface RenderedBlock {
	lines: string[];
	/** Keys of the highlighted code in the block (in `highlightCache`). */
	highlights: string[];
}

function normalize(text: string): string {
	let out = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
	if (out.includes("\t")) out = out.replaceAll("\t", TAB_AS_SPACES);
	return out;
}
