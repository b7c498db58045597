// Filler for generated session branches: deterministic words and the token figures of a typical assistant turn.

const VOCABULARY = ["the", "parser", "returns", "a", "token", "stream", "function", "file", "test", "error", "value"];

/** `count` words of a small coding vocabulary, each followed by a space; the same `seed` gives the same text. */
export function words(count: number, seed: number): string {
	let text = "";
	for (let i = 0; i < count; i++) text += `${VOCABULARY[(seed + i * 7) % VOCABULARY.length]} `;
	return text;
}

/** Token counts of one assistant turn (the `usage` of its message, without the cost). */
export const ASSISTANT_TURN_TOKENS = {
	input: 1200,
	output: 80,
	cacheRead: 0,
	cacheWrite: 1100,
	totalTokens: 2380,
};
