// `bash`: the command as a `$` line; the output's last lines while collapsed (the end of a build log is what
// matters), the whole retained output when expanded, then truncation and timeout notices.
import { textLines } from "../render-utils.js";
import {
	collapseLines,
	numberArg,
	resultText,
	splitTrailingNotice,
	stringArg,
	type ToolRenderer,
	trimTrailingEmpty,
} from "./types.js";

const COLLAPSED_LINES = 5;

export const bashToolRenderer: ToolRenderer = {
	header(view, { theme }) {
		const command = stringArg(view.args, "command") ?? "";
		const timeout = numberArg(view.args, "timeout");
		const shown = command.includes("\n") ? `${command.split("\n")[0]} ...` : command;
		return (
			theme.bold(theme.fg("toolTitle", `$ ${shown || "..."}`)) +
			(timeout !== undefined ? theme.fg("muted", ` (timeout ${timeout}s)`) : "")
		);
	},
	body(view, context) {
		const { theme } = context;
		const text = resultText(view.result);
		if (!text) return [];
		const { body, notice } = splitTrailingNotice(text);
		const color = view.isError ? "error" : "toolOutput";
		const lines = trimTrailingEmpty(textLines(body)).map((line) => theme.fg(color, line));
		const shown = collapseLines(lines, COLLAPSED_LINES, view, context, { fromEnd: true });
		return notice ? [...shown, theme.fg("warning", notice)] : shown;
	},
};
