// The exported page's only stylesheet (inline: the page loads nothing from anywhere).
export const PAGE_STYLES = `
:root {
	color-scheme: light dark;
	--bg: #f6f7f9; --card: #ffffff; --text: #1d2025; --muted: #6b7280; --border: #dde1e6;
	--user: #eef4ff; --assistant: #ffffff; --tool: #f7f7f4; --event: #8a8f98; --code-bg: #f0f1f3;
	--add: #e6f6ea; --add-text: #116329; --del: #fdecec; --del-text: #a40e26; --error: #b42318; --error-bg: #fef3f2;
	--notice: #8a6100; --notice-bg: #fff8e1; --accent: #2f6feb; --label: #6f42c1;
}
@media (prefers-color-scheme: dark) {
	:root {
		--bg: #15171b; --card: #1d2026; --text: #e3e5e8; --muted: #9aa0a9; --border: #30343c;
		--user: #1f2a3d; --assistant: #1d2026; --tool: #1a1d22; --event: #8a8f98; --code-bg: #262a31;
		--add: #133020; --add-text: #7ee2a0; --del: #3a1719; --del-text: #ff9b9b; --error: #ff8a80; --error-bg: #3a1719;
		--notice: #f0c36b; --notice-bg: #342a12; --accent: #7aa7ff; --label: #c3a6ff;
	}
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 980px; margin: 0 auto; padding: 24px 16px 48px; }
a { color: var(--accent); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
code { background: var(--code-bg); padding: 0 4px; border-radius: 4px; }
pre { background: var(--code-bg); padding: 8px 10px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0; }
pre code { background: none; padding: 0; }
h1 { font-size: 22px; margin: 0 0 12px; overflow-wrap: anywhere; }
.session-header, .session-footer { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 16px; margin-bottom: 16px; }
.session-footer { margin-top: 24px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { border: 1px solid var(--border); padding: 3px 8px; text-align: left; vertical-align: top; }
.entry { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 10px 14px; margin: 10px 0; }
.entry.user { background: var(--user); }
.entry.assistant { background: var(--assistant); }
.entry.tool, .entry.bash { background: var(--tool); }
.entry.event { background: none; border: none; padding: 2px 14px; margin: 4px 0; color: var(--event); font-size: 13px; }
.entry.event details { display: inline-block; vertical-align: top; }
.entry-head { display: flex; gap: 8px; align-items: baseline; font-weight: 600; margin-bottom: 4px; }
.entry-title { flex: 1; }
.entry-time { color: var(--muted); font-weight: normal; font-size: 12px; text-decoration: none; }
.muted { color: var(--muted); font-weight: normal; }
.badge { display: inline-block; font-size: 11px; font-weight: 600; padding: 0 6px; border-radius: 10px; border: 1px solid var(--border); color: var(--muted); }
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
.thinking-text { white-space: pre-wrap; font-style: italic; padding: 4px 0 4px 10px; border-left: 3px solid var(--border); }
details > summary { cursor: pointer; color: var(--muted); }
.tool-call { border-left: 3px solid var(--accent); padding: 2px 0 2px 10px; margin: 8px 0; }
.tool-result { border-left: 3px solid var(--border); padding: 2px 0 2px 10px; }
.tool-result.is-error { border-left-color: var(--error); }
.tool-head { font-size: 13px; }
.tool-name { font-weight: 600; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre.diff span { display: block; }
.diff-add { background: var(--add); color: var(--add-text); }
.diff-del { background: var(--del); color: var(--del-text); }
.error-text { color: var(--error); }
.error-box { background: var(--error-bg); color: var(--error); border-radius: 6px; padding: 6px 10px; margin: 6px 0; white-space: pre-wrap; }
.notice { background: var(--notice-bg); color: var(--notice); border-radius: 6px; padding: 4px 10px; margin: 6px 0; font-size: 13px; }
.usage { font-size: 12px; margin-top: 4px; }
.files { font-size: 13px; margin-top: 4px; }
.image { max-width: 100%; border-radius: 6px; margin: 6px 0; display: block; }
.fork { border: 1px dashed var(--border); border-radius: 8px; padding: 6px 12px; margin: 10px 0; }
.fork-head { color: var(--muted); font-size: 13px; }
details.branch { margin: 4px 0; }
.branch-body { border-left: 2px solid var(--border); padding-left: 10px; margin-left: 4px; }
.totals td, .totals th { text-align: right; }
.totals td:first-child, .totals th:first-child { text-align: left; }
@media print { details { display: block; } .fork { break-inside: avoid-page; } }
`;
