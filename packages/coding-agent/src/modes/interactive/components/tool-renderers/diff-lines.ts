// Colours the edit tool's line diff (`+12 added`, `-12 removed`, ` 12 context`, `     ...`): added and removed
// lines in the diff colours with their line numbers, and, where a run of removed lines is replaced by as many
// added lines, the changed words in reverse video so a one-word edit stands out.
import { diffWords } from "diff";
import { getCurrentTheme } from "../../theme/current-theme.js";
import type { Theme } from "../../theme/theme.js";

interface DiffLine {
	kind: "added" | "removed" | "context";
	/** Sign and line number, e.g. "+12 ". */
	gutter: string;
	text: string;
}

const DIFF_LINE = /^([+\- ])(\s*\d*)\s(.*)$/;

function parseDiffLine(line: string): DiffLine {
	const match = DIFF_LINE.exec(line);
	if (!match) return { kind: "context", gutter: "", text: line };
	const kind = match[1] === "+" ? "added" : match[1] === "-" ? "removed" : "context";
	return { kind, gutter: `${match[1]}${match[2]} `, text: match[3] };
}

function highlightWords(theme: Theme, oldText: string, newText: string): { removed: string; added: string } {
	const removedColor = theme.fgStyle("toolDiffRemoved");
	const addedColor = theme.fgStyle("toolDiffAdded");
	let removed = "";
	let added = "";
	for (const part of diffWords(oldText, newText)) {
		if (part.removed) removed += theme.inverse(part.value);
		else if (part.added) added += theme.inverse(part.value);
		else {
			removed += part.value;
			added += part.value;
		}
	}
	return { removed: removedColor(removed), added: addedColor(added) };
}

/** Styled rows of a diff produced by the edit tool. */
export function renderDiffLines(diff: string, theme: Theme): string[] {
	const lines = diff.split("\n").map(parseDiffLine);
	const out: string[] = [];
	let i = 0;
	while (i < lines.length) {
		const line = lines[i];
		if (line.kind === "removed") {
			let removedEnd = i;
			while (removedEnd < lines.length && lines[removedEnd].kind === "removed") removedEnd++;
			let addedEnd = removedEnd;
			while (addedEnd < lines.length && lines[addedEnd].kind === "added") addedEnd++;
			const removedCount = removedEnd - i;
			if (removedCount === addedEnd - removedEnd && removedCount <= 3) {
				const pairs: { removed: string; added: string }[] = [];
				for (let k = 0; k < removedCount; k++)
					pairs.push(highlightWords(theme, lines[i + k].text, lines[removedEnd + k].text));
				for (let k = 0; k < removedCount; k++)
					out.push(theme.fg("toolDiffRemoved", lines[i + k].gutter) + pairs[k].removed);
				for (let k = 0; k < removedCount; k++)
					out.push(theme.fg("toolDiffAdded", lines[removedEnd + k].gutter) + pairs[k].added);
				i = addedEnd;
				continue;
			}
		}
		const color =
			line.kind === "added" ? "toolDiffAdded" : line.kind === "removed" ? "toolDiffRemoved" : "toolDiffContext";
		out.push(theme.fg(color, line.gutter + line.text));
		i++;
	}
	return out;
}

/** The reference's options of `renderDiff`; it ignores them too. */
export interface RenderDiffOptions {
	filePath?: string;
}

/** The reference's `renderDiff`: an edit diff styled with the theme on screen, as one string. */
export function renderDiff(diffText: string, _options?: RenderDiffOptions): string {
	return renderDiffLines(diffText, getCurrentTheme()).join("\n");
}
