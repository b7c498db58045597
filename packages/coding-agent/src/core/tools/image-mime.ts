import { closeSync } from "node:fs";
import { openRegularFileSync, readChunk } from "./regular-file.js";

/** Bytes read from the start of a file to recognise an image. */
export const IMAGE_SNIFF_BYTES = 4100;

export type SupportedImageMimeType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
	if (bytes.length < offset + signature.length) return false;
	return signature.every((byte, index) => bytes[offset + index] === byte);
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The image type of `bytes` by its magic numbers (never by file name), or null for anything else. */
export function sniffImageMimeType(bytes: Uint8Array): SupportedImageMimeType | null {
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
	if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
	if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
	return null;
}

/**
 * Reads the first bytes of a local file and sniffs its image type. Rejects `NotRegularFileError` for a
 * device, FIFO or socket without blocking on it.
 */
export async function detectImageMimeTypeFromFile(absolutePath: string): Promise<SupportedImageMimeType | null> {
	const { fd } = openRegularFileSync(absolutePath);
	try {
		const buffer = Buffer.alloc(IMAGE_SNIFF_BYTES);
		const bytesRead = await readChunk(fd, buffer, 0);
		return sniffImageMimeType(buffer.subarray(0, bytesRead));
	} finally {
		closeSync(fd);
	}
}
