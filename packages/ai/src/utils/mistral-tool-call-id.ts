import { shortHash } from "./short-hash.js";

const MISTRAL_TOOL_CALL_ID = /^[a-zA-Z0-9]{9}$/;

/**
 * A tool-call id normalizer for Mistral, which rejects any id that is not exactly 9 alphanumerics
 * ("Tool call id was … but must be a-z, A-Z, 0-9, with a length of 9"). Valid ids are kept; others are
 * derived from their hash, the same id always mapping to the same result, and distinct ids never
 * sharing one. Create one per request: it remembers the ids it has handed out.
 */
export function createMistralToolCallIdNormalizer(): (id: string) => string {
	const assigned = new Map<string, string>();
	const taken = new Set<string>();
	return (id) => {
		const known = assigned.get(id);
		if (known) return known;
		let normalized = id;
		for (let attempt = 0; !MISTRAL_TOOL_CALL_ID.test(normalized) || taken.has(normalized); attempt++) {
			normalized = shortHash(attempt === 0 ? id : `${id}#${attempt}`).padStart(9, "0");
		}
		assigned.set(id, normalized);
		taken.add(normalized);
		return normalized;
	};
}
