/** Pastes longer than this many lines or characters are shown as a marker. */
export const LARGE_PASTE_LINES = 10;
export const LARGE_PASTE_CHARS = 1000;
const TAB_AS_SPACES = "    ";

const MARKER_PATTERN = /\[paste #(\d+) (?:\+\d+ lines|\d+ chars)\]/g;

/**
 * Cleans pasted text for the editor: unified line endings, tabs expanded, control characters other
 * than newlines dropped. With `keepTabs`, tabs survive (for content stored behind a marker, which is
 * never drawn and must reach the model as pasted: think Makefiles).
 */
export function normalizePastedText(text: string, keepTabs = false): string {
	const unified = text.replace(/\r\n?/g, "\n");
	const expanded = keepTabs ? unified : unified.replaceAll("\t", TAB_AS_SPACES);
	return expanded.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "");
}

export function isLargePaste(text: string): boolean {
	return text.split("\n").length > LARGE_PASTE_LINES || text.length > LARGE_PASTE_CHARS;
}

/** Large pastes kept out of the editor text, each behind a marker like "[paste #1 +42 lines]". */
export class PasteStore {
	private readonly pastes = new Map<number, string>();
	private nextId = 1;

	/** Stores `content` and returns the marker that stands for it. */
	add(content: string): string {
		const id = this.nextId++;
		this.pastes.set(id, content);
		const lineCount = content.split("\n").length;
		return lineCount > LARGE_PASTE_LINES
			? `[paste #${id} +${lineCount} lines]`
			: `[paste #${id} ${content.length} chars]`;
	}

	/** Replaces the markers of stored pastes in `text` with their content. */
	expand(text: string): string {
		if (this.pastes.size === 0) return text;
		return text.replace(MARKER_PATTERN, (marker, id: string) => this.pastes.get(Number(id)) ?? marker);
	}

	/** Code-unit ranges of the markers of stored pastes in `line`. */
	findMarkers(line: string): { start: number; end: number }[] {
		if (this.pastes.size === 0 || !line.includes("[paste #")) return [];
		const ranges: { start: number; end: number }[] = [];
		for (const match of line.matchAll(MARKER_PATTERN)) {
			if (this.pastes.has(Number(match[1]))) ranges.push({ start: match.index, end: match.index + match[0].length });
		}
		return ranges;
	}

	clear(): void {
		this.pastes.clear();
	}
}
