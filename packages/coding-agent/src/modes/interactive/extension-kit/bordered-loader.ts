import { CancellableLoader, Container, Loader, type RenderRequester, Spacer, Text } from "@agent/tui";
import type { Theme } from "../theme/theme.js";
import { DynamicBorder } from "./dynamic-border.js";
import { keyHint } from "./keybinding-hints.js";

/** A spinner between two rules, cancelled with Escape unless `cancellable: false` (the reference's `BorderedLoader`). */
export class BorderedLoader extends Container {
	private readonly loader: Loader;
	private readonly fallbackSignal = new AbortController();

	constructor(tui: RenderRequester, theme: Theme, message: string, options: { cancellable?: boolean } = {}) {
		super();
		const cancellable = options.cancellable ?? true;
		const border = (text: string) => theme.fg("border", text);
		const accent = (text: string) => theme.fg("accent", text);
		const muted = (text: string) => theme.fg("muted", text);
		this.loader = cancellable
			? new CancellableLoader(tui, accent, muted, message)
			: new Loader(tui, accent, muted, message);
		this.addChild(new DynamicBorder(border));
		this.addChild(this.loader);
		if (cancellable) {
			this.addChild(new Spacer(1));
			this.addChild(new Text(keyHint("selectCancel", "cancel"), 1, 0));
		}
		this.addChild(new Spacer(1));
		this.addChild(new DynamicBorder(border));
	}

	/** Aborted when the user presses Escape (never, when not cancellable). */
	get signal(): AbortSignal {
		return this.loader instanceof CancellableLoader ? this.loader.signal : this.fallbackSignal.signal;
	}

	set onAbort(handler: (() => void) | undefined) {
		if (this.loader instanceof CancellableLoader) this.loader.onAbort = handler;
	}

	handleInput(data: string): void {
		if (this.loader instanceof CancellableLoader) this.loader.handleInput(data);
	}

	dispose(): void {
		this.loader.stop();
	}
}
