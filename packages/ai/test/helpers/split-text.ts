/** Cuts `text` into pieces of `size` characters (the last may be shorter), as a provider streams deltas. */
export function splitText(text: string, size: number): string[] {
	const parts: string[] = [];
	for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
	return parts;
}
