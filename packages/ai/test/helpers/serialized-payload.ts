// A request body's bytes as the adapters send them (`lendPayload`), copied out and given back at once.
import { type HistoryField, lendPayload } from "../../src/providers/serialized-payload.js";

export function serializePayload<F extends HistoryField>(
	payload: { [K in F]: readonly object[] },
	field: F,
): Uint8Array {
	const lent = lendPayload(payload, field);
	const bytes = lent.body.slice();
	lent.release();
	return bytes;
}
