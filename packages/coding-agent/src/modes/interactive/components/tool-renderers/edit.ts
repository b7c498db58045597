// `edit`: the path, then the diff of the change with line numbers (removed lines red, added green, changed
// words highlighted); errors as the tool's message.
import type { EditToolDetails } from "../../../../core/tools/edit.js";
import { textLines } from "../render-utils.js";
import { renderDiffLines } from "./diff-lines.js";
import { pathHeader } from "./read.js";
import { collapseLines, resultText, stringArg, type ToolRenderer, trimTrailingEmpty } from "./types.js";

const COLLAPSED_LINES = 30;

function diffOf(details: unknown): string | undefined {
	if (typeof details !== "object" || details === null) return undefined;
	const diff = (details as Partial<EditToolDetails>).diff;
	return typeof diff === "string" && diff.length > 0 ? diff : undefined;
}

function firstChangedLineOf(details: unknown): number | undefined {
	if (typeof details !== "object" || details === null) return undefined;
	const line = (details as Partial<EditToolDetails>).firstChangedLine;
	return typeof line === "number" && Number.isFinite(line) ? line : undefined;
}

export const editToolRenderer: ToolRenderer = {
	header(view, context) {
		// `edit calc.py:2`: where the change starts, once the edit is done.
		const line = view.isError ? undefined : firstChangedLineOf(view.result?.details);
		const at = line !== undefined ? context.theme.fg("warning", `:${line}`) : "";
		return pathHeader("edit", stringArg(view.args, "path"), context) + at;
	},
	body(view, context) {
		const { theme } = context;
		if (!view.result || view.isPartial) return [];
		if (view.isError) {
			return trimTrailingEmpty(textLines(resultText(view.result))).map((line) => theme.fg("error", line));
		}
		const diff = diffOf(view.result.details);
		if (!diff) return [];
		return collapseLines(renderDiffLines(diff, theme), COLLAPSED_LINES, view, context);
	},
};
