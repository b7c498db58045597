/** Result of matching a query against a text: lower scores are better matches. */
export interface FuzzyMatch {
	matches: boolean;
	score: number;
}

const BOUNDARY_BEFORE = /[\s/\\_\-.:@]/;

function isBoundary(text: string, index: number): boolean {
	if (index === 0) return true;
	const before = text[index - 1];
	if (BOUNDARY_BEFORE.test(before)) return true;
	// camelCase: a capital after a lowercase letter starts a word.
	const char = text[index];
	return char !== char.toLowerCase() && before === before.toLowerCase() && before !== before.toUpperCase();
}

function matchToken(query: string, original: string): number | undefined {
	const text = original.toLowerCase();
	const substring = text.indexOf(query);
	if (substring !== -1) {
		const boundaryPenalty = isBoundary(original, substring) ? 0 : 1;
		return boundaryPenalty + substring * 0.01 + (text.length - query.length) * 0.001;
	}
	// Subsequence: every query character in order, penalising gaps and matches inside words.
	let cost = 2;
	let position = -1;
	for (const char of query) {
		const found = text.indexOf(char, position + 1);
		if (found === -1) return undefined;
		const gap = found - position - 1;
		if (gap > 0) cost += 0.1 + gap * 0.01 + (isBoundary(original, found) ? 0 : 0.05);
		position = found;
	}
	return cost + text.length * 0.001;
}

/**
 * Matches `query` against `text`, case-insensitively. Whitespace separates tokens that must all match;
 * a token matches as a substring (best at a word start) or as a subsequence of the text.
 */
export function fuzzyMatch(query: string, text: string): FuzzyMatch {
	const tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
	let score = 0;
	for (const token of tokens) {
		const tokenScore = matchToken(token, text);
		if (tokenScore === undefined) return { matches: false, score: Number.POSITIVE_INFINITY };
		score += tokenScore;
	}
	return { matches: true, score };
}

/** The items whose text matches `query`, best match first (all items, in order, for an empty query). */
export function fuzzyFilter<T>(items: readonly T[], query: string, getText: (item: T) => string): T[] {
	if (query.trim().length === 0) return [...items];
	const scored: { item: T; score: number; index: number }[] = [];
	items.forEach((item, index) => {
		const match = fuzzyMatch(query, getText(item));
		if (match.matches) scored.push({ item, score: match.score, index });
	});
	scored.sort((a, b) => a.score - b.score || a.index - b.index);
	return scored.map((entry) => entry.item);
}
