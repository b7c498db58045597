import { createSyntaxHighlighter, type SyntaxTheme } from "../markdown/syntax-highlight.js";
import { createStyles, plain } from "./style.js";
import type { EditorTheme, ImageTheme, MarkdownTheme, SelectListTheme, SettingsListTheme } from "./themes.js";

/** Options of the default themes: `color: false` (e.g. NO_COLOR) keeps attributes but drops colours. */
export interface DefaultThemeOptions {
	color?: boolean;
}

/** highlight.js scopes in the 16 basic ANSI colours, so they follow the user's terminal palette. */
export function defaultSyntaxTheme(options: DefaultThemeOptions = {}): SyntaxTheme {
	if (options.color === false) return {};
	const s = createStyles();
	return {
		keyword: s.fg("magenta"),
		built_in: s.fg("cyan"),
		type: s.fg("cyan"),
		"title.class": s.fg("cyan"),
		title: s.fg("blue"),
		"title.function": s.fg("blue"),
		literal: s.fg("yellow"),
		number: s.fg("yellow"),
		symbol: s.fg("yellow"),
		string: s.fg("green"),
		regexp: s.fg("red"),
		subst: plain,
		comment: s.fg("gray"),
		doc: s.fg("gray"),
		meta: s.fg("gray"),
		attr: s.fg("blue"),
		attribute: s.fg("blue"),
		property: s.fg("blue"),
		tag: s.fg("blue"),
		name: s.fg("blue"),
		"selector-tag": s.fg("magenta"),
		"selector-class": s.fg("yellow"),
		"selector-id": s.fg("yellow"),
		variable: s.fg("red"),
		"template-variable": s.fg("red"),
		addition: s.fg("green"),
		deletion: s.fg("red"),
		section: s.fg("blue"),
		bullet: s.fg("yellow"),
		emphasis: s.italic,
		strong: s.bold,
	};
}

export function defaultMarkdownTheme(options: DefaultThemeOptions = {}): MarkdownTheme {
	const s = createStyles(options);
	return {
		heading: s.fg("cyan"),
		link: s.fg("blue"),
		linkUrl: s.fg("gray"),
		code: s.fg("yellow"),
		codeBlock: s.fg("green"),
		codeBlockBorder: s.fg("gray"),
		quote: s.fg("gray"),
		quoteBorder: s.fg("gray"),
		hr: s.fg("gray"),
		listBullet: s.fg("cyan"),
		bold: s.bold,
		italic: s.italic,
		strikethrough: s.strikethrough,
		underline: s.underline,
		highlightCode: options.color === false ? undefined : createSyntaxHighlighter(defaultSyntaxTheme(options)),
	};
}

export function defaultSelectListTheme(options: DefaultThemeOptions = {}): SelectListTheme {
	const s = createStyles(options);
	return {
		selectedPrefix: s.fg("cyan"),
		selectedText: options.color === false ? s.bold : s.fg("cyan"),
		description: s.fg("gray"),
		scrollInfo: s.fg("gray"),
		noMatch: s.fg("gray"),
	};
}

export function defaultEditorTheme(options: DefaultThemeOptions = {}): EditorTheme {
	const s = createStyles(options);
	return { borderColor: s.fg("gray"), selectList: defaultSelectListTheme(options) };
}

export function defaultSettingsListTheme(options: DefaultThemeOptions = {}): SettingsListTheme {
	const s = createStyles(options);
	return {
		label: (text, isSelected) => (isSelected ? s.bold(text) : text),
		value: (text, isSelected) => (isSelected ? s.fg("cyan")(text) : s.fg("gray")(text)),
		description: s.fg("gray"),
		cursor: "→ ",
		hint: s.fg("gray"),
	};
}

export function defaultImageTheme(options: DefaultThemeOptions = {}): ImageTheme {
	return { fallbackColor: createStyles(options).fg("gray") };
}
