/**
 * Fits an image into what model APIs accept: at most 2000×2000 pixels and 4.5MB, following EXIF
 * orientation. Uses sharp, loaded on first use; when it is missing or cannot decode the image, callers
 * send the original.
 */

export const MAX_IMAGE_WIDTH = 2000;
export const MAX_IMAGE_HEIGHT = 2000;
export const MAX_IMAGE_BYTES = 4.5 * 1024 * 1024;

const JPEG_QUALITIES = [85, 70, 55, 40];
const DOWNSCALE_STEPS = [0.75, 0.5, 0.35, 0.25];
const MIN_SIDE = 100;

export interface ImageResizeOptions {
	maxWidth?: number;
	maxHeight?: number;
	/** Budget for the base64 payload, which is what APIs measure. */
	maxBytes?: number;
}

export interface ResizedImage {
	/** base64 */
	data: string;
	mimeType: string;
	originalWidth: number;
	originalHeight: number;
	width: number;
	height: number;
	wasResized: boolean;
}

type SharpFactory = typeof import("sharp").default;
let sharpModule: Promise<SharpFactory | null> | undefined;

/** sharp has a native part; it is loaded on first use so a missing or broken install only disables resizing. */
function loadSharp(): Promise<SharpFactory | null> {
	sharpModule ??= import("sharp").then(
		(module) => module.default,
		() => null,
	);
	return sharpModule;
}

const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

interface Encoded {
	buffer: Buffer;
	mimeType: string;
	width: number;
	height: number;
}

/**
 * Returns the image unchanged when it already fits, otherwise re-encoded to fit: PNG and JPEG at the fitted
 * size (smaller wins), then JPEG at decreasing qualities, then at decreasing scales (never below 100px a
 * side). Returns null when sharp is unavailable or the image cannot be decoded.
 */
export async function resizeImage(
	input: Buffer,
	mimeType: string,
	options: ImageResizeOptions = {},
): Promise<ResizedImage | null> {
	const maxWidth = options.maxWidth ?? MAX_IMAGE_WIDTH;
	const maxHeight = options.maxHeight ?? MAX_IMAGE_HEIGHT;
	const maxBytes = options.maxBytes ?? MAX_IMAGE_BYTES;
	const sharp = await loadSharp();
	if (!sharp) return null;
	try {
		const metadata = await sharp(input, { failOn: "none" }).metadata();
		if (!metadata.width || !metadata.height) return null;
		// EXIF orientations 5–8 rotate by 90°, so the displayed image has width and height swapped.
		const rotated = (metadata.orientation ?? 1) >= 5;
		const originalWidth = rotated ? metadata.height : metadata.width;
		const originalHeight = rotated ? metadata.width : metadata.height;

		if (originalWidth <= maxWidth && originalHeight <= maxHeight && base64Length(input.length) <= maxBytes) {
			return {
				data: input.toString("base64"),
				mimeType,
				originalWidth,
				originalHeight,
				width: originalWidth,
				height: originalHeight,
				wasResized: false,
			};
		}

		const fit = Math.min(1, maxWidth / originalWidth, maxHeight / originalHeight);
		const fittedWidth = Math.max(1, Math.round(originalWidth * fit));
		const fittedHeight = Math.max(1, Math.round(originalHeight * fit));

		const encode = async (width: number, height: number, format: "png" | "jpeg", quality = 85): Promise<Encoded> => {
			const pipeline = sharp(input, { failOn: "none" }).rotate().resize(width, height, { fit: "fill" });
			const { data, info } = await (format === "png" ? pipeline.png() : pipeline.jpeg({ quality })).toBuffer({
				resolveWithObject: true,
			});
			return { buffer: data, mimeType: `image/${format}`, width: info.width, height: info.height };
		};
		const fits = (encoded: Encoded) => base64Length(encoded.buffer.length) <= maxBytes;

		const png = await encode(fittedWidth, fittedHeight, "png");
		const jpeg = await encode(fittedWidth, fittedHeight, "jpeg", JPEG_QUALITIES[0]);
		let best = png.buffer.length <= jpeg.buffer.length ? png : jpeg;
		let chosen: Encoded | undefined = fits(best) ? best : undefined;

		for (const quality of JPEG_QUALITIES.slice(1)) {
			if (chosen) break;
			const candidate = await encode(fittedWidth, fittedHeight, "jpeg", quality);
			if (candidate.buffer.length < best.buffer.length) best = candidate;
			if (fits(candidate)) chosen = candidate;
		}
		for (const scale of DOWNSCALE_STEPS) {
			if (chosen) break;
			const width = Math.round(fittedWidth * scale);
			const height = Math.round(fittedHeight * scale);
			if (width < MIN_SIDE || height < MIN_SIDE) break;
			for (const quality of JPEG_QUALITIES) {
				const candidate = await encode(width, height, "jpeg", quality);
				if (candidate.buffer.length < best.buffer.length) best = candidate;
				if (fits(candidate)) {
					chosen = candidate;
					break;
				}
			}
		}
		const result = chosen ?? best;
		return {
			data: result.buffer.toString("base64"),
			mimeType: result.mimeType,
			originalWidth,
			originalHeight,
			width: result.width,
			height: result.height,
			wasResized: true,
		};
	} catch {
		return null;
	}
}

/** The note telling the model how to map coordinates back to the original image, when it was scaled. */
export function formatDimensionNote(image: ResizedImage): string | undefined {
	if (!image.wasResized) return undefined;
	if (image.width === image.originalWidth && image.height === image.originalHeight) return undefined;
	const scale = (image.originalWidth / image.width).toFixed(2);
	return `[Image: original ${image.originalWidth}x${image.originalHeight}, displayed at ${image.width}x${image.height}. Multiply coordinates by ${scale} to map to original image.]`;
}
