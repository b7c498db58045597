import { CachedComponent } from "../../component.js";
import { getCapabilities, type ImageProtocol } from "../../terminal/capabilities.js";
import { truncateToWidth } from "../../text/truncate.js";
import type { ImageTheme } from "../../theme/themes.js";
import { type ImageDimensions, readImageDimensions } from "./image-dimensions.js";
import { allocateImageId } from "./image-sequences.js";
import { DEFAULT_MAX_IMAGE_WIDTH_CELLS, imageFallback, renderImageWith } from "./render-image.js";

export interface ImageOptions {
	maxWidthCells?: number;
	maxHeightCells?: number;
	filename?: string;
	/** Which protocol to draw with; `getCapabilities().images` by default (null = text fallback). */
	protocol?: ImageProtocol | null;
}

/**
 * An inline image (Kitty graphics or iTerm2 protocol), or a one-line text placeholder on terminals
 * without either. The image occupies as many rows as its aspect ratio needs: empty lines, then a
 * last line that saves the cursor, moves up to the first row, draws the image and restores the cursor.
 */
export class Image extends CachedComponent {
	private readonly dimensions: ImageDimensions | undefined;
	private readonly protocol: ImageProtocol | undefined;
	private readonly id = allocateImageId();

	constructor(
		private readonly base64: string,
		private readonly mimeType: string,
		private readonly theme: ImageTheme,
		private readonly options: ImageOptions = {},
	) {
		super();
		this.dimensions = readImageDimensions(Buffer.from(base64.slice(0, 65_536), "base64"));
		this.protocol =
			options.protocol === undefined ? (getCapabilities().images ?? undefined) : (options.protocol ?? undefined);
	}

	getDimensions(): ImageDimensions | undefined {
		return this.dimensions;
	}

	protected renderLines(width: number): string[] {
		const rendered =
			this.dimensions &&
			renderImageWith(this.protocol, this.base64, this.dimensions, {
				maxWidthCells: Math.min(width, this.options.maxWidthCells ?? DEFAULT_MAX_IMAGE_WIDTH_CELLS),
				maxHeightCells: this.options.maxHeightCells,
				imageId: this.id,
			});
		if (!rendered) return [this.fallbackLine(width)];
		const { sequence, rows } = rendered;
		const moveUp = rows > 1 ? `\x1b[${rows - 1}A` : "";
		const lines = Array.from({ length: rows - 1 }, () => "");
		lines.push(`\x1b7${moveUp}${sequence}\x1b8`);
		return lines;
	}

	private fallbackLine(width: number): string {
		const text = imageFallback(this.mimeType, this.dimensions, this.options.filename);
		return truncateToWidth(this.theme.fallbackColor(text), width);
	}
}
