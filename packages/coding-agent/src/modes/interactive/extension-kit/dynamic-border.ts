import type { Component } from "@agent/tui";
import { getCurrentTheme } from "../theme/current-theme.js";

/** A horizontal rule as wide as the viewport (the reference's `DynamicBorder`). */
export class DynamicBorder implements Component {
	constructor(private readonly color: (text: string) => string = (text) => getCurrentTheme().fg("border", text)) {}

	invalidate(): void {}

	render(width: number): string[] {
		return [this.color("─".repeat(Math.max(1, width)))];
	}
}
