import type { Token, Tokens } from "marked";
import { wrapTextWithAnsi } from "../text/wrap.js";
import type { StyleFn } from "../theme/style.js";
import type { MarkdownTheme } from "../theme/themes.js";
import { renderInline } from "./inline-renderer.js";
import { renderTable } from "./table-renderer.js";

export interface BlockContext {
	theme: MarkdownTheme;
	/** Style of plain text runs (the component's default text style). */
	base: StyleFn;
	/** Highlighted lines of a code block; default `theme.highlightCode` (a caller may cache it across widths). */
	highlight?: (code: string, lang: string | undefined) => string[];
}

const HR_MAX_WIDTH = 80;

/** Whether a blank line separates two consecutive blocks (a paragraph directly followed by a list gets none). */
export function isBlankLineBetween(previous: Token, next: Token, hadBlankLine: boolean): boolean {
	if (hadBlankLine) return true;
	return !((previous.type === "paragraph" || previous.type === "text") && next.type === "list");
}

/** Renders a sequence of blocks, one blank line between blocks. */
export function renderBlocks(tokens: readonly Token[], width: number, context: BlockContext): string[] {
	const lines: string[] = [];
	let previous: Token | undefined;
	let hadBlankLine = false;
	for (const token of tokens) {
		if (token.type === "space") {
			hadBlankLine = true;
			continue;
		}
		if (token.type === "def") continue;
		if (previous && isBlankLineBetween(previous, token, hadBlankLine)) lines.push("");
		for (const line of renderBlock(token, width, context)) lines.push(line);
		previous = token;
		hadBlankLine = false;
	}
	return lines;
}

/** Renders one block-level token to lines of at most `width` columns. */
export function renderBlock(token: Token, width: number, context: BlockContext): string[] {
	const { theme, base } = context;
	switch (token.type) {
		case "heading": {
			const heading = token as Tokens.Heading;
			const text = renderInline(heading.tokens, theme, base);
			const styled =
				heading.depth === 1
					? theme.heading(theme.bold(theme.underline(text)))
					: heading.depth === 2
						? theme.heading(theme.bold(text))
						: theme.heading(theme.bold(`${"#".repeat(heading.depth)} ${text}`));
			return wrapTextWithAnsi(styled, width);
		}
		case "paragraph":
		case "text": {
			const block = token as Tokens.Paragraph | Tokens.Text;
			const text = block.tokens ? renderInline(block.tokens, theme, base) : base(block.text);
			return wrapTextWithAnsi(text, width);
		}
		case "code":
			return renderCodeBlock(token as Tokens.Code, width, context);
		case "list":
			return renderList(token as Tokens.List, width, context);
		case "table":
			return renderTable(token as Tokens.Table, width, theme, base);
		case "blockquote": {
			const inner = renderBlocks((token as Tokens.Blockquote).tokens, Math.max(1, width - 2), context);
			return inner.map((line) => theme.quoteBorder("│ ") + theme.quote(theme.italic(line)));
		}
		case "hr":
			return [theme.hr("─".repeat(Math.max(1, Math.min(width, HR_MAX_WIDTH))))];
		case "html":
			return wrapTextWithAnsi(base((token as Tokens.HTML).text.replace(/\n+$/, "")), width);
		case "space":
		case "def":
			return [];
		default: {
			const generic = token as Tokens.Generic;
			const text = generic.tokens
				? renderInline(generic.tokens, theme, base)
				: base(generic.raw.replace(/\n+$/, ""));
			return wrapTextWithAnsi(text, width);
		}
	}
}

function renderCodeBlock(code: Tokens.Code, width: number, context: BlockContext): string[] {
	const { theme } = context;
	const indent = theme.codeBlockIndent ?? "  ";
	const lang = code.lang?.trim().split(/\s+/)[0] || undefined;
	const body = code.text.replace(/\n$/, "");
	const highlighted = context.highlight
		? context.highlight(body, lang)
		: theme.highlightCode
			? theme.highlightCode(body, lang)
			: body.split("\n").map((line) => theme.codeBlock(line));
	const contentWidth = Math.max(1, width - indent.length);
	const lines = [theme.codeBlockBorder(`\`\`\`${lang ?? ""}`)];
	for (const line of highlighted) {
		for (const wrapped of wrapTextWithAnsi(line, contentWidth)) lines.push(indent + wrapped);
	}
	lines.push(theme.codeBlockBorder("```"));
	return lines;
}

function renderList(list: Tokens.List, width: number, context: BlockContext): string[] {
	const lines: string[] = [];
	const start = list.ordered ? (typeof list.start === "number" ? list.start : 1) : 0;
	list.items.forEach((item, index) => {
		const bullet = list.ordered ? `${start + index}. ` : "- ";
		const contentWidth = Math.max(1, width - bullet.length);
		let tokens = item.tokens;
		let checkbox = "";
		// Tight task items carry the checkbox as a block token; loose ones inside their paragraph.
		if (item.task && tokens.some((token) => token.type === "checkbox")) {
			checkbox = item.checked ? "[x] " : "[ ] ";
			tokens = tokens.filter((token) => token.type !== "checkbox");
		}
		const content = renderBlocks(tokens, contentWidth - checkbox.length, context);
		if (content.length === 0) content.push("");
		const continuation = " ".repeat(bullet.length + checkbox.length);
		content.forEach((line, lineIndex) => {
			lines.push(lineIndex === 0 ? context.theme.listBullet(bullet) + checkbox + line : continuation + line);
		});
	});
	return lines;
}
