// `read`: the path and line range; the file's first lines with line numbers and syntax colours while collapsed,
// all of it when expanded, and the continuation notice ("Use offset=… to continue").
import { extname } from "node:path";
import type { Theme } from "../../theme/theme.js";
import { displayPath, textLines } from "../render-utils.js";
import {
	collapseLines,
	numberArg,
	resultText,
	splitTrailingNotice,
	stringArg,
	type ToolRenderContext,
	type ToolRenderer,
	trimTrailingEmpty,
} from "./types.js";

const COLLAPSED_LINES = 10;

/** The language highlight.js knows a file by (its extension; the highlighter resolves aliases). */
export function languageOf(path: string): string | undefined {
	const ext = extname(path).slice(1).toLowerCase();
	return ext || undefined;
}

/** Highlighted lines of `code` (plain when colour is off or the language is unknown). */
export function highlightLines(theme: Theme, code: string, language: string | undefined): string[] {
	const highlight = theme.getMarkdownTheme().highlightCode;
	if (!highlight || !language) return textLines(code);
	try {
		return highlight(code.replaceAll("\t", "   "), language);
	} catch {
		return textLines(code);
	}
}

export function pathHeader(toolName: string, path: string | undefined, context: ToolRenderContext): string {
	const { theme } = context;
	const shown = path ? displayPath(path, context.cwd) : "...";
	return `${theme.bold(theme.fg("toolTitle", toolName))} ${theme.fg("accent", shown)}`;
}

export const readToolRenderer: ToolRenderer = {
	header(view, context) {
		const offset = numberArg(view.args, "offset");
		const limit = numberArg(view.args, "limit");
		let range = "";
		if (offset !== undefined || limit !== undefined) {
			const start = offset ?? 1;
			range = limit !== undefined ? `:${start}-${start + limit - 1}` : `:${start}`;
		}
		return pathHeader("read", stringArg(view.args, "path"), context) + context.theme.fg("warning", range);
	},
	body(view, context) {
		const { theme } = context;
		const text = resultText(view.result);
		if (!text) return [];
		if (view.isError) return trimTrailingEmpty(textLines(text)).map((line) => theme.fg("error", line));
		const { body, notice } = splitTrailingNotice(text);
		const all = trimTrailingEmpty(textLines(body));
		const limit = view.expanded ? all.length : COLLAPSED_LINES;
		const shownCode = all.slice(0, limit).join("\n");
		const path = stringArg(view.args, "path") ?? "";
		const highlighted = context.highlight(shownCode, languageOf(path));
		const first = numberArg(view.args, "offset") ?? 1;
		const width = String(first + all.length - 1).length;
		const numbered = all.map((_, index) =>
			index < limit ? `${theme.fg("dim", String(first + index).padStart(width))} ${highlighted[index] ?? ""}` : "",
		);
		const shown = collapseLines(numbered, COLLAPSED_LINES, view, context);
		return notice ? [...shown, theme.fg("warning", notice)] : shown;
	},
};
