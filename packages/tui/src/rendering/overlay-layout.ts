import { SGR_RESET } from "../text/ansi.js";
import { sliceByColumn, truncateToWidth } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";

export type SizeValue = number | `${number}%`;

export type OverlayAnchor =
	| "center"
	| "top-left"
	| "top-right"
	| "bottom-left"
	| "bottom-right"
	| "top-center"
	| "bottom-center"
	| "left-center"
	| "right-center";

export interface OverlayMargin {
	top?: number;
	right?: number;
	bottom?: number;
	left?: number;
}

export interface OverlayOptions {
	width?: SizeValue;
	minWidth?: number;
	maxHeight?: SizeValue;
	anchor?: OverlayAnchor;
	offsetX?: number;
	offsetY?: number;
	/** Row within the free space: a number of rows, or 0% = top edge … 100% = bottom edge. */
	row?: SizeValue;
	/** Column within the free space: a number of columns, or 0% = left edge … 100% = right edge. */
	col?: SizeValue;
	margin?: number | OverlayMargin;
	/** Hides the overlay while it returns false (e.g. on narrow terminals). */
	visible?: (termWidth: number, termHeight: number) => boolean;
	/** Does not take focus when shown. */
	nonCapturing?: boolean;
}

export interface OverlayHandle {
	hide(): void;
	setHidden(hidden: boolean): void;
	isHidden(): boolean;
	focus(): void;
	unfocus(): void;
	isFocused(): boolean;
}

function resolveSize(value: SizeValue | undefined, total: number): number | undefined {
	if (value === undefined) return undefined;
	if (typeof value === "number") return Math.floor(value);
	return Math.floor((total * Number.parseFloat(value)) / 100);
}

function resolveMargin(margin: OverlayOptions["margin"]): Required<OverlayMargin> {
	if (typeof margin === "number") return { top: margin, right: margin, bottom: margin, left: margin };
	return { top: margin?.top ?? 0, right: margin?.right ?? 0, bottom: margin?.bottom ?? 0, left: margin?.left ?? 0 };
}

/** Width an overlay renders at: min(80, available), raised to minWidth, clamped to the available space. */
export function resolveOverlayWidth(options: OverlayOptions, termWidth: number): number {
	const margin = resolveMargin(options.margin);
	const available = Math.max(1, termWidth - margin.left - margin.right);
	let width = resolveSize(options.width, termWidth) ?? Math.min(80, available);
	if (options.minWidth !== undefined) width = Math.max(width, options.minWidth);
	return Math.max(1, Math.min(width, available));
}

/** Largest number of lines the overlay may show. */
export function resolveOverlayMaxHeight(options: OverlayOptions, termHeight: number): number {
	const margin = resolveMargin(options.margin);
	const available = Math.max(1, termHeight - margin.top - margin.bottom);
	const max = resolveSize(options.maxHeight, termHeight);
	return Math.max(1, Math.min(max ?? available, available));
}

/** Top-left position of an overlay of the given size, relative to the viewport. */
export function resolveOverlayPosition(
	options: OverlayOptions,
	size: { width: number; height: number },
	termWidth: number,
	termHeight: number,
): { row: number; col: number } {
	const margin = resolveMargin(options.margin);
	const minRow = margin.top;
	const maxRow = Math.max(minRow, termHeight - margin.bottom - size.height);
	const minCol = margin.left;
	const maxCol = Math.max(minCol, termWidth - margin.right - size.width);
	const anchor = options.anchor ?? "center";
	const place = (value: SizeValue | undefined, min: number, max: number, start: boolean, end: boolean): number => {
		if (typeof value === "number") return min + value;
		if (value !== undefined) return min + Math.round(((max - min) * Number.parseFloat(value)) / 100);
		if (start) return min;
		if (end) return max;
		return min + Math.floor((max - min) / 2);
	};
	const isLeft = anchor === "top-left" || anchor === "bottom-left" || anchor === "left-center";
	const isRight = anchor === "top-right" || anchor === "bottom-right" || anchor === "right-center";
	let row = place(options.row, minRow, maxRow, anchor.startsWith("top"), anchor.startsWith("bottom"));
	let col = place(options.col, minCol, maxCol, isLeft, isRight);
	row += options.offsetY ?? 0;
	col += options.offsetX ?? 0;
	return {
		row: Math.max(minRow, Math.min(row, maxRow)),
		col: Math.max(minCol, Math.min(col, maxCol)),
	};
}

/**
 * Draws `overlay` over `base` starting at column `col`, `width` columns wide. The base keeps its styles
 * on both sides; the result is cut to `totalWidth`.
 */
export function compositeLine(base: string, overlay: string, col: number, width: number, totalWidth: number): string {
	const left = sliceByColumn(base, 0, col);
	const leftPadding = " ".repeat(Math.max(0, col - visibleWidth(left)));
	const middle = truncateToWidth(overlay, width, "", true);
	const right = sliceByColumn(base, col + width, Math.max(0, totalWidth - col - width));
	const line = `${left}${leftPadding}${SGR_RESET}${middle}${SGR_RESET}${right}`;
	return visibleWidth(line) > totalWidth ? truncateToWidth(line, totalWidth, "") : line;
}
