import { CachedComponent } from "../component.js";

/** Empty lines. */
export class Spacer extends CachedComponent {
	constructor(private lineCount = 1) {
		super();
	}

	setLines(lineCount: number): void {
		if (lineCount === this.lineCount) return;
		this.lineCount = lineCount;
		this.markChanged();
	}

	protected renderLines(): string[] {
		return Array.from({ length: Math.max(0, this.lineCount) }, () => "");
	}
}
