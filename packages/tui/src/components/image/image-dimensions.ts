/** An image's size in pixels. */
export interface ImageDimensions {
	widthPx: number;
	heightPx: number;
}

/** Enough of the file for every header these readers look at (JPEG's frame header may follow large EXIF data). */
const HEADER_BASE64_CHARS = 87_384;

function ascii(data: Uint8Array, offset: number, length: number): string {
	return String.fromCharCode(...data.subarray(offset, offset + length));
}

function viewOf(data: Uint8Array): DataView {
	return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

function decodeHeader(base64Data: string): Uint8Array {
	return Buffer.from(base64Data.slice(0, HEADER_BASE64_CHARS), "base64");
}

/** PNG: the IHDR chunk's width and height (big-endian, bytes 16–23). */
function readPng(data: Uint8Array): ImageDimensions | undefined {
	if (data.length < 24 || data[0] !== 0x89 || ascii(data, 1, 3) !== "PNG") return undefined;
	const view = viewOf(data);
	return { widthPx: view.getUint32(16), heightPx: view.getUint32(20) };
}

/** GIF87a/GIF89a: the logical screen size (little-endian, bytes 6–9). */
function readGif(data: Uint8Array): ImageDimensions | undefined {
	if (data.length < 10 || ascii(data, 0, 3) !== "GIF") return undefined;
	const view = viewOf(data);
	return { widthPx: view.getUint16(6, true), heightPx: view.getUint16(8, true) };
}

/** WebP: from the VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk header. */
function readWebp(data: Uint8Array): ImageDimensions | undefined {
	if (data.length < 25 || ascii(data, 0, 4) !== "RIFF" || ascii(data, 8, 4) !== "WEBP") return undefined;
	const view = viewOf(data);
	const chunk = ascii(data, 12, 4);
	if (chunk === "VP8 " && data.length >= 30) {
		return { widthPx: view.getUint16(26, true) & 0x3fff, heightPx: view.getUint16(28, true) & 0x3fff };
	}
	if (chunk === "VP8L") {
		const bits = view.getUint32(21, true);
		return { widthPx: (bits & 0x3fff) + 1, heightPx: ((bits >> 14) & 0x3fff) + 1 };
	}
	if (chunk === "VP8X" && data.length >= 30) {
		const width = 1 + ((data[24] ?? 0) | ((data[25] ?? 0) << 8) | ((data[26] ?? 0) << 16));
		const height = 1 + ((data[27] ?? 0) | ((data[28] ?? 0) << 8) | ((data[29] ?? 0) << 16));
		return { widthPx: width, heightPx: height };
	}
	return undefined;
}

/** JPEG: walks the segments to the first start-of-frame marker, which holds height then width. */
function readJpeg(data: Uint8Array): ImageDimensions | undefined {
	if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
	const view = viewOf(data);
	let offset = 2;
	while (offset + 9 < data.length) {
		if (data[offset] !== 0xff) {
			offset++;
			continue;
		}
		const marker = data[offset + 1] ?? 0;
		// Start-of-frame markers (baseline, progressive, ...) carry the size; DHT/JPG/DAC do not.
		if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
			return { heightPx: view.getUint16(offset + 5), widthPx: view.getUint16(offset + 7) };
		}
		if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
			offset += 2;
			continue;
		}
		offset += 2 + view.getUint16(offset + 2);
	}
	return undefined;
}

/** Reads the pixel size from PNG, JPEG, GIF or WebP data, whichever it is; undefined for other or truncated data. */
export function readImageDimensions(data: Uint8Array): ImageDimensions | undefined {
	return readPng(data) ?? readGif(data) ?? readWebp(data) ?? readJpeg(data);
}

/** The size of base64 PNG data, or null when it is not a PNG or is cut short. */
export function getPngDimensions(base64Data: string): ImageDimensions | null {
	return readPng(decodeHeader(base64Data)) ?? null;
}

/** The size of base64 JPEG data (from its first start-of-frame segment), or null. */
export function getJpegDimensions(base64Data: string): ImageDimensions | null {
	return readJpeg(decodeHeader(base64Data)) ?? null;
}

/** The size of base64 GIF data, or null. */
export function getGifDimensions(base64Data: string): ImageDimensions | null {
	return readGif(decodeHeader(base64Data)) ?? null;
}

/** The size of base64 WebP data (lossy, lossless or extended), or null. */
export function getWebpDimensions(base64Data: string): ImageDimensions | null {
	return readWebp(decodeHeader(base64Data)) ?? null;
}

const READERS: Record<string, (data: Uint8Array) => ImageDimensions | undefined> = {
	"image/png": readPng,
	"image/jpeg": readJpeg,
	"image/jpg": readJpeg,
	"image/gif": readGif,
	"image/webp": readWebp,
};

/** The size of base64 image data of the given MIME type (PNG, JPEG, GIF, WebP); null for other types or bad data. */
export function getImageDimensions(base64Data: string, mimeType: string): ImageDimensions | null {
	const read = READERS[mimeType.toLowerCase()];
	return read ? (read(decodeHeader(base64Data)) ?? null) : null;
}
