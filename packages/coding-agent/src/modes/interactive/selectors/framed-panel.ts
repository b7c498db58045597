// A component with a title between two rules, for panels that draw no frame of their own (the settings list).
import { type Component, truncateToWidth } from "@agent/tui";
import type { DisplayState } from "../display-state.js";

export class FramedPanel implements Component {
	constructor(
		private readonly state: DisplayState,
		private readonly title: string,
		readonly inner: Component,
	) {}

	render(width: number): string[] {
		const { theme } = this.state;
		const rule = theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		return [rule, truncateToWidth(` ${theme.bold(this.title)}`, width), ...this.inner.render(width), rule];
	}

	handleInput(data: string): void {
		this.inner.handleInput?.(data);
	}

	invalidate(): void {
		this.inner.invalidate();
	}
}
