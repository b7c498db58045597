import {
	type CellDimensions,
	getCapabilities,
	getCellDimensions,
	type ImageProtocol,
} from "../../terminal/capabilities.js";
import type { ImageDimensions } from "./image-dimensions.js";
import { encodeITerm2, encodeKitty } from "./image-sequences.js";

/** How `renderImage` sizes and identifies an image. */
export interface ImageRenderOptions {
	/** Widest the image may be, in cells (default 60). */
	maxWidthCells?: number;
	/** Tallest the image may be, in rows; a taller image is scaled down to fit. */
	maxHeightCells?: number;
	/** iTerm2: keep the aspect ratio (default true). */
	preserveAspectRatio?: boolean;
	/** Kitty image id: drawing again with the same id replaces the earlier image. */
	imageId?: number;
}

export const DEFAULT_MAX_IMAGE_WIDTH_CELLS = 60;

/** How many rows an image takes when scaled to `targetWidthCells` columns, keeping its aspect ratio (at least 1). */
export function calculateImageRows(
	imageDimensions: ImageDimensions,
	targetWidthCells: number,
	cellDimensions: CellDimensions = getCellDimensions(),
): number {
	if (imageDimensions.widthPx <= 0) return 1;
	const heightPx = (targetWidthCells * cellDimensions.widthPx * imageDimensions.heightPx) / imageDimensions.widthPx;
	return Math.max(1, Math.ceil(heightPx / cellDimensions.heightPx));
}

/** The image's cell box: its natural width capped by the options, then shrunk to fit the row limit. */
function layoutImage(dimensions: ImageDimensions, options: ImageRenderOptions): { columns: number; rows: number } {
	const cell = getCellDimensions();
	const maxColumns = Math.max(1, options.maxWidthCells ?? DEFAULT_MAX_IMAGE_WIDTH_CELLS);
	let columns = Math.max(1, Math.min(maxColumns, Math.ceil(dimensions.widthPx / cell.widthPx)));
	let rows = calculateImageRows(dimensions, columns, cell);
	const maxRows = options.maxHeightCells;
	if (maxRows !== undefined && rows > maxRows) {
		rows = Math.max(1, maxRows);
		columns = Math.max(
			1,
			Math.floor((rows * cell.heightPx * dimensions.widthPx) / dimensions.heightPx / cell.widthPx),
		);
	}
	return { columns, rows };
}

/** `renderImage` for a given protocol (the Image component may be told which one to use). */
export function renderImageWith(
	protocol: ImageProtocol | null | undefined,
	base64Data: string,
	imageDimensions: ImageDimensions,
	options: ImageRenderOptions = {},
): { sequence: string; rows: number; imageId?: number } | null {
	if (!protocol || imageDimensions.widthPx <= 0 || imageDimensions.heightPx <= 0) return null;
	const { columns, rows } = layoutImage(imageDimensions, options);
	if (protocol === "kitty") {
		const sequence = encodeKitty(base64Data, { columns, rows, imageId: options.imageId });
		return options.imageId === undefined ? { sequence, rows } : { sequence, rows, imageId: options.imageId };
	}
	const sequence = encodeITerm2(base64Data, {
		width: columns,
		height: rows,
		preserveAspectRatio: options.preserveAspectRatio ?? true,
	});
	return { sequence, rows };
}

/**
 * The escape sequence that draws an image at the cursor with the terminal's protocol (`getCapabilities().images`),
 * and how many rows it covers; null when the terminal shows no images (use `imageFallback`) or the size is unknown.
 */
export function renderImage(
	base64Data: string,
	imageDimensions: ImageDimensions,
	options: ImageRenderOptions = {},
): { sequence: string; rows: number; imageId?: number } | null {
	return renderImageWith(getCapabilities().images, base64Data, imageDimensions, options);
}

/** The one-line text shown instead of an image: `[Image: <filename or MIME type> <width>x<height>]`. */
export function imageFallback(mimeType: string, dimensions?: ImageDimensions, filename?: string): string {
	const size = dimensions ? ` ${dimensions.widthPx}x${dimensions.heightPx}` : "";
	return `[Image: ${filename ?? mimeType}${size}]`;
}
