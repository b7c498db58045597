// A theme turned into styling functions: colour tokens to ANSI sequences for the terminal's colour depth, and
// the component themes @agent/tui wants (markdown, editor, select list, settings list). With NO_COLOR the
// theme emits no colour sequences at all; text attributes (bold, italic, reverse video for the cursor) stay.
import type { ThinkingLevel } from "@agent/agent-core";
import {
	ansi16Code,
	type ColorMode,
	createSyntaxHighlighter,
	type EditorTheme,
	type MarkdownTheme,
	paletteToRgb,
	rgbTo16,
	rgbTo256,
	type SelectListTheme,
	type SettingsListTheme,
	type StyleFn,
	type SyntaxTheme,
} from "@agent/tui";
import type { ResolvedColor, ResolvedColors, ThemeBackground, ThemeColor, ThemeToken } from "./theme-schema.js";

export { type ColorMode, detectColorMode } from "@agent/tui";

function rgbOf(color: Exclude<ResolvedColor, { kind: "default" }>): [number, number, number] {
	return color.kind === "index" ? paletteToRgb(color.index) : [color.r, color.g, color.b];
}

function colorSequence(color: ResolvedColor, background: boolean, mode: ColorMode): string | undefined {
	if (mode === "none" || color.kind === "default") return undefined;
	const layer = background ? 48 : 38;
	if (mode === "16") {
		const index = color.kind === "index" && color.index < 16 ? color.index : rgbTo16(...rgbOf(color));
		return `\x1b[${ansi16Code(index, background)}m`;
	}
	if (color.kind === "index") return `\x1b[${layer};5;${color.index}m`;
	if (mode === "truecolor") return `\x1b[${layer};2;${color.r};${color.g};${color.b}m`;
	return `\x1b[${layer};5;${rgbTo256(color.r, color.g, color.b)}m`;
}

const FG_RESET = "\x1b[39m";
const BG_RESET = "\x1b[49m";
const identity: StyleFn = (text) => text;

function wrap(open: string, close: string): StyleFn {
	return (text) => `${open}${text}${close}`;
}

const THINKING_TOKENS: Record<ThinkingLevel, ThemeColor> = {
	off: "thinkingOff",
	minimal: "thinkingMinimal",
	low: "thinkingLow",
	medium: "thinkingMedium",
	high: "thinkingHigh",
	xhigh: "thinkingXhigh",
};

export class Theme {
	private readonly fgStyles = new Map<ThemeToken, StyleFn>();
	private readonly bgStyles = new Map<ThemeToken, StyleFn>();
	/** Markdown themes by code-block indent (each holds a syntax highlighter: build once, reuse). */
	private readonly markdownThemes = new Map<string, MarkdownTheme>();
	readonly bold: StyleFn = wrap("\x1b[1m", "\x1b[22m");
	readonly italic: StyleFn = wrap("\x1b[3m", "\x1b[23m");
	readonly underline: StyleFn = wrap("\x1b[4m", "\x1b[24m");
	readonly strikethrough: StyleFn = wrap("\x1b[9m", "\x1b[29m");
	readonly inverse: StyleFn = wrap("\x1b[7m", "\x1b[27m");

	constructor(
		readonly name: string,
		readonly colors: ResolvedColors,
		readonly mode: ColorMode,
		/** The theme file, for custom themes. */
		readonly sourcePath?: string,
	) {}

	get isColorEnabled(): boolean {
		return this.mode !== "none";
	}

	/** The same colours for another colour depth. */
	withMode(mode: ColorMode): Theme {
		return mode === this.mode ? this : new Theme(this.name, this.colors, mode, this.sourcePath);
	}

	fgStyle(token: ThemeColor): StyleFn {
		let style = this.fgStyles.get(token);
		if (!style) {
			const open = colorSequence(this.colors[token], false, this.mode);
			style = open ? wrap(open, FG_RESET) : identity;
			this.fgStyles.set(token, style);
		}
		return style;
	}

	bgStyle(token: ThemeBackground): StyleFn {
		let style = this.bgStyles.get(token);
		if (!style) {
			const open = colorSequence(this.colors[token], true, this.mode);
			style = open ? wrap(open, BG_RESET) : identity;
			this.bgStyles.set(token, style);
		}
		return style;
	}

	fg(token: ThemeColor, text: string): string {
		return this.fgStyle(token)(text);
	}

	bg(token: ThemeBackground, text: string): string {
		return this.bgStyle(token)(text);
	}

	/** The editor border colour for a thinking level. */
	thinkingStyle(level: ThinkingLevel): StyleFn {
		return this.fgStyle(THINKING_TOKENS[level]);
	}

	getMarkdownTheme(options: { codeBlockIndent?: string } = {}): MarkdownTheme {
		const key = options.codeBlockIndent ?? "";
		const cached = this.markdownThemes.get(key);
		if (cached) return cached;
		const f = (token: ThemeColor) => this.fgStyle(token);
		const theme: MarkdownTheme = {
			heading: f("mdHeading"),
			link: f("mdLink"),
			linkUrl: f("mdLinkUrl"),
			code: f("mdCode"),
			codeBlock: f("mdCodeBlock"),
			codeBlockBorder: f("mdCodeBlockBorder"),
			quote: f("mdQuote"),
			quoteBorder: f("mdQuoteBorder"),
			hr: f("mdHr"),
			listBullet: f("mdListBullet"),
			bold: this.bold,
			italic: this.italic,
			strikethrough: this.strikethrough,
			underline: this.underline,
			...(this.isColorEnabled ? { highlightCode: createSyntaxHighlighter(this.getSyntaxTheme()) } : {}),
			...(options.codeBlockIndent !== undefined ? { codeBlockIndent: options.codeBlockIndent } : {}),
		};
		this.markdownThemes.set(key, theme);
		return theme;
	}

	getSyntaxTheme(): SyntaxTheme {
		const f = (token: ThemeColor) => this.fgStyle(token);
		return {
			comment: f("syntaxComment"),
			doc: f("syntaxComment"),
			meta: f("syntaxComment"),
			keyword: f("syntaxKeyword"),
			"selector-tag": f("syntaxKeyword"),
			built_in: f("syntaxType"),
			type: f("syntaxType"),
			"title.class": f("syntaxType"),
			title: f("syntaxFunction"),
			"title.function": f("syntaxFunction"),
			literal: f("syntaxNumber"),
			number: f("syntaxNumber"),
			symbol: f("syntaxNumber"),
			string: f("syntaxString"),
			regexp: f("syntaxString"),
			variable: f("syntaxVariable"),
			"template-variable": f("syntaxVariable"),
			attr: f("syntaxVariable"),
			attribute: f("syntaxVariable"),
			property: f("syntaxVariable"),
			params: f("syntaxVariable"),
			operator: f("syntaxOperator"),
			punctuation: f("syntaxPunctuation"),
			tag: f("syntaxKeyword"),
			name: f("syntaxKeyword"),
			addition: f("toolDiffAdded"),
			deletion: f("toolDiffRemoved"),
			emphasis: this.italic,
			strong: this.bold,
		};
	}

	getSelectListTheme(): SelectListTheme {
		return {
			selectedPrefix: this.fgStyle("accent"),
			selectedText: this.isColorEnabled ? this.fgStyle("accent") : this.bold,
			description: this.fgStyle("muted"),
			scrollInfo: this.fgStyle("muted"),
			noMatch: this.fgStyle("muted"),
		};
	}

	getEditorTheme(): EditorTheme {
		return { borderColor: this.fgStyle("borderMuted"), selectList: this.getSelectListTheme() };
	}

	getSettingsListTheme(): SettingsListTheme {
		const accent = this.fgStyle("accent");
		const muted = this.fgStyle("muted");
		return {
			label: (text, isSelected) => (isSelected ? this.bold(text) : text),
			value: (text, isSelected) => (isSelected ? accent(text) : muted(text)),
			description: muted,
			cursor: "→ ",
			hint: this.fgStyle("dim"),
		};
	}
}
