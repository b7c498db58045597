// The first bytes of tiny PNG, JPEG, GIF and WebP files, as base64: enough header for the size readers.

function base64(bytes: Uint8Array | number[]): string {
	return Buffer.from(bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes)).toString("base64");
}

/** PNG signature and IHDR chunk (width and height big-endian at bytes 16–23). */
export function pngBase64(width: number, height: number): string {
	const bytes = new Uint8Array(33);
	bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
	const view = new DataView(bytes.buffer);
	view.setUint32(16, width);
	view.setUint32(20, height);
	return base64(bytes);
}

/** SOI, an APP0 segment to skip, then a baseline SOF0 segment (height, then width, big-endian). */
export function jpegBase64(width: number, height: number): string {
	const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0, 0];
	const sof0 = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03];
	return base64([0xff, 0xd8, ...app0, ...sof0, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]);
}

/** GIF89a header with the logical screen size (little-endian). */
export function gifBase64(width: number, height: number): string {
	return base64([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, width & 0xff, width >> 8, height & 0xff, height >> 8, 0, 0, 0]);
}

function riff(chunk: string, payload: number[]): number[] {
	const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
	const body = [...ascii("WEBP"), ...ascii(chunk), payload.length, 0, 0, 0, ...payload];
	const size = body.length;
	return [...ascii("RIFF"), size & 0xff, (size >> 8) & 0xff, 0, 0, ...body];
}

/** Lossy WebP: VP8 frame tag, start code, then 14-bit width and height (little-endian). */
export function webpVp8Base64(width: number, height: number): string {
	const payload = [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, width & 0xff, width >> 8, height & 0xff, height >> 8];
	return base64(riff("VP8 ", payload));
}

/** Lossless WebP: signature 0x2f, then width−1 and height−1 packed in 14 bits each. */
export function webpVp8lBase64(width: number, height: number): string {
	const bits = (width - 1) | ((height - 1) << 14);
	return base64(riff("VP8L", [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff]));
}

/** Extended WebP: VP8X flags, reserved bytes, then canvas width−1 and height−1 in 24 bits each. */
export function webpVp8xBase64(width: number, height: number): string {
	const w = width - 1;
	const h = height - 1;
	return base64(riff("VP8X", [0x10, 0, 0, 0, w & 0xff, (w >> 8) & 0xff, w >> 16, h & 0xff, (h >> 8) & 0xff, h >> 16]));
}
