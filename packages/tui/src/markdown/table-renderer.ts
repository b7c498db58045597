import type { Tokens } from "marked";
import { padToWidth } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";
import { wrapTextWithAnsi } from "../text/wrap.js";
import type { StyleFn } from "../theme/style.js";
import type { MarkdownTheme } from "../theme/themes.js";
import { renderInline } from "./inline-renderer.js";

type Align = "left" | "center" | "right" | null;

function alignCell(text: string, width: number, align: Align): string {
	const gap = Math.max(0, width - visibleWidth(text));
	if (align === "right") return " ".repeat(gap) + text;
	if (align === "center") return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(gap - Math.floor(gap / 2));
	return padToWidth(text, width);
}

/**
 * Column widths that fit `budget` columns: natural widths when they fit; otherwise the widest columns
 * are narrowed first (a common cap), so short columns keep their natural width.
 */
function fitColumns(natural: number[], budget: number): number[] {
	const total = natural.reduce((a, b) => a + b, 0);
	if (total <= budget) return natural;
	let cap = Math.max(...natural);
	while (cap > 1 && natural.reduce((sum, w) => sum + Math.min(w, cap), 0) > budget) cap--;
	const widths = natural.map((w) => Math.min(w, cap));
	// Hand the columns left over by the integer cap to the widest columns.
	let left = budget - widths.reduce((a, b) => a + b, 0);
	for (let i = 0; i < widths.length && left > 0; i++) {
		if (widths[i] < natural[i]) {
			widths[i]++;
			left--;
		}
	}
	return widths;
}

/**
 * A table with box-drawing borders; columns are fitted to `width` and cells wrap. When even a minimal
 * table does not fit, rows are written as "a | b" lines.
 */
export function renderTable(table: Tokens.Table, width: number, theme: MarkdownTheme, base: StyleFn): string[] {
	const header = table.header.map((cell) => theme.bold(renderInline(cell.tokens, theme, base)));
	const rows = table.rows.map((row) => row.map((cell) => renderInline(cell.tokens, theme, base)));
	const columnCount = header.length;
	const border = theme.hr;
	const overhead = columnCount * 3 + 1;
	if (columnCount === 0 || width < overhead + columnCount) {
		return [header, ...rows].flatMap((cells) => wrapTextWithAnsi(cells.join(" | "), width));
	}
	const natural = header.map((cell, i) =>
		Math.max(1, visibleWidth(cell), ...rows.map((row) => visibleWidth(row[i] ?? ""))),
	);
	const widths = fitColumns(natural, width - overhead);
	const rule = (left: string, middle: string, right: string) =>
		border(left + widths.map((w) => "─".repeat(w + 2)).join(middle) + right);
	const renderRow = (cells: string[]): string[] => {
		const wrapped = widths.map((w, i) => wrapTextWithAnsi(cells[i] ?? "", w));
		const height = Math.max(...wrapped.map((lines) => lines.length));
		const lines: string[] = [];
		for (let line = 0; line < height; line++) {
			const parts = widths.map((w, i) => ` ${alignCell(wrapped[i][line] ?? "", w, table.align[i] ?? null)} `);
			lines.push(border("│") + parts.join(border("│")) + border("│"));
		}
		return lines;
	};
	return [
		rule("┌", "┬", "┐"),
		...renderRow(header),
		rule("├", "┼", "┤"),
		...rows.flatMap((row) => renderRow(row)),
		rule("└", "┴", "┘"),
	];
}
