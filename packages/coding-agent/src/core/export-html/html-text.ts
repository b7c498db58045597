// Everything the exporter reads from a session file is untrusted text: it reaches the page only through these.

const HTML_ESCAPES: Record<string, string> = {
	"&": "&amp;",
	"<": "&lt;",
	">": "&gt;",
	'"': "&quot;",
	"'": "&#39;",
};

/** Text to HTML, safe both between tags and inside a quoted attribute value. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
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
