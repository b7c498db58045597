import { CachedComponent } from "../component.js";
import { applyBackground } from "../text/background.js";
import { TAB_WIDTH } from "../text/width.js";
import { wrapTextWithAnsi } from "../text/wrap.js";
import type { StyleFn } from "../theme/style.js";

/** Word-wrapped text with horizontal and vertical padding and an optional background. */
export class Text extends CachedComponent {
	private text: string;
	private paddingX: number;
	private paddingY: number;
	private background: StyleFn | undefined;

	constructor(text = "", paddingX = 1, paddingY = 1, background?: StyleFn) {
		super();
		this.text = text;
		this.paddingX = paddingX;
		this.paddingY = paddingY;
		this.background = background;
	}

	getText(): string {
		return this.text;
	}

	setText(text: string): void {
		if (text === this.text) return;
		this.text = text;
		this.markChanged();
	}

	setCustomBgFn(background: StyleFn | undefined): void {
		this.background = background;
		this.markChanged();
	}

	protected renderLines(width: number): string[] {
		if (this.text.trim().length === 0) return [];
		const paddingX = Math.max(0, Math.min(this.paddingX, Math.floor((width - 1) / 2)));
		const contentWidth = Math.max(1, width - paddingX * 2);
		const text = this.text.includes("\t") ? this.text.replaceAll("\t", " ".repeat(TAB_WIDTH)) : this.text;
		const margin = " ".repeat(paddingX);
		const lines = wrapTextWithAnsi(text, contentWidth).map((line) => margin + line);
		const blank = Array.from({ length: this.paddingY }, () => "");
		const all = [...blank, ...lines, ...blank];
		const background = this.background;
		return background ? all.map((line) => applyBackground(line, width, background)) : all;
	}
}
