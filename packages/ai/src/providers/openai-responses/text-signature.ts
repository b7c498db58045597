import type { TextSignatureV1 } from "../../types.js";

/** Where an assistant text sits in the Responses API, kept in `TextContent.textSignature` for replay. */
export type MessagePhase = NonNullable<TextSignatureV1["phase"]>;

function isPhase(value: unknown): value is MessagePhase {
	return value === "commentary" || value === "final_answer";
}

export function encodeTextSignature(id: string, phase?: MessagePhase | null): string {
	const signature: TextSignatureV1 = phase ? { v: 1, id, phase } : { v: 1, id };
	return JSON.stringify(signature);
}

/**
 * The message item id (and phase) of a text block: JSON `TextSignatureV1`, or a legacy plain id string.
 * Undefined when absent or unreadable.
 */
export function decodeTextSignature(signature: string | undefined): { id: string; phase?: MessagePhase } | undefined {
	if (!signature) return undefined;
	if (!signature.startsWith("{")) return { id: signature };
	try {
		const parsed = JSON.parse(signature) as Partial<TextSignatureV1>;
		if (parsed.v !== 1 || typeof parsed.id !== "string" || parsed.id === "") return undefined;
		return isPhase(parsed.phase) ? { id: parsed.id, phase: parsed.phase } : { id: parsed.id };
	} catch {
		return undefined;
	}
}
