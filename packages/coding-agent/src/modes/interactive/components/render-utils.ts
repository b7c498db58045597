// Small pure helpers the message components share: boxing lines on a background, wrapping, and the number
// and path formats the transcript and the footer use.
import { homedir } from "node:os";
import { applyBackground, type StyleFn, truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@agent/tui";

/** Wraps styled logical lines to `width` (each logical line may wrap onto several rows). */
export function wrapLines(lines: readonly string[], width: number): string[] {
	const out: string[] = [];
	const w = Math.max(1, width);
	for (const line of lines) {
		if (line.length === 0) {
			out.push("");
			continue;
		}
		if (visibleWidth(line) <= w) {
			out.push(line);
			continue;
		}
		for (const row of wrapTextWithAnsi(line, w)) out.push(row);
	}
	return out;
}

/**
 * Lays `content` (a function of the inner width) inside padding, painting `background` across the full width
 * when given. Content rows are cut to the inner width, never wider.
 */
export function boxLines(
	width: number,
	content: (innerWidth: number) => string[],
	options: { paddingX?: number; paddingY?: number; background?: StyleFn } = {},
): string[] {
	const paddingX = Math.max(0, Math.min(options.paddingX ?? 1, Math.floor((width - 1) / 2)));
	const paddingY = options.paddingY ?? 0;
	const inner = Math.max(1, width - paddingX * 2);
	const margin = " ".repeat(paddingX);
	const rows = content(inner).map(
		(row) => margin + (visibleWidth(row) > inner ? truncateToWidth(row, inner, "") : row),
	);
	const blank: string[] = Array.from({ length: paddingY }, () => "");
	const all = [...blank, ...rows, ...blank];
	const background = options.background;
	return background ? all.map((row) => applyBackground(row, width, background)) : all;
}

/** `1234` → `1.2k`, `12345` → `12k`, `1234567` → `1.2M`. */
export function formatTokenCount(count: number): string {
	if (count < 1000) return String(Math.round(count));
	if (count < 10_000) return `${(count / 1000).toFixed(1)}k`;
	if (count < 1_000_000) return `${Math.round(count / 1000)}k`;
	if (count < 10_000_000) return `${(count / 1_000_000).toFixed(1)}M`;
	return `${Math.round(count / 1_000_000)}M`;
}

/** The home directory shown as `~`. */
export function shortenPath(path: string, home: string = homedir()): string {
	if (home && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
	return path;
}

/** A path relative to `cwd` when inside it, else with `~` for the home directory. */
export function displayPath(path: string, cwd: string): string {
	if (path === cwd) return ".";
	if (path.startsWith(`${cwd}/`)) return path.slice(cwd.length + 1);
	return shortenPath(path);
}

/** Lines of `text` with tabs expanded and carriage returns dropped (tool output is shown as is otherwise). */
export function textLines(text: string): string[] {
	const cleaned = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
	return (cleaned.includes("\t") ? cleaned.replaceAll("\t", "   ") : cleaned).split("\n");
}

/** "3 minutes ago" style ages for the session picker. */
export function formatAge(date: Date, now: number = Date.now()): string {
	const seconds = Math.max(0, Math.round((now - date.getTime()) / 1000));
	if (seconds < 60) return "just now";
	const minutes = Math.round(seconds / 60);
	if (minutes < 60) return `${minutes}m ago`;
	const hours = Math.round(minutes / 60);
	if (hours < 24) return `${hours}h ago`;
	const days = Math.round(hours / 24);
	if (days < 30) return `${days}d ago`;
	const months = Math.round(days / 30);
	if (months < 12) return `${months}mo ago`;
	return `${Math.round(months / 12)}y ago`;
}
