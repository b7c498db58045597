// `grep`, `find` and `ls`: what was searched where, then the matches (first lines while collapsed) and the
// limit notices.
import { textLines } from "../render-utils.js";
import { pathHeader } from "./read.js";
import {
	collapseLines,
	numberArg,
	resultText,
	splitTrailingNotice,
	stringArg,
	type ToolRenderer,
	type ToolView,
	trimTrailingEmpty,
} from "./types.js";

const COLLAPSED_LINES = 10;

const searchBody: ToolRenderer["body"] = (view: ToolView, context) => {
	const { theme } = context;
	const text = resultText(view.result);
	if (!text) return [];
	const { body, notice } = splitTrailingNotice(text);
	const color = view.isError ? "error" : "toolOutput";
	const lines = trimTrailingEmpty(textLines(body)).map((line) => theme.fg(color, line));
	const shown = collapseLines(lines, COLLAPSED_LINES, view, context);
	return notice ? [...shown, theme.fg("warning", notice)] : shown;
};

export const grepToolRenderer: ToolRenderer = {
	header(view, context) {
		const { theme } = context;
		const pattern = stringArg(view.args, "pattern") ?? "";
		const glob = stringArg(view.args, "glob");
		const limit = numberArg(view.args, "limit");
		const where = stringArg(view.args, "path") ?? ".";
		return (
			`${pathHeader("grep", where, context)} ${theme.fg("accent", `/${pattern}/`)}` +
			(glob ? theme.fg("muted", ` (${glob})`) : "") +
			(limit !== undefined ? theme.fg("muted", ` limit ${limit}`) : "")
		);
	},
	body: searchBody,
};

export const findToolRenderer: ToolRenderer = {
	header(view, context) {
		const pattern = stringArg(view.args, "pattern") ?? "";
		const where = stringArg(view.args, "path") ?? ".";
		return `${pathHeader("find", where, context)} ${context.theme.fg("accent", pattern)}`;
	},
	body: searchBody,
};

export const lsToolRenderer: ToolRenderer = {
	header(view, context) {
		return pathHeader("ls", stringArg(view.args, "path") ?? ".", context);
	},
	body: searchBody,
};
