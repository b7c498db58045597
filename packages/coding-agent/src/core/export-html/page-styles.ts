// The page's only stylesheet (inline: the page loads nothing from anywhere). Colours come from page-theme.ts.
import { TREE_ROW_HEIGHT_PX } from "./page-script.js";
import { THEME_STYLES } from "./page-theme.js";

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace';

const LAYOUT_STYLES = `
* { box-sizing: border-box; }
[hidden] { display: none !important; }
/* The transcript keeps the reader's place itself when it adds entries above (see extendBefore). */
html { overflow-anchor: none; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
a { color: var(--accent); }
button { font: inherit; color: inherit; }
.app { display: grid; grid-template-columns: minmax(260px, 360px) minmax(0, 1fr); min-height: 100vh; }
.sidebar { position: sticky; top: 0; height: 100vh; display: flex; flex-direction: column; background: var(--panel); border-right: 1px solid var(--border); min-width: 0; }
.sidebar-head { padding: 12px; display: flex; flex-direction: column; gap: 8px; border-bottom: 1px solid var(--border); }
.sidebar-title { display: flex; gap: 8px; align-items: center; }
.sidebar-title strong { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.search { width: 100%; padding: 6px 8px; border: 1px solid var(--border); border-radius: 6px; background: var(--card); color: var(--text); font: inherit; font-size: 14px; }
.filters { display: flex; flex-wrap: wrap; gap: 4px; }
.chip { border: 1px solid var(--border); background: var(--card); border-radius: 12px; padding: 1px 10px; font-size: 12px; cursor: pointer; color: var(--muted); }
.chip[aria-pressed="true"] { background: var(--accent-bg); color: var(--text); border-color: var(--accent); }
.tree { flex: 1; overflow: auto; position: relative; font: 12px/${TREE_ROW_HEIGHT_PX}px ${MONO}; }
.tree-rows { position: relative; min-width: 100%; }
.tree-row { position: absolute; left: 0; right: 0; height: ${TREE_ROW_HEIGHT_PX}px; padding: 0 10px 0 6px; white-space: pre; overflow: hidden; text-overflow: ellipsis; cursor: pointer; color: var(--muted); }
.tree-row:hover { background: var(--code-bg); }
.tree-row.on-path { color: var(--text); }
.tree-row.active { background: var(--accent-bg); }
.tree-guide { color: var(--border); }
.tree-dot { display: inline-block; width: 6px; height: 6px; border-radius: 50%; margin: 0 5px 1px 2px; vertical-align: middle; }
.tree-row.on-path .tree-dot { background: var(--accent); }
.tree-title { font-weight: 600; }
.kind-user .tree-title { color: var(--accent); }
.kind-assistant .tree-title { color: var(--hl-string); }
.kind-tool .tree-title, .kind-bash .tree-title { color: var(--hl-type); }
.kind-summary .tree-title, .kind-custom .tree-title { color: var(--label); }
.kind-event .tree-title, .kind-other .tree-title { font-weight: normal; }
.tree-row.is-error .tree-title { color: var(--error); }
.tree-row .badge { margin-left: 6px; font-family: system-ui, sans-serif; }
.tree-status { padding: 6px 12px; font-size: 12px; color: var(--muted); border-top: 1px solid var(--border); }
.content { min-width: 0; width: 100%; max-width: 1000px; margin: 0 auto; padding: 20px 24px 48px; }
code, pre { font-family: ${MONO}; font-size: 13px; tab-size: 4; }
code { background: var(--code-bg); padding: 0 4px; border-radius: 4px; }
pre { background: var(--code-bg); padding: 8px 10px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0; }
pre code { background: none; padding: 0; }
pre.command::before { content: "$ "; color: var(--muted); }
h1 { font-size: 22px; margin: 0 0 12px; overflow-wrap: anywhere; }
.session-header, .session-footer { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 16px; margin-bottom: 16px; }
.session-header details { margin-top: 10px; }
.session-footer { margin-top: 24px; overflow-x: auto; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
.link-button { border: none; background: none; padding: 0; color: var(--accent); cursor: pointer; text-decoration: underline; }
.tool-list { margin: 6px 0 0; padding: 0; list-style: none; }
.tool-list > li { padding: 6px 0; border-top: 1px solid var(--border); }
.tool-params { margin: 4px 0 0 16px; padding: 0; list-style: none; font-size: 13px; }
.system-prompt { max-height: 60vh; overflow: auto; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { border: 1px solid var(--border); padding: 3px 8px; text-align: left; vertical-align: top; }
.slot { scroll-margin-top: 12px; }
.entry { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 10px 14px; margin: 10px 0; }
.slot.target > .entry { box-shadow: 0 0 0 2px var(--accent); }
.entry.user { background: var(--user); }
.entry.tool, .entry.bash { background: var(--tool); }
.entry.event { background: none; border: none; padding: 2px 14px; margin: 4px 0; color: var(--event); font-size: 13px; }
.entry.event details { display: inline-block; vertical-align: top; }
.entry-head { display: flex; gap: 8px; align-items: baseline; font-weight: 600; margin-bottom: 4px; }
.entry-title { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.entry-time { color: var(--muted); font-weight: normal; font-size: 12px; text-decoration: none; }
.muted { color: var(--muted); font-weight: normal; }
.badge { display: inline-block; font-size: 11px; font-weight: 600; padding: 0 6px; border-radius: 10px; border: 1px solid var(--border); color: var(--muted); line-height: 1.5; }
.badge.label { color: var(--label); border-color: var(--label); }
.badge.error { color: var(--error); border-color: var(--error); }
.markdown > :first-child { margin-top: 0; }
.markdown > :last-child { margin-bottom: 0; }
.markdown p { margin: 6px 0; }
.markdown h1, .markdown h2, .markdown h3, .markdown h4, .markdown h5, .markdown h6 { font-size: 16px; margin: 10px 0 4px; }
.markdown h1, .markdown h2 { font-size: 18px; }
.markdown blockquote { margin: 6px 0; padding-left: 10px; border-left: 3px solid var(--border); color: var(--muted); }
.markdown ul, .markdown ol { margin: 6px 0; padding-left: 24px; }
.markdown li.indent-1 { margin-left: 1.5em; } .markdown li.indent-2 { margin-left: 3em; } .markdown li.indent-3 { margin-left: 4.5em; }
.thinking { margin: 6px 0; color: var(--muted); }
.thinking > summary { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.thinking[open] .thinking-preview { display: none; }
.thinking-preview { font-style: italic; }
.thinking-text { white-space: pre-wrap; font-style: italic; padding: 4px 0 4px 10px; border-left: 3px solid var(--border); }
details > summary { cursor: pointer; color: var(--muted); }
.tool-call { border-left: 3px solid var(--accent); padding: 2px 0 2px 10px; margin: 8px 0; }
.tool-result { border-left: 3px solid var(--border); padding: 2px 0 2px 10px; }
.tool-result.is-error { border-left-color: var(--error); }
.tool-head { font-size: 13px; }
.tool-name { font-weight: 600; font-family: ${MONO}; }
.call-link { font-weight: normal; font-size: 12px; }
.diff { background: var(--code-bg); border-radius: 6px; padding: 6px 0; margin: 6px 0; font: 13px/1.5 ${MONO}; overflow-x: auto; tab-size: 4; }
.diff > div { position: relative; min-height: 1.5em; padding: 0 10px 0 9ch; white-space: pre-wrap; overflow-wrap: anywhere; }
.diff > div::before { content: attr(data-n) "  "; position: absolute; left: 0; width: 8ch; text-align: right; white-space: pre; color: var(--muted); }
.diff > .d-add { background: var(--add); color: var(--add-text); }
.diff > .d-add::before { content: attr(data-n) " +"; color: inherit; }
.diff > .d-del { background: var(--del); color: var(--del-text); }
.diff > .d-del::before { content: attr(data-n) " -"; color: inherit; }
.diff > hr { height: 0; margin: 5px 8px; border: none; border-top: 1px dashed var(--muted); opacity: 0.6; }
.fold:not(.open) > .fold-body { max-height: 19em; overflow: hidden; -webkit-mask-image: linear-gradient(#000 75%, transparent); mask-image: linear-gradient(#000 75%, transparent); }
.fold-toggle { border: 1px solid var(--border); background: var(--card); border-radius: 6px; padding: 1px 10px; font-size: 12px; cursor: pointer; color: var(--muted); }
.error-text { color: var(--error); }
.error-box { background: var(--error-bg); color: var(--error); border-radius: 6px; padding: 6px 10px; margin: 6px 0; white-space: pre-wrap; }
.notice { background: var(--notice-bg); color: var(--notice); border-radius: 6px; padding: 4px 10px; margin: 6px 0; font-size: 13px; }
.usage { font-size: 12px; margin-top: 4px; }
.files { font-size: 13px; margin-top: 4px; }
.image { max-width: 100%; border-radius: 6px; margin: 6px 0; display: block; }
.icon { width: 14px; height: 14px; vertical-align: -2px; fill: none; stroke: currentColor; stroke-width: 1.4; }
.fork-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin: -4px 0 10px; padding: 6px 10px; border: 1px dashed var(--border); border-radius: 8px; font-size: 13px; color: var(--muted); }
.branch-button { border: 1px solid var(--border); background: var(--card); border-radius: 6px; padding: 1px 8px; cursor: pointer; max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.branch-button.current { border-color: var(--accent); color: var(--text); }
.more { display: block; width: 100%; margin: 10px 0; padding: 6px; border: 1px dashed var(--border); border-radius: 8px; background: none; color: var(--muted); cursor: pointer; }
.empty { color: var(--muted); text-align: center; padding: 24px; }
mark { background: var(--mark); color: inherit; border-radius: 2px; }
.totals td, .totals th { text-align: right; }
.totals td:first-child, .totals th:first-child { text-align: left; }
.hide-thinking .thinking { display: none; }
.hide-tools .tool-call { display: none; }
.hide-messages .entry.assistant .markdown, .hide-messages .entry.assistant .usage { display: none; }
@media (max-width: 860px) {
	.app { grid-template-columns: minmax(0, 1fr); }
	.sidebar { position: static; height: auto; max-height: 55vh; border-right: none; border-bottom: 1px solid var(--border); }
	.tree { min-height: 160px; }
	.content { padding: 12px; }
}
@media print {
	.sidebar, .more, .fork-bar, .fold-toggle { display: none; }
	.app { display: block; }
	.fold > .fold-body { max-height: none !important; -webkit-mask-image: none !important; mask-image: none !important; }
	details { display: block; }
}
`;

export const PAGE_STYLES = THEME_STYLES + LAYOUT_STYLES;
