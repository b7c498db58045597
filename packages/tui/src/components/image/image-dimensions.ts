export interface ImageDimensions {
	widthPx: number;
	heightPx: number;
}

/** Reads the pixel size from PNG, JPEG, GIF or WebP data; undefined for other or truncated data. */
export function readImageDimensions(data: Uint8Array): ImageDimensions | undefined {
	const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
	const ascii = (offset: number, length: number) => String.fromCharCode(...data.subarray(offset, offset + length));
	if (data.length >= 24 && data[0] === 0x89 && ascii(1, 3) === "PNG") {
		return { widthPx: view.getUint32(16), heightPx: view.getUint32(20) };
	}
	if (data.length >= 10 && ascii(0, 3) === "GIF") {
		return { widthPx: view.getUint16(6, true), heightPx: view.getUint16(8, true) };
	}
	if (data.length >= 30 && ascii(0, 4) === "RIFF" && ascii(8, 4) === "WEBP") return readWebp(data, view, ascii);
	if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) return readJpeg(data, view);
	return undefined;
}

function readWebp(
	data: Uint8Array,
	view: DataView,
	ascii: (offset: number, length: number) => string,
): ImageDimensions | undefined {
	const chunk = ascii(12, 4);
	if (chunk === "VP8 " && data.length >= 30) {
		return { widthPx: view.getUint16(26, true) & 0x3fff, heightPx: view.getUint16(28, true) & 0x3fff };
	}
	if (chunk === "VP8L" && data.length >= 25) {
		const bits = view.getUint32(21, true);
		return { widthPx: (bits & 0x3fff) + 1, heightPx: ((bits >> 14) & 0x3fff) + 1 };
	}
	if (chunk === "VP8X" && data.length >= 30) {
		const width = 1 + (data[24] | (data[25] << 8) | (data[26] << 16));
		const height = 1 + (data[27] | (data[28] << 8) | (data[29] << 16));
		return { widthPx: width, heightPx: height };
	}
	return undefined;
}

function readJpeg(data: Uint8Array, view: DataView): ImageDimensions | undefined {
	let offset = 2;
	while (offset + 9 < data.length) {
		if (data[offset] !== 0xff) {
			offset++;
			continue;
		}
		const marker = data[offset + 1];
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
