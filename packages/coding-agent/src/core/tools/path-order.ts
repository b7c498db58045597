/**
 * Orders paths the way a depth-first walk with sorted directory entries visits them: `/` sorts before every
 * other character, so a directory's contents come right after it (`a/`, `a/z`, `a-b`). Results of the
 * built-in engines and of rg / fd are presented in this order.
 */
export function comparePaths(a: string, b: string): number {
	const length = Math.min(a.length, b.length);
	for (let i = 0; i < length; i++) {
		const x = a.charCodeAt(i);
		const y = b.charCodeAt(i);
		if (x === y) continue;
		if (x === 47) return -1;
		if (y === 47) return 1;
		return x - y;
	}
	return a.length - b.length;
}
