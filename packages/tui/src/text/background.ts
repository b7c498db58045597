import type { StyleFn } from "../theme/style.js";
import { padToWidth } from "./truncate.js";

/**
 * Pads `line` to `width` and paints it with `background`. Resets inside the line (from inner styles)
 * would end the background early, so the background is re-opened after each of them.
 */
export function applyBackground(line: string, width: number, background: StyleFn): string {
	const padded = padToWidth(line, width);
	const probe = background("\u0000");
	const marker = probe.indexOf("\u0000");
	if (marker <= 0) return background(padded);
	const open = probe.slice(0, marker);
	const close = probe.slice(marker + 1);
	const body = padded.replace(/\x1b\[(?:0|49)?m/g, (reset) => reset + open);
	return open + body + close;
}
