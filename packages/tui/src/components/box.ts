import type { RenderUpdate } from "../component.js";
import { Container } from "../container.js";
import { applyBackground } from "../text/background.js";
import type { StyleFn } from "../theme/style.js";

/**
 * A container that pads its children and paints a background behind them. Like Container it only
 * re-decorates the lines of children that changed.
 */
export class Box extends Container {
	private readonly boxLines: string[] = [];
	private boxWidth = -1;
	private pendingBoxChange = 0;
	private innerLineCount = 0;

	constructor(
		private paddingX = 1,
		private paddingY = 1,
		private background?: StyleFn,
	) {
		super();
	}

	setBgFn(background: StyleFn | undefined): void {
		this.background = background;
		this.boxWidth = -1;
		this.notifyChanged(true);
	}

	setPadding(paddingX: number, paddingY: number): void {
		this.paddingX = paddingX;
		this.paddingY = paddingY;
		this.boxWidth = -1;
		this.notifyChanged(true);
	}

	override invalidate(): void {
		this.boxWidth = -1;
		super.invalidate();
	}

	override render(width: number): string[] {
		this.refreshBox(width);
		return this.boxLines.slice();
	}

	override renderUpdate(width: number): RenderUpdate {
		this.refreshBox(width);
		const firstChanged = Math.min(this.pendingBoxChange, this.boxLines.length);
		this.pendingBoxChange = Number.POSITIVE_INFINITY;
		return { lines: this.boxLines, firstChanged };
	}

	private refreshBox(width: number): void {
		const paddingX = Math.max(0, Math.min(this.paddingX, Math.floor((width - 1) / 2)));
		const inner = super.renderUpdate(Math.max(1, width - paddingX * 2));
		const isRebuild = width !== this.boxWidth;
		if (!isRebuild && inner.firstChanged >= inner.lines.length && inner.lines.length === this.innerLineCount) return;
		this.boxWidth = width;
		const from = isRebuild || this.innerLineCount === 0 || inner.lines.length === 0 ? 0 : inner.firstChanged;
		const keep = from === 0 ? 0 : this.paddingY + from;
		this.boxLines.length = keep;
		if (inner.lines.length > 0) {
			if (from === 0) for (let i = 0; i < this.paddingY; i++) this.boxLines.push(this.decorate("", width));
			const margin = " ".repeat(paddingX);
			for (let i = from; i < inner.lines.length; i++)
				this.boxLines.push(this.decorate(margin + inner.lines[i], width));
			for (let i = 0; i < this.paddingY; i++) this.boxLines.push(this.decorate("", width));
		}
		this.innerLineCount = inner.lines.length;
		this.pendingBoxChange = Math.min(this.pendingBoxChange, keep);
	}

	private decorate(line: string, width: number): string {
		return this.background ? applyBackground(line, width, this.background) : line;
	}
}
