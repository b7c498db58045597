import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Component, isFocusable } from "./component.js";
import { Container } from "./container.js";
import { isKeyRelease, matchesKey } from "./keys/key-matching.js";
import { isMouseEvent, MOUSE_REPORTING_OFF, MOUSE_REPORTING_ON } from "./keys/mouse.js";
import { DifferentialRenderer, type FullRedrawReason } from "./rendering/differential-renderer.js";
import { extractCursor, type Frame } from "./rendering/frame.js";
import {
	compositeLine,
	type OverlayHandle,
	type OverlayOptions,
	resolveOverlayMaxHeight,
	resolveOverlayPosition,
	resolveOverlayWidth,
} from "./rendering/overlay-layout.js";
import { CELL_SIZE_REPLY, detectImageProtocol, setCellDimensions } from "./terminal/capabilities.js";
import { type Terminal, TerminalSequences } from "./terminal/terminal.js";
import { truncateToWidth } from "./text/truncate.js";
import { visibleWidth } from "./text/width.js";

/** An input listener may consume the input or replace it before it reaches the focused component. */
export type InputListener = (data: string) => { consume?: boolean; data?: string } | undefined;

/**
 * `inline`: the UI is drawn in the terminal's normal screen, below the shell's output, and what scrolls off
 * its top goes to the terminal's scrollback. `fullscreen`: the alternate screen, every frame exactly as tall as
 * the terminal, with mouse reports on; the application scrolls its own content (see ScrollLayout).
 */
export type ScreenMode = "inline" | "fullscreen";

/** Switches to the alternate screen (saving the cursor) and clears it. */
const ENTER_ALTERNATE_SCREEN = "\x1b[?1049h\x1b[H\x1b[2J";
const LEAVE_ALTERNATE_SCREEN = "\x1b[?1049l";

export interface TUIOptions {
	/** Show the terminal cursor at the focused component's cursor marker (env AGENT_HARDWARE_CURSOR=1). */
	showHardwareCursor?: boolean;
	/** Redraw the screen when the content shrinks below the height drawn so far (env AGENT_CLEAR_ON_SHRINK=1). */
	clearOnShrink?: boolean;
	/**
	 * Throw when a component renders a line wider than the terminal (env AGENT_TUI_STRICT_WIDTH=1).
	 * Off by default: such a line is cut to the width and reported through `onWarning`.
	 */
	strictLineWidth?: boolean;
	/** In strict mode, where the offending frame is written before throwing. */
	crashLogPath?: string;
	/** Called with non-fatal rendering problems (an overlong line that was cut). */
	onWarning?: (message: string) => void;
	/** Default `inline`. */
	screenMode?: ScreenMode;
	env?: Record<string, string | undefined>;
}

interface OverlayEntry {
	component: Component;
	options: OverlayOptions;
	isHidden: boolean;
	focusOrder: number;
	/** Focus before the overlay took it, restored when it goes away. */
	previousFocus: Component | null;
}

/**
 * The root of the UI: a container whose children fill the terminal's normal screen (inline mode: the
 * transcript stays in the scrollback) or the alternate screen (full-screen mode: a frame is at most the
 * screen; see ScrollLayout). It renders on request, composites overlays, and writes only what changed since
 * the previous frame.
 */
export class TUI extends Container {
	readonly terminal: Terminal;
	/** Called on Shift+Ctrl+D. */
	onDebug?: () => void;
	private readonly renderer: DifferentialRenderer;
	private readonly options: TUIOptions;
	private focusedComponent: Component | null = null;
	private readonly overlays: OverlayEntry[] = [];
	private nextFocusOrder = 1;
	private readonly inputListeners: InputListener[] = [];
	private isRenderScheduled = false;
	private isForceRequested = false;
	private isStarted = false;
	private readonly debugFrameDir: string | undefined;
	private frameCount = 0;
	private mode: ScreenMode;

	constructor(terminal: Terminal, options: boolean | TUIOptions = {}) {
		super();
		this.terminal = terminal;
		const resolved: TUIOptions = typeof options === "boolean" ? { showHardwareCursor: options } : options;
		const env = resolved.env ?? process.env;
		this.options = resolved;
		this.debugFrameDir = env.AGENT_TUI_DEBUG === "1" ? join(tmpdir(), "tui") : undefined;
		const redrawLog = env.AGENT_DEBUG_REDRAW === "1" ? join(tmpdir(), "agent-tui-redraw.log") : undefined;
		const strict = resolved.strictLineWidth ?? env.AGENT_TUI_STRICT_WIDTH === "1";
		this.mode = resolved.screenMode ?? "inline";
		this.renderer = new DifferentialRenderer({
			showHardwareCursor: resolved.showHardwareCursor ?? env.AGENT_HARDWARE_CURSOR === "1",
			clearOnShrink: resolved.clearOnShrink ?? env.AGENT_CLEAR_ON_SHRINK === "1",
			onLineOverflow: (line, index, width) => this.handleLineOverflow(line, index, width, strict),
			onFullRedraw: redrawLog
				? (reason: FullRedrawReason) =>
						appendFileSync(redrawLog, `${new Date().toISOString()} full redraw: ${reason}\n`)
				: undefined,
		});
	}

	get fullRedraws(): number {
		return this.renderer.fullRedraws;
	}

	get focused(): Component | null {
		return this.focusedComponent;
	}

	get screenMode(): ScreenMode {
		return this.mode;
	}

	start(): void {
		if (this.isStarted) return;
		this.isStarted = true;
		this.terminal.start(
			(data) => this.handleInput(data),
			() => this.requestRender(),
		);
		this.terminal.hideCursor();
		this.renderer.setCursorVisible(false);
		if (detectImageProtocol(this.options.env ?? process.env)) this.terminal.write(TerminalSequences.cellSizeQuery);
		if (this.mode === "fullscreen") this.enterFullscreen();
		// Started again after stop() (e.g. resumed from Ctrl+Z): the shell wrote to the screen meanwhile.
		this.requestRender(this.renderer.fullRedraws > 0);
	}

	stop(): void {
		if (!this.isStarted) return;
		this.isStarted = false;
		if (this.mode === "fullscreen") this.leaveFullscreen();
		else this.terminal.write(this.renderer.moveBelowContent());
		this.terminal.showCursor();
		this.terminal.stop();
	}

	/**
	 * Switches between the inline and the full-screen mode while running. Leaving the full screen returns to the
	 * normal screen as it was, then prints the whole content again (it changed meanwhile).
	 */
	setScreenMode(mode: ScreenMode): void {
		if (mode === this.mode) return;
		if (this.isStarted && this.mode === "fullscreen") this.leaveFullscreen();
		this.mode = mode;
		if (this.isStarted && mode === "fullscreen") this.enterFullscreen();
		this.requestRender(true);
	}

	private enterFullscreen(): void {
		this.terminal.write(ENTER_ALTERNATE_SCREEN + MOUSE_REPORTING_ON);
		this.renderer.reset();
		this.renderer.setKeepsScrollback(false);
	}

	private leaveFullscreen(): void {
		this.terminal.write(MOUSE_REPORTING_OFF + LEAVE_ALTERNATE_SCREEN);
		this.renderer.setKeepsScrollback(true);
	}

	/**
	 * Schedules a render on the next tick (several requests coalesce). `force` forgets the previous frame: in the
	 * inline mode the screen and the scrollback are cleared and every line is printed again (use it when lines
	 * that scrolled off changed: a block expanded, the theme changed); in the full-screen mode the screen is
	 * repainted.
	 */
	requestRender(force = false): void {
		if (force) this.isForceRequested = true;
		if (this.isRenderScheduled) return;
		this.isRenderScheduled = true;
		process.nextTick(() => {
			if (!this.isRenderScheduled) return;
			this.isRenderScheduled = false;
			if (this.isStarted) this.renderFrame();
		});
	}

	/** Renders immediately instead of on the next tick (a pending request is fulfilled by this). */
	renderNow(): void {
		this.isRenderScheduled = false;
		if (this.isStarted) this.renderFrame();
	}

	setFocus(component: Component | null): void {
		if (this.focusedComponent === component) return;
		if (isFocusable(this.focusedComponent)) this.focusedComponent.focused = false;
		this.focusedComponent = component;
		if (isFocusable(component)) component.focused = true;
	}

	addInputListener(listener: InputListener): () => void {
		this.inputListeners.push(listener);
		return () => {
			const at = this.inputListeners.indexOf(listener);
			if (at !== -1) this.inputListeners.splice(at, 1);
		};
	}

	setShowHardwareCursor(show: boolean): void {
		this.renderer.setShowHardwareCursor(show);
		this.requestRender();
	}

	setClearOnShrink(clear: boolean): void {
		this.renderer.setClearOnShrink(clear);
	}

	showOverlay(component: Component, options: OverlayOptions = {}): OverlayHandle {
		const entry: OverlayEntry = {
			component,
			options,
			isHidden: false,
			focusOrder: this.nextFocusOrder++,
			previousFocus: this.focusedComponent,
		};
		this.overlays.push(entry);
		if (!options.nonCapturing && this.isOverlayVisible(entry)) this.setFocus(component);
		this.requestRender();
		return {
			hide: () => this.removeOverlay(entry),
			setHidden: (hidden: boolean) => {
				if (entry.isHidden === hidden) return;
				entry.isHidden = hidden;
				if (hidden && this.focusedComponent === entry.component) this.restoreFocusAfter(entry);
				else if (!hidden && !entry.options.nonCapturing) this.focusOverlay(entry);
				this.requestRender();
			},
			isHidden: () => entry.isHidden,
			focus: () => this.focusOverlay(entry),
			unfocus: () => {
				if (this.focusedComponent === entry.component) this.restoreFocusAfter(entry);
			},
			isFocused: () => this.focusedComponent === entry.component,
		};
	}

	/** Hides the most recently shown overlay. */
	hideOverlay(): void {
		const last = this.overlays[this.overlays.length - 1];
		if (last) this.removeOverlay(last);
	}

	hasOverlay(): boolean {
		return this.overlays.some((entry) => this.isOverlayVisible(entry));
	}

	private focusOverlay(entry: OverlayEntry): void {
		if (!this.overlays.includes(entry)) return;
		if (this.focusedComponent !== entry.component) entry.previousFocus = this.focusedComponent;
		entry.focusOrder = this.nextFocusOrder++;
		this.setFocus(entry.component);
		this.requestRender();
	}

	private removeOverlay(entry: OverlayEntry): void {
		const at = this.overlays.indexOf(entry);
		if (at === -1) return;
		this.overlays.splice(at, 1);
		if (this.focusedComponent === entry.component) this.restoreFocusAfter(entry);
		// Overlays that remembered this one as their previous focus fall back to what it remembered.
		for (const other of this.overlays) {
			if (other.previousFocus === entry.component) other.previousFocus = entry.previousFocus;
		}
		this.requestRender();
	}

	/** Focus goes to the topmost visible capturing overlay, else to what had focus before `entry`. */
	private restoreFocusAfter(entry: OverlayEntry): void {
		const next = this.topmostCapturingOverlay(entry);
		this.setFocus(next ? next.component : entry.previousFocus);
	}

	private topmostCapturingOverlay(except?: OverlayEntry): OverlayEntry | undefined {
		let top: OverlayEntry | undefined;
		for (const entry of this.overlays) {
			if (entry === except || entry.options.nonCapturing || !this.isOverlayVisible(entry)) continue;
			if (!top || entry.focusOrder > top.focusOrder) top = entry;
		}
		return top;
	}

	private isOverlayVisible(entry: OverlayEntry): boolean {
		if (entry.isHidden) return false;
		return entry.options.visible ? entry.options.visible(this.terminal.columns, this.terminal.rows) : true;
	}

	private handleInput(input: string): void {
		let data = input;
		for (const listener of [...this.inputListeners]) {
			const result = listener(data);
			if (result?.consume) return;
			if (result?.data !== undefined) data = result.data;
			if (data.length === 0) return;
		}
		// The reply to the cell-size query (sent at start when images are supported) is not input. It is
		// recognised whenever it arrives, so keys typed before it are not held back (the reference buffers
		// all input until the reply comes, which stalls typing on terminals that never answer).
		const cellSize = CELL_SIZE_REPLY.exec(data);
		if (cellSize && cellSize[0] === data) {
			setCellDimensions({ heightPx: Number(cellSize[1]), widthPx: Number(cellSize[2]) });
			this.invalidate();
			this.requestRender();
			return;
		}
		if (this.onDebug && matchesKey(data, "shift+ctrl+d")) {
			this.onDebug();
			return;
		}
		const focusedOverlay = this.overlays.find((entry) => entry.component === this.focusedComponent);
		if (focusedOverlay && !this.isOverlayVisible(focusedOverlay)) this.restoreFocusAfter(focusedOverlay);
		// Mouse reports nobody consumed are not keys (a listener such as ScrollLayout takes the ones it uses).
		if (isMouseEvent(data)) return;
		const target = this.focusedComponent;
		if (!target?.handleInput) return;
		if (isKeyRelease(data) && !target.wantsKeyRelease) return;
		target.handleInput(data);
		this.requestRender();
	}

	private renderFrame(): void {
		const width = this.terminal.columns;
		const rows = this.terminal.rows;
		const force = this.isForceRequested;
		this.isForceRequested = false;
		const update = this.renderUpdate(width);
		let base = update.lines;
		let unchangedBefore = update.firstChanged;
		if (this.mode === "fullscreen" && base.length > rows) {
			// The alternate screen has no scrollback: a frame is at most the screen, its last rows.
			base = base.slice(base.length - rows);
			unchangedBefore = 0;
		}
		const visibleOverlays = this.overlays
			.filter((entry) => this.isOverlayVisible(entry))
			.sort((a, b) => a.focusOrder - b.focusOrder);
		const rendered = visibleOverlays.map((entry) => this.layoutOverlay(entry, width, rows));

		let length = base.length;
		if (rendered.length > 0) {
			// Pad to the height drawn so far so overlays keep their position when the content shrinks.
			length = Math.max(length, this.renderer.renderedHeight);
			const viewportTop = Math.max(0, length - rows);
			for (const overlay of rendered) length = Math.max(length, viewportTop + overlay.row + overlay.lines.length);
		}
		const tailStart = Math.max(0, length - rows);
		const tail: string[] = [];
		for (let i = tailStart; i < length; i++) tail.push(i < base.length ? base[i] : "");
		for (const overlay of rendered) {
			for (let k = 0; k < overlay.lines.length; k++) {
				const at = overlay.row + k;
				if (at < tail.length)
					tail[at] = compositeLine(tail[at], overlay.lines[k], overlay.col, overlay.width, width);
			}
		}
		const cursor = extractCursor(tail, tailStart);
		const frame: Frame = { length, base, tailStart, tail, unchangedBefore, cursor };
		const output = this.renderer.render(frame, width, rows, { force, hasOverlays: rendered.length > 0 });
		if (output.length > 0) this.terminal.write(output);
		if (this.debugFrameDir) this.dumpFrame(frame);
	}

	private layoutOverlay(
		entry: OverlayEntry,
		termWidth: number,
		termHeight: number,
	): { lines: string[]; row: number; col: number; width: number } {
		const width = resolveOverlayWidth(entry.options, termWidth);
		const maxHeight = resolveOverlayMaxHeight(entry.options, termHeight);
		const lines = entry.component.render(width).slice(0, maxHeight);
		const { row, col } = resolveOverlayPosition(
			entry.options,
			{ width, height: lines.length },
			termWidth,
			termHeight,
		);
		return { lines, row, col, width };
	}

	private handleLineOverflow(line: string, index: number, width: number, strict: boolean): string {
		const message = `Rendered line ${index} exceeds terminal width (${visibleWidth(line)} > ${width}).`;
		if (strict) {
			const advice =
				"\nComponents must keep every line within the width they are given: measure with visibleWidth() and cut with truncateToWidth().";
			if (this.options.crashLogPath) {
				try {
					mkdirSync(dirname(this.options.crashLogPath), { recursive: true });
					writeFileSync(this.options.crashLogPath, `${message}\n\n${this.render(width).join("\n")}\n`);
				} catch {
					// Best effort: the error below is what matters.
				}
			}
			this.stop();
			throw new Error(message + advice);
		}
		// The reference crashes the application here; a cosmetic bug in one line must not cost the
		// user their session, so the line is cut to fit and the problem reported.
		this.options.onWarning?.(message);
		return truncateToWidth(line, width, "");
	}

	private dumpFrame(frame: Frame): void {
		try {
			const dir = this.debugFrameDir as string;
			mkdirSync(dir, { recursive: true });
			const lines: string[] = [];
			for (let i = frame.tailStart; i < frame.length; i++) lines.push(frame.tail[i - frame.tailStart]);
			writeFileSync(join(dir, `frame-${String(this.frameCount++).padStart(6, "0")}.txt`), lines.join("\n"));
		} catch {
			// Debug output only.
		}
	}
}
