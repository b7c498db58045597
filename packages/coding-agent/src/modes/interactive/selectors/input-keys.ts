// Key helpers the selectors share: printable text typed into a search field.
import { decodeKittyPrintable, PASTE_END, PASTE_START } from "@agent/tui";

/** The text a key types (plain characters, a Kitty-encoded key, or a paste), or undefined for other keys. */
export function typedText(data: string): string | undefined {
	if (data.startsWith(PASTE_START)) {
		const body = data.slice(PASTE_START.length, data.endsWith(PASTE_END) ? -PASTE_END.length : undefined);
		return body.replace(/[\r\n\t]+/g, " ");
	}
	if (data.startsWith("\x1b")) return decodeKittyPrintable(data);
	for (const char of data) {
		const code = char.codePointAt(0) ?? 0;
		if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return undefined;
	}
	return data.length > 0 ? data : undefined;
}

/** Removes the last character (grapheme-safe enough for search fields). */
export function dropLastCharacter(text: string): string {
	const chars = [...text];
	chars.pop();
	return chars.join("");
}
