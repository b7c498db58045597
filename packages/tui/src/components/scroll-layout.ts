import { type Component, isIncrementalRender } from "../component.js";
import { Container } from "../container.js";
import { matchesKey } from "../keys/key-matching.js";
import { parseMouseEvent } from "../keys/mouse.js";
import { stripAnsi } from "../text/ansi.js";
import { padToWidth, sliceByColumn, truncateToWidth } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";
import type { StyleFn } from "../theme/style.js";
import type { TUI } from "../tui.js";
import { Input } from "./input.js";

export interface ScrollLayoutTheme {
	scrollbarThumb: StyleFn;
	scrollbarTrack: StyleFn;
	/** A search match on screen. */
	match: StyleFn;
	/** The search match the view is on. */
	currentMatch: StyleFn;
	/** Label and hints of the search bar. */
	searchLabel: StyleFn;
	searchHint: StyleFn;
}

export interface ScrollLayoutOptions {
	/** Lines one notch of the mouse wheel scrolls (default 3). */
	wheelLines?: number;
	/**
	 * A left click on the scrolling content: the components under the pointer, outermost first (a child of the
	 * content, its child, …). Return true when the click did something.
	 */
	onClick?: (path: readonly Component[]) => boolean;
}

interface SearchMatch {
	line: number;
	column: number;
	width: number;
}

interface Anchor {
	/** Components from a child of the content down to the one drawn on the top row. */
	path: Component[];
	/** Row of the top line inside the last component of the path. */
	offset: number;
}

const RESET = "\x1b[0m";
const SEARCH_LABEL = "Find";
const SEARCH_HINT = "Enter/↑ older · ↓ newer · Esc close";

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The full-screen layout: a scrolling area (the content, e.g. a transcript) above a fixed area (e.g. editor and
 * footer), exactly as tall as the terminal. The content is drawn one column narrower than the screen, with a
 * scrollbar in the last column. The view follows the end of the content until the user scrolls up; then it stays
 * on the same lines (anchored to the component on its top row, so expanding a block above or a resize keeps
 * what is in view) until the user scrolls back to the end.
 *
 * Scrolling: `scrollBy`, `scrollPage`, `scrollToTop`, `scrollToBottom`, the mouse wheel, and a click on the
 * scrollbar. `openSearch()` shows a search bar above the fixed area that takes the keys until Esc: every match
 * in the content is highlighted, Enter/↑ go to older matches, ↓ to newer ones.
 *
 * The TUI must be in the full-screen mode (mouse reports on); the layout listens for them while it exists.
 */
export class ScrollLayout implements Component {
	private isFollowing = true;
	private top = 0;
	private anchor: Anchor | undefined;
	private view = { height: 1, total: 0, maxTop: 0, width: 0 };
	private searchInput: Input | undefined;
	private searchFocusBefore: Component | null = null;
	private matches: SearchMatch[] = [];
	private currentMatch = -1;
	private matchesStale = true;
	private matchedWidth = -1;
	private readonly removeInputListener: () => void;

	constructor(
		private readonly tui: TUI,
		readonly content: Component,
		readonly fixed: Component,
		private readonly theme: ScrollLayoutTheme,
		private readonly options: ScrollLayoutOptions = {},
	) {
		this.removeInputListener = tui.addInputListener((data) =>
			this.handleMouse(data) ? { consume: true } : undefined,
		);
	}

	/** Stops listening to the mouse (the layout is being replaced). */
	dispose(): void {
		this.removeInputListener();
		if (this.searchInput) this.closeSearch();
	}

	/** Whether the view shows the end of the content (and keeps doing so as it grows). */
	get isAtEnd(): boolean {
		return this.isFollowing;
	}

	get isSearching(): boolean {
		return this.searchInput !== undefined;
	}

	/** The first content line in view. */
	get firstVisibleLine(): number {
		return this.top;
	}

	scrollBy(lines: number): void {
		const target = (this.isFollowing ? this.view.maxTop : this.top) + lines;
		if (target >= this.view.maxTop) {
			this.scrollToBottom();
			return;
		}
		this.isFollowing = false;
		this.top = Math.max(0, target);
		this.anchor = undefined;
		this.tui.requestRender();
	}

	/** One screen up (-1) or down (1), keeping a line of the previous screen in view. */
	scrollPage(direction: -1 | 1): void {
		this.scrollBy(direction * Math.max(1, this.view.height - 1));
	}

	scrollToTop(): void {
		this.isFollowing = this.view.maxTop === 0;
		this.top = 0;
		this.anchor = undefined;
		this.tui.requestRender();
	}

	scrollToBottom(): void {
		this.isFollowing = true;
		this.anchor = undefined;
		this.tui.requestRender();
	}

	/** Shows the search bar and gives it the keys. */
	openSearch(): void {
		if (this.searchInput) return;
		const input = new Input();
		input.focused = true;
		input.onChange = () => {
			this.matchesStale = true;
			this.currentMatch = -1;
			this.tui.requestRender();
		};
		input.onSubmit = () => this.moveToMatch(-1);
		input.onEscape = () => this.closeSearch();
		this.searchInput = input;
		this.searchFocusBefore = this.tui.focused;
		this.tui.setFocus(this);
		this.matchesStale = true;
		this.tui.requestRender();
	}

	closeSearch(): void {
		if (!this.searchInput) return;
		this.searchInput = undefined;
		this.matches = [];
		this.currentMatch = -1;
		if (this.tui.focused === this) this.tui.setFocus(this.searchFocusBefore);
		this.searchFocusBefore = null;
		this.tui.requestRender();
	}

	/** Keys while the search bar is open. */
	handleInput(data: string): void {
		const input = this.searchInput;
		if (!input) return;
		if (matchesKey(data, "up") || matchesKey(data, "shift+tab")) this.moveToMatch(-1);
		else if (matchesKey(data, "down") || matchesKey(data, "tab")) this.moveToMatch(1);
		else if (matchesKey(data, "pageUp")) this.scrollPage(-1);
		else if (matchesKey(data, "pageDown")) this.scrollPage(1);
		else input.handleInput(data);
		this.tui.requestRender();
	}

	invalidate(): void {
		this.content.invalidate();
		this.fixed.invalidate();
		this.matchesStale = true;
	}

	render(width: number): string[] {
		const rows = this.tui.terminal.rows;
		const fixedLines = this.fixed.render(width);
		const searchRows = this.searchInput ? 1 : 0;
		const viewHeight = rows - fixedLines.length - searchRows;
		if (viewHeight < 1) return fixedLines.slice(-rows);

		const contentWidth = Math.max(1, width - 1);
		let lines: readonly string[];
		let firstChanged = 0;
		if (isIncrementalRender(this.content)) {
			const update = this.content.renderUpdate(contentWidth);
			lines = update.lines;
			firstChanged = update.firstChanged;
		} else {
			lines = this.content.render(contentWidth);
		}
		const total = lines.length;
		if (firstChanged < total || total !== this.view.total || contentWidth !== this.matchedWidth) {
			this.matchesStale = true;
		}
		const maxTop = Math.max(0, total - viewHeight);
		if (this.isFollowing) {
			this.top = maxTop;
		} else {
			const anchored = this.resolveAnchor();
			this.top = Math.max(0, Math.min(anchored ?? this.top, maxTop));
		}
		this.view = { height: viewHeight, total, maxTop, width: contentWidth };
		this.anchor = this.isFollowing ? undefined : this.anchorAt(this.top);
		if (this.searchInput && this.matchesStale) this.findMatches(lines, contentWidth);

		const out: string[] = [];
		const bar = this.scrollbar(viewHeight, total);
		let matchIndex = this.firstMatchFrom(this.top);
		for (let row = 0; row < viewHeight; row++) {
			const index = this.top + row;
			let line = index < total ? (lines[index] as string) : "";
			while (matchIndex < this.matches.length && (this.matches[matchIndex] as SearchMatch).line < index)
				matchIndex++;
			const lineMatches: { match: SearchMatch; isCurrent: boolean }[] = [];
			while (matchIndex < this.matches.length && (this.matches[matchIndex] as SearchMatch).line === index) {
				lineMatches.push({
					match: this.matches[matchIndex] as SearchMatch,
					isCurrent: matchIndex === this.currentMatch,
				});
				matchIndex++;
			}
			if (lineMatches.length > 0) line = this.highlight(line, lineMatches, contentWidth);
			out.push(padToWidth(line, contentWidth) + RESET + (bar[row] as string));
		}
		if (this.searchInput) out.push(this.renderSearchBar(width));
		out.push(...fixedLines);
		return out;
	}

	private scrollbar(height: number, total: number): string[] {
		const { scrollbarThumb, scrollbarTrack } = this.theme;
		if (total <= height) return Array.from({ length: height }, () => " ");
		const thumb = Math.max(1, Math.round((height * height) / total));
		const maxTop = total - height;
		const start = Math.round((this.top / maxTop) * (height - thumb));
		return Array.from({ length: height }, (_, row) =>
			row >= start && row < start + thumb ? scrollbarThumb("┃") : scrollbarTrack("│"),
		);
	}

	/** Path of components on content line `line`, outermost first, and the row inside the innermost. */
	private anchorAt(line: number): Anchor | undefined {
		if (!(this.content instanceof Container)) return undefined;
		const path: Component[] = [];
		let container: Container = this.content;
		let offset = line;
		for (;;) {
			const hit = container.childAtLine(offset);
			if (!hit) break;
			path.push(hit.component);
			offset -= hit.start;
			if (!(hit.component instanceof Container)) break;
			container = hit.component;
		}
		return path.length > 0 ? { path, offset } : undefined;
	}

	/** Where the anchored line is now, or undefined when its component is gone. */
	private resolveAnchor(): number | undefined {
		const anchor = this.anchor;
		if (!anchor || !(this.content instanceof Container)) return undefined;
		let container: Component = this.content;
		let line = 0;
		for (const component of anchor.path) {
			if (!(container instanceof Container)) return undefined;
			const start = container.lineOfChild(component);
			if (start === undefined) return undefined;
			line += start;
			container = component;
		}
		return line + anchor.offset;
	}

	private handleMouse(data: string): boolean {
		const event = parseMouseEvent(data);
		if (!event) return false;
		const wheel = this.options.wheelLines ?? 3;
		if (event.kind === "wheelUp") this.scrollBy(-wheel);
		else if (event.kind === "wheelDown") this.scrollBy(wheel);
		else if (event.kind === "press" && event.button === 0 && event.row < this.view.height) {
			if (event.column >= this.view.width) {
				// The scrollbar: jump to the same proportion of the content.
				const ratio = this.view.height > 1 ? event.row / (this.view.height - 1) : 1;
				this.scrollBy(Math.round(ratio * this.view.maxTop) - (this.isFollowing ? this.view.maxTop : this.top));
			} else {
				const anchor = this.anchorAt(this.top + event.row);
				if (anchor && this.options.onClick?.(anchor.path)) {
					// What was clicked stays where it is (a block expanding at the end would push it off the view).
					if (this.isFollowing) {
						this.isFollowing = false;
						this.anchor = this.anchorAt(this.top);
					}
					this.tui.requestRender();
				}
			}
		}
		return true;
	}

	private renderSearchBar(width: number): string {
		const input = this.searchInput as Input;
		const { searchLabel, searchHint } = this.theme;
		const query = input.getValue();
		const status =
			query === ""
				? ""
				: this.matches.length === 0
					? "no matches"
					: `${this.currentMatch >= 0 ? this.currentMatch + 1 : 0}/${this.matches.length}`;
		const right = searchHint(` ${status ? `${status} · ` : ""}${SEARCH_HINT}`);
		const label = searchLabel(` ${SEARCH_LABEL} `);
		const inputWidth = Math.max(8, width - visibleWidth(label) - visibleWidth(right));
		const field = input.render(inputWidth)[0] ?? "";
		return truncateToWidth(label + padToWidth(field, inputWidth) + right, width, "");
	}

	private findMatches(lines: readonly string[], width: number): void {
		this.matchesStale = false;
		this.matchedWidth = width;
		const query = this.searchInput?.getValue() ?? "";
		const previous = this.matches[this.currentMatch];
		this.matches = [];
		if (query.trim() === "") {
			this.currentMatch = -1;
			return;
		}
		const pattern = new RegExp(escapeRegExp(query), "giu");
		for (let index = 0; index < lines.length; index++) {
			const text = stripAnsi(lines[index] as string);
			pattern.lastIndex = 0;
			for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
				if (found[0].length === 0) {
					pattern.lastIndex++;
					continue;
				}
				this.matches.push({
					line: index,
					column: visibleWidth(text.slice(0, found.index)),
					width: visibleWidth(found[0]),
				});
			}
		}
		if (this.matches.length === 0) {
			this.currentMatch = -1;
			return;
		}
		if (previous) {
			// The content changed under a search: stay on the same match when it is still there.
			const same = this.matches.findIndex((m) => m.line === previous.line && m.column === previous.column);
			if (same !== -1) {
				this.currentMatch = same;
				return;
			}
		}
		// A new query: the newest match at or above the bottom of the view.
		const bottom = this.top + this.view.height - 1;
		let index = this.matches.length - 1;
		while (index > 0 && (this.matches[index] as SearchMatch).line > bottom) index--;
		this.currentMatch = index;
		this.revealMatch();
	}

	/** -1: the next older match (above), 1: the next newer one. */
	private moveToMatch(direction: -1 | 1): void {
		if (this.matches.length === 0) return;
		const count = this.matches.length;
		this.currentMatch = this.currentMatch === -1 ? count - 1 : (this.currentMatch + direction + count) % count;
		this.revealMatch();
		this.tui.requestRender();
	}

	/** Scrolls so the current match is in view (a third from the top when it has to move). */
	private revealMatch(): void {
		const match = this.matches[this.currentMatch];
		if (!match) return;
		const { height, maxTop } = this.view;
		if (match.line >= this.top && match.line < this.top + height) return;
		const target = Math.max(0, Math.min(maxTop, match.line - Math.floor(height / 3)));
		this.isFollowing = target >= maxTop;
		this.top = target;
		this.anchor = this.isFollowing ? undefined : this.anchorAt(target);
	}

	private firstMatchFrom(line: number): number {
		let low = 0;
		let high = this.matches.length;
		while (low < high) {
			const middle = (low + high) >> 1;
			if ((this.matches[middle] as SearchMatch).line < line) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	private highlight(line: string, matches: { match: SearchMatch; isCurrent: boolean }[], width: number): string {
		let out = "";
		let column = 0;
		for (const { match, isCurrent } of matches) {
			if (match.column < column) continue;
			out += sliceByColumn(line, column, match.column - column);
			const style = isCurrent ? this.theme.currentMatch : this.theme.match;
			out += style(stripAnsi(sliceByColumn(line, match.column, match.width)));
			column = match.column + match.width;
		}
		return out + sliceByColumn(line, column, Math.max(0, width - column));
	}
}
