import { CachedComponent } from "../component.js";
import { truncateToWidth } from "../text/truncate.js";
import { TAB_WIDTH } from "../text/width.js";

/** A single line of text cut to fit the width (only the first line of the text is shown). */
export class TruncatedText extends CachedComponent {
	constructor(
		private text: string,
		private readonly paddingX = 0,
		private readonly paddingY = 0,
	) {
		super();
	}

	setText(text: string): void {
		if (text === this.text) return;
		this.text = text;
		this.markChanged();
	}

	protected renderLines(width: number): string[] {
		const firstLine = (this.text.split("\n")[0] ?? "").replaceAll("\t", " ".repeat(TAB_WIDTH));
		const contentWidth = Math.max(1, width - this.paddingX * 2);
		const line = " ".repeat(this.paddingX) + truncateToWidth(firstLine, contentWidth);
		const blank = Array.from({ length: this.paddingY }, () => "");
		return [...blank, line, ...blank];
	}
}
