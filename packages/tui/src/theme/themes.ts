import type { StyleFn } from "./style.js";

export interface SelectListTheme {
	selectedPrefix: StyleFn;
	selectedText: StyleFn;
	description: StyleFn;
	scrollInfo: StyleFn;
	noMatch: StyleFn;
}

export interface EditorTheme {
	borderColor: StyleFn;
	selectList: SelectListTheme;
}

export interface MarkdownTheme {
	heading: StyleFn;
	link: StyleFn;
	linkUrl: StyleFn;
	code: StyleFn;
	codeBlock: StyleFn;
	codeBlockBorder: StyleFn;
	quote: StyleFn;
	quoteBorder: StyleFn;
	hr: StyleFn;
	listBullet: StyleFn;
	bold: StyleFn;
	italic: StyleFn;
	strikethrough: StyleFn;
	underline: StyleFn;
	/** Highlights a code block, returning one styled string per line of `code`. */
	highlightCode?: (code: string, lang?: string) => string[];
	/** Indentation of code block lines (default two spaces). */
	codeBlockIndent?: string;
}

/** Base style of a Markdown component's text (e.g. a user message drawn on a background). */
export interface DefaultTextStyle {
	color?: StyleFn;
	bgColor?: StyleFn;
	bold?: boolean;
	italic?: boolean;
	strikethrough?: boolean;
	underline?: boolean;
}

export interface SettingsListTheme {
	label: (text: string, isSelected: boolean) => string;
	value: (text: string, isSelected: boolean) => string;
	description: StyleFn;
	/** Prefix of the selected row (e.g. "→ "); other rows get as many spaces. */
	cursor: string;
	hint: StyleFn;
}

export interface ImageTheme {
	fallbackColor: StyleFn;
}
