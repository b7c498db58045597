import type { TUnsafe } from "@sinclair/typebox";
import { LeanType } from "./lean-type.js";

/**
 * A string enum as `{type:"string", enum:[...]}`. Use it instead of unions of literals, which
 * become anyOf/const schemas that Google's API rejects.
 */
export function StringEnum<const T extends readonly string[]>(
	values: T,
	options?: { description?: string; default?: T[number] },
): TUnsafe<T[number]> {
	return LeanType.Unsafe<T[number]>({
		type: "string",
		enum: [...values],
		...(options?.description !== undefined ? { description: options.description } : {}),
		...(options?.default !== undefined ? { default: options.default } : {}),
	});
}
