import type { Model } from "../../types.js";
import type { ToolCallIdNormalizer } from "../transform-messages.js";

const MAX_ID_PART_LENGTH = 64;

/** Providers whose Responses endpoint validates `call_id|item_id` pairs. Azure adds its own. */
export const RESPONSES_ID_NORMALIZING_PROVIDERS: readonly string[] = ["openai", "openai-codex", "opencode"];

/** Our tool-call ids for the Responses API are `<call_id>|<item_id>`; ids from other APIs have no item part. */
export function splitToolCallId(id: string): { callId: string; itemId: string | undefined } {
	const pipe = id.indexOf("|");
	return pipe === -1 ? { callId: id, itemId: undefined } : { callId: id.slice(0, pipe), itemId: id.slice(pipe + 1) };
}

function cleanPart(part: string): string {
	return part
		.replace(/[^a-zA-Z0-9_-]/g, "_")
		.slice(0, MAX_ID_PART_LENGTH)
		.replace(/_+$/, "");
}

/** Makes a pipe id from another model acceptable: both halves sanitised and cut, the item id prefixed `fc_`. */
export function normalizeResponsesToolCallId(id: string): string {
	const { callId, itemId } = splitToolCallId(id);
	if (itemId === undefined) return id;
	const sanitizedItem = itemId.replace(/[^a-zA-Z0-9_-]/g, "_");
	const prefixedItem = sanitizedItem.startsWith("fc") ? sanitizedItem : `fc_${sanitizedItem}`;
	return `${cleanPart(callId)}|${cleanPart(prefixedItem)}`;
}

// One normalizer per provider list: transformMessages reuses what it adapted for a normalizer only while it is
// the same function, so a new closure per request would convert another model's turns afresh every time.
const normalizers = new Map<string, ToolCallIdNormalizer>();

/** The normalizer handed to transformMessages: active only when the target provider checks ids. */
export function responsesToolCallIdNormalizer(
	providers: readonly string[] = RESPONSES_ID_NORMALIZING_PROVIDERS,
): ToolCallIdNormalizer {
	const key = providers.join("\u0000");
	let normalizer = normalizers.get(key);
	if (!normalizer) {
		const checked = [...providers];
		normalizer = (id: string, targetModel: Model) =>
			checked.includes(targetModel.provider) ? normalizeResponsesToolCallId(id) : id;
		normalizers.set(key, normalizer);
	}
	return normalizer;
}
