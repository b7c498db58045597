// Everything the exporter reads from a session file is untrusted text: it reaches the page only through these.

const NEEDS_ESCAPING = /[&<>"']/;

/** Text to HTML, safe both between tags and inside a quoted attribute value. */
export function escapeHtml(text: string): string {
	// Most text needs no escaping. Otherwise five native replaceAll passes beat one replace() with a callback, or a
	// loop of slices, by 1.5-3x on code-heavy text (and leave one flat string behind).
	if (!NEEDS_ESCAPING.test(text)) return text;
	return text
		.replaceAll("&", "&amp;")
		.replaceAll("<", "&lt;")
		.replaceAll(">", "&gt;")
		.replaceAll('"', "&quot;")
		.replaceAll("'", "&#39;");
}

const IMAGE_MIME_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * An `<img>` for base64 image data, or a text placeholder when the type or data cannot be shown safely
 * (SVG and other types are refused: the page embeds only raster images).
 */
export function renderImage(mimeType: unknown, data: unknown): string {
	if (typeof mimeType !== "string" || !IMAGE_MIME_TYPES.has(mimeType)) {
		const type = typeof mimeType === "string" ? mimeType : "unknown type";
		return `<div class="notice">[image: ${escapeHtml(type)} not shown]</div>`;
	}
	if (typeof data !== "string" || !/^[A-Za-z0-9+/=\r\n]*$/.test(data)) {
		return `<div class="notice">[image: invalid data]</div>`;
	}
	return `<img class="image" alt="${escapeHtml(mimeType)} image" src="data:${mimeType};base64,${data.replace(/[\r\n]/g, "")}">`;
}

/**
 * A number with thousands separators, like `toLocaleString("en-US")` for integers (which is slow enough to show
 * up when formatting usage for thousands of messages); other numbers keep up to 3 decimals.
 */
export function formatNumber(value: number): string {
	if (!Number.isFinite(value)) return String(value);
	const rounded = Number.isInteger(value) ? value : Math.round(value * 1000) / 1000;
	const text = String(Math.abs(rounded));
	const dot = text.indexOf(".");
	const whole = dot === -1 ? text : text.slice(0, dot);
	let grouped = whole;
	if (whole.length > 3 && !whole.includes("e")) {
		grouped = whole.slice(0, whole.length % 3 || 3);
		for (let i = grouped.length; i < whole.length; i += 3) grouped += `,${whole.slice(i, i + 3)}`;
	}
	return (rounded < 0 ? "-" : "") + grouped + (dot === -1 ? "" : text.slice(dot));
}

/** CRLF and lone CR as LF (most text has neither, and skips the copy). */
export function normalizeNewlines(text: string): string {
	return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/** A short, single-line preview of a longer text (for summaries and outlines). */
export function previewText(text: string, maxLength = 80): string {
	const trimmed = text.trimStart();
	const newline = trimmed.indexOf("\n");
	const firstLine = newline === -1 ? trimmed : trimmed.slice(0, newline);
	return firstLine.length > maxLength ? `${firstLine.slice(0, maxLength - 1)}…` : firstLine;
}

/** ISO entry timestamps shown as `YYYY-MM-DD HH:MM:SS` (UTC), anything else as given. */
export function formatTimestamp(value: unknown): string {
	if (typeof value === "number" && Number.isFinite(value)) value = new Date(value).toISOString();
	if (typeof value !== "string") return "";
	const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(value);
	return match ? `${match[1]} ${match[2]}` : value;
}

/**
 * A value as the text of a `<script type="application/json">` element. `<` is written as `\u003c` (JSON.parse reads
 * it back unchanged), so session text can neither close the element (`</script>`) nor open a comment (`<!--`).
 */
export function jsonForScriptElement(value: unknown): string {
	return JSON.stringify(value).replace(/</g, "\\u003c");
}

/**
 * Script source made safe to place between `<script>` and `</script>`: `<!--`, `<script` and `</script` (which
 * change how the HTML parser reads a script) only occur in this source inside string and regex literals, where
 * `\x3C` means the same `<`.
 */
export function scriptForScriptElement(source: string): string {
	return source.replace(/<(?=!--|\/?script)/gi, "\\x3C");
}

/** Separates the entry blocks in the page's payload; no block contains it (see joinEntryBlocks). */
export const ENTRY_SEPARATOR = "<!>";

/**
 * Entry blocks joined by ENTRY_SEPARATOR. Every piece of session text in a block is escaped, so each `<` in a block
 * starts one of our own tags, none of which is `<!`: the separator is unambiguous. Should a block ever contain `<!`
 * all the same, that `<` is written as `&lt;`.
 */
export function joinEntryBlocks(blocks: readonly string[]): string {
	const text = blocks.join(ENTRY_SEPARATOR);
	let separators = 0;
	for (let index = text.indexOf("<!"); index !== -1; index = text.indexOf("<!", index + 2)) separators++;
	if (separators === Math.max(0, blocks.length - 1)) return text;
	return blocks.map((block) => block.replace(/<!/g, "&lt;!")).join(ENTRY_SEPARATOR);
}
