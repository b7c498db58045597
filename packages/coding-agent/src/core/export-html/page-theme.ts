// The page's colours, light and dark, as CSS custom properties. Dark applies when the system prefers it, unless the
// reader chose a theme with the page's toggle (`data-theme` on the root element), which wins either way.

type ThemeColors = Record<string, string>;

const LIGHT: ThemeColors = {
	bg: "#f6f7f9",
	panel: "#eef0f3",
	card: "#ffffff",
	text: "#1d2025",
	muted: "#646b76",
	border: "#dde1e6",
	user: "#eef4ff",
	tool: "#f7f7f4",
	event: "#7b818b",
	"code-bg": "#f0f1f3",
	add: "#e6f6ea",
	"add-text": "#116329",
	del: "#fdecec",
	"del-text": "#a40e26",
	error: "#b42318",
	"error-bg": "#fef3f2",
	notice: "#7a5600",
	"notice-bg": "#fff8e1",
	accent: "#2f6feb",
	"accent-bg": "#dbe7fd",
	label: "#6f42c1",
	mark: "#ffe58a",
	"hl-keyword": "#a626a4",
	"hl-string": "#50a14f",
	"hl-number": "#986801",
	"hl-comment": "#8a8f98",
	"hl-title": "#4078f2",
	"hl-type": "#c18401",
	"hl-attr": "#986801",
	"hl-variable": "#e45649",
	"hl-meta": "#4078f2",
	"hl-tag": "#e45649",
};

const DARK: ThemeColors = {
	bg: "#15171b",
	panel: "#1a1c21",
	card: "#1f2228",
	text: "#e3e5e8",
	muted: "#9aa0a9",
	border: "#30343c",
	user: "#1f2a3d",
	tool: "#1b1e23",
	event: "#8a8f98",
	"code-bg": "#262a31",
	add: "#133020",
	"add-text": "#7ee2a0",
	del: "#3a1719",
	"del-text": "#ff9b9b",
	error: "#ff8a80",
	"error-bg": "#3a1719",
	notice: "#f0c36b",
	"notice-bg": "#342a12",
	accent: "#7aa7ff",
	"accent-bg": "#243553",
	label: "#c3a6ff",
	mark: "#6b5a12",
	"hl-keyword": "#c678dd",
	"hl-string": "#98c379",
	"hl-number": "#d19a66",
	"hl-comment": "#7f848e",
	"hl-title": "#61afef",
	"hl-type": "#e5c07b",
	"hl-attr": "#d19a66",
	"hl-variable": "#e06c75",
	"hl-meta": "#61afef",
	"hl-tag": "#e06c75",
};

function declarations(colors: ThemeColors): string {
	return Object.entries(colors)
		.map(([name, value]) => `--${name}: ${value};`)
		.join(" ");
}

/** highlight.js token classes mapped onto the theme's colours. */
const SYNTAX_STYLES = `
.hljs-keyword, .hljs-selector-tag, .hljs-doctag, .hljs-section, .hljs-link { color: var(--hl-keyword); }
.hljs-string, .hljs-regexp, .hljs-addition, .hljs-symbol, .hljs-template-tag { color: var(--hl-string); }
.hljs-number, .hljs-literal, .hljs-bullet { color: var(--hl-number); }
.hljs-comment, .hljs-quote { color: var(--hl-comment); font-style: italic; }
.hljs-title, .hljs-title.function_, .hljs-function .hljs-title, .hljs-selector-id { color: var(--hl-title); }
.hljs-type, .hljs-title.class_, .hljs-built_in, .hljs-class .hljs-title { color: var(--hl-type); }
.hljs-attr, .hljs-attribute, .hljs-selector-attr, .hljs-selector-class, .hljs-property { color: var(--hl-attr); }
.hljs-variable, .hljs-template-variable, .hljs-params, .hljs-deletion { color: var(--hl-variable); }
.hljs-meta, .hljs-meta .hljs-keyword { color: var(--hl-meta); }
.hljs-tag, .hljs-name { color: var(--hl-tag); }
.hljs-emphasis { font-style: italic; }
.hljs-strong { font-weight: 600; }
`;

export const THEME_STYLES = `
:root { color-scheme: light; ${declarations(LIGHT)} }
@media (prefers-color-scheme: dark) {
	:root:not([data-theme="light"]) { color-scheme: dark; ${declarations(DARK)} }
}
:root[data-theme="dark"] { color-scheme: dark; ${declarations(DARK)} }
${SYNTAX_STYLES}`;
