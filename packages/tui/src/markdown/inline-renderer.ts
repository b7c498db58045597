import type { Token, Tokens } from "marked";
import type { StyleFn } from "../theme/style.js";
import type { MarkdownTheme } from "../theme/themes.js";

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Decodes the HTML entities markdown allows in text (&amp;, &#39;, &#x27; ...). */
export function decodeHtmlEntities(text: string): string {
	if (!text.includes("&")) return text;
	return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
		if (body[0] === "#") {
			const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
			return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
		}
		return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
	});
}

/** Renders inline tokens to one styled string (`\n` where the markdown has hard breaks). */
export function renderInline(tokens: readonly Token[] | undefined, theme: MarkdownTheme, base: StyleFn): string {
	if (!tokens) return "";
	let out = "";
	for (const token of tokens) out += renderInlineToken(token, theme, base);
	return out;
}

function renderInlineToken(token: Token, theme: MarkdownTheme, base: StyleFn): string {
	switch (token.type) {
		case "text": {
			const text = token as Tokens.Text;
			if (text.tokens && text.tokens.length > 0) return renderInline(text.tokens, theme, base);
			return base(decodeHtmlEntities(text.text));
		}
		case "escape":
			return base((token as Tokens.Escape).text);
		case "strong":
			return theme.bold(renderInline((token as Tokens.Strong).tokens, theme, base));
		case "em":
			return theme.italic(renderInline((token as Tokens.Em).tokens, theme, base));
		case "del":
			return theme.strikethrough(renderInline((token as Tokens.Del).tokens, theme, base));
		case "codespan":
			return theme.code(decodeHtmlEntities((token as Tokens.Codespan).text));
		case "br":
			return "\n";
		case "link": {
			const link = token as Tokens.Link;
			const label = renderInline(link.tokens, theme, (s) => s);
			const styled = theme.link(theme.underline(label.length > 0 ? label : link.href));
			const plainLabel = link.text.replace(/^mailto:/, "");
			const href = link.href.replace(/^mailto:/, "");
			return plainLabel === href ? styled : styled + theme.linkUrl(` (${link.href})`);
		}
		case "image": {
			const image = token as Tokens.Image;
			const label = image.text.length > 0 ? image.text : image.href;
			return theme.link(theme.underline(label)) + theme.linkUrl(` (${image.href})`);
		}
		case "html":
			return base((token as Tokens.HTML).text);
		case "checkbox":
			return (token as Tokens.Checkbox).checked ? "[x] " : "[ ] ";
		default: {
			const generic = token as Tokens.Generic;
			if (generic.tokens) return renderInline(generic.tokens, theme, base);
			return base(typeof generic.text === "string" ? generic.text : generic.raw);
		}
	}
}
