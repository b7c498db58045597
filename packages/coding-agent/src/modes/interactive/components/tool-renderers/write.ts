// `write`: the path and size, then the written content (first lines while collapsed) with syntax colours.
import { textLines } from "../render-utils.js";
import { languageOf, pathHeader } from "./read.js";
import { collapseLines, resultText, stringArg, type ToolRenderer, trimTrailingEmpty } from "./types.js";

const COLLAPSED_LINES = 10;

export const writeToolRenderer: ToolRenderer = {
	header(view, context) {
		const content = stringArg(view.args, "content");
		const lineCount = content === undefined ? 0 : trimTrailingEmpty(content.split("\n")).length;
		const size =
			content === undefined || !view.argsComplete ? "" : ` (${lineCount} line${lineCount === 1 ? "" : "s"})`;
		return pathHeader("write", stringArg(view.args, "path"), context) + context.theme.fg("muted", size);
	},
	body(view, context) {
		const { theme } = context;
		if (view.isError && view.result) {
			return trimTrailingEmpty(textLines(resultText(view.result))).map((line) => theme.fg("error", line));
		}
		const content = stringArg(view.args, "content");
		if (!content) return [];
		const all = trimTrailingEmpty(textLines(content));
		const limit = view.expanded ? all.length : COLLAPSED_LINES;
		const path = stringArg(view.args, "path") ?? "";
		const highlighted = context.highlight(all.slice(0, limit).join("\n"), languageOf(path));
		const shown = all.map((_, index) => (index < limit ? (highlighted[index] ?? "") : ""));
		return collapseLines(shown, COLLAPSED_LINES, view, context);
	},
};
