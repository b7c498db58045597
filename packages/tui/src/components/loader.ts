import { CachedComponent } from "../component.js";
import { matchesKey } from "../keys/key-matching.js";
import { truncateToWidth } from "../text/truncate.js";
import type { StyleFn } from "../theme/style.js";

export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] as const;
export const SPINNER_INTERVAL_MS = 80;

/** What a loader needs from the TUI: a way to ask for a frame. */
export interface RenderRequester {
	requestRender(force?: boolean): void;
}

/**
 * A spinner with a message: an empty line, then "<frame> <message>". Each tick changes only this
 * component, so only its line is redrawn.
 */
export class Loader extends CachedComponent {
	private frameIndex = 0;
	private timer: ReturnType<typeof setInterval> | undefined;

	constructor(
		private readonly ui: RenderRequester,
		private readonly spinnerColor: StyleFn,
		private readonly messageColor: StyleFn,
		private message = "Loading...",
	) {
		super();
		this.start();
	}

	get isRunning(): boolean {
		return this.timer !== undefined;
	}

	start(): void {
		if (this.timer) return;
		this.timer = setInterval(() => {
			this.frameIndex = (this.frameIndex + 1) % SPINNER_FRAMES.length;
			this.markChanged();
			this.ui.requestRender();
		}, SPINNER_INTERVAL_MS);
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}

	setMessage(message: string): void {
		if (message === this.message) return;
		this.message = message;
		this.markChanged();
		this.ui.requestRender();
	}

	protected renderLines(width: number): string[] {
		const frame = SPINNER_FRAMES[this.frameIndex];
		return ["", truncateToWidth(`${this.spinnerColor(frame)} ${this.messageColor(this.message)}`, width)];
	}
}

/** A loader that Escape cancels: it aborts `signal` and calls `onAbort`. */
export class CancellableLoader extends Loader {
	private readonly controller = new AbortController();
	onAbort?: () => void;

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	get aborted(): boolean {
		return this.controller.signal.aborted;
	}

	handleInput(data: string): void {
		if (this.aborted) return;
		if (matchesKey(data, "escape")) {
			this.controller.abort();
			this.onAbort?.();
		}
	}
}
