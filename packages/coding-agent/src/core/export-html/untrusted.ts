// Narrowing for values read from a session file: a hand-edited or foreign file may hold any JSON where the
// types promise a shape, and one odd entry must not stop the export.

export type UnknownRecord = Record<string, unknown>;

export function asRecord(value: unknown): UnknownRecord | undefined {
	return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as UnknownRecord) : undefined;
}

export function asString(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function asArray(value: unknown): readonly unknown[] {
	return Array.isArray(value) ? value : [];
}

/** Message content: a string, or the text of its text blocks joined by newlines. */
export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	const parts: string[] = [];
	for (const block of asArray(content)) {
		const record = asRecord(block);
		if (record?.type === "text" && typeof record.text === "string") parts.push(record.text);
	}
	return parts.join("\n");
}

const MAX_JSON_CHARS = 20_000;

/** Pretty JSON for display, capped so one huge extension payload cannot swamp the page. */
export function displayJson(value: unknown): string {
	let json: string | undefined;
	try {
		json = JSON.stringify(value, null, 2);
	} catch {
		json = undefined;
	}
	if (json === undefined) return String(value);
	return json.length > MAX_JSON_CHARS
		? `${json.slice(0, MAX_JSON_CHARS)}\n… (${json.length - MAX_JSON_CHARS} more characters)`
		: json;
}
