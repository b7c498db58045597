// Any tool without a renderer of its own (extension tools): its name, its arguments as compact JSON, and the
// text it returned.
import { textLines } from "../render-utils.js";
import { collapseLines, resultText, type ToolRenderer, trimTrailingEmpty } from "./types.js";

const COLLAPSED_LINES = 10;
const MAX_ARGS_WIDTH = 200;

function compactArgs(args: Record<string, unknown>): string {
	const json = JSON.stringify(args);
	if (!json || json === "{}") return "";
	return json.length > MAX_ARGS_WIDTH ? `${json.slice(0, MAX_ARGS_WIDTH - 3)}...` : json;
}

export const genericToolRenderer: ToolRenderer = {
	header(view, { theme }) {
		const args = compactArgs(view.args);
		return `${theme.bold(theme.fg("toolTitle", view.toolName))}${args ? ` ${theme.fg("muted", args)}` : ""}`;
	},
	body(view, context) {
		const text = resultText(view.result);
		if (!text) return [];
		const color = view.isError ? "error" : "toolOutput";
		const lines = trimTrailingEmpty(textLines(text)).map((line) => context.theme.fg(color, line));
		return collapseLines(lines, COLLAPSED_LINES, view, context);
	},
};
