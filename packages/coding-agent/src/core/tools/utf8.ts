// Cutting UTF-8 bytes at character boundaries (output read in chunks, files read in windows).

/** Number of bytes at the end of `bytes` that start a UTF-8 character not complete within `bytes`. */
export function incompleteTailLength(bytes: Uint8Array): number {
	for (let back = 1; back <= Math.min(3, bytes.length); back++) {
		const byte = bytes[bytes.length - back] as number;
		if ((byte & 0xc0) === 0x80) continue;
		const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
		return needed > back ? back : 0;
	}
	return 0;
}
