// The line above the editor that says the agent is busy: a spinner with "Working...", a compaction or branch
// summary in progress, or a retry countdown. Only this line animates, and only while something runs: when idle
// no timer is left behind.
import { Container, Loader } from "@agent/tui";
import type { DisplayState } from "../display-state.js";

export interface RenderRequester {
	requestRender(force?: boolean): void;
}

export class StatusArea extends Container {
	private loader: Loader | undefined;
	private countdown: ReturnType<typeof setInterval> | undefined;

	constructor(
		private readonly ui: RenderRequester,
		private readonly state: DisplayState,
	) {
		super();
	}

	get isActive(): boolean {
		return this.loader !== undefined;
	}

	get message(): string | undefined {
		return this.currentMessage;
	}

	private currentMessage: string | undefined;

	/** Shows (or updates) the spinner with `message`. */
	show(message: string): void {
		this.stopCountdown();
		this.currentMessage = message;
		if (this.loader) {
			this.loader.setMessage(message);
			return;
		}
		const { theme } = this.state;
		this.loader = new Loader(this.ui, theme.fgStyle("accent"), theme.fgStyle("muted"), message);
		this.addChild(this.loader);
		this.ui.requestRender();
	}

	/** A spinner whose message counts seconds down to `deadline` (`format` receives the seconds left). */
	showCountdown(deadline: number, format: (secondsLeft: number) => string): void {
		const secondsLeft = () => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
		this.show(format(secondsLeft()));
		this.countdown = setInterval(() => {
			const left = secondsLeft();
			this.currentMessage = format(left);
			this.loader?.setMessage(this.currentMessage);
			if (left <= 0) this.stopCountdown();
		}, 1000);
	}

	hide(): void {
		this.stopCountdown();
		this.currentMessage = undefined;
		if (!this.loader) return;
		this.loader.stop();
		this.removeChild(this.loader);
		this.loader = undefined;
		this.ui.requestRender();
	}

	override invalidate(): void {
		// The spinner's colours come from the theme: recreate it with the current one.
		const message = this.currentMessage;
		if (this.loader && message !== undefined && !this.countdown) {
			this.loader.stop();
			this.removeChild(this.loader);
			this.loader = undefined;
			this.show(message);
		}
		super.invalidate();
	}

	private stopCountdown(): void {
		if (this.countdown) clearInterval(this.countdown);
		this.countdown = undefined;
	}
}
