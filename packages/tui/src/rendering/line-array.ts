/**
 * Replaces `deleteCount` items of `target` at `at` with `source[sourceFrom..]`, in place. Unlike
 * `splice(...spread)` it has no argument-count limit, so it works for transcripts of any length.
 */
export function replaceRange(
	target: string[],
	at: number,
	deleteCount: number,
	source: readonly string[],
	sourceFrom: number,
): void {
	const insertCount = source.length - sourceFrom;
	const oldLength = target.length;
	const tailStart = at + deleteCount;
	const shift = insertCount - deleteCount;
	if (shift > 0) {
		for (let i = 0; i < shift; i++) target.push("");
		for (let i = oldLength - 1; i >= tailStart; i--) target[i + shift] = target[i];
	} else if (shift < 0) {
		for (let i = tailStart; i < oldLength; i++) target[i + shift] = target[i];
		target.length = oldLength + shift;
	}
	for (let i = 0; i < insertCount; i++) target[at + i] = source[sourceFrom + i];
}
