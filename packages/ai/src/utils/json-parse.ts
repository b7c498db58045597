import { parse as parsePartial } from "partial-json";

/**
 * Parses possibly incomplete JSON from a streamed tool call. Never throws; always returns an object
 * (possibly missing the fields that have not streamed yet).
 */
export function parseStreamingJson(text: string | undefined): Record<string, unknown> {
	if (!text || text.trim() === "") return {};
	try {
		return asObject(JSON.parse(text));
	} catch {
		try {
			return asObject(parsePartial(text));
		} catch {
			return {};
		}
	}
}

function asObject(value: unknown): Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: {};
}
