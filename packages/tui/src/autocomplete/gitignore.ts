/** One rule of a .gitignore file. */
interface IgnoreRule {
	regex: RegExp;
	isNegated: boolean;
	isDirectoryOnly: boolean;
	/** Directory of the .gitignore, relative to the walk root ("" for the root), with a trailing slash. */
	base: string;
}

function globToRegexSource(glob: string): string {
	let out = "";
	for (let i = 0; i < glob.length; i++) {
		const char = glob[i];
		if (char === "*") {
			if (glob[i + 1] === "*") {
				const atSegmentStart = i === 0 || glob[i - 1] === "/";
				const atSegmentEnd = i + 2 === glob.length || glob[i + 2] === "/";
				if (atSegmentStart && atSegmentEnd) {
					// "**/" matches any number of directories; a trailing "**" everything below.
					if (glob[i + 2] === "/") {
						out += "(?:.*/)?";
						i += 2;
					} else {
						out += ".*";
						i += 1;
					}
					continue;
				}
			}
			out += "[^/]*";
		} else if (char === "?") {
			out += "[^/]";
		} else if (char === "[") {
			const end = glob.indexOf("]", i + 1);
			if (end === -1) {
				out += "\\[";
				continue;
			}
			const body = glob
				.slice(i + 1, end)
				.replace(/^!/, "^")
				.replace(/\\/g, "\\\\");
			out += `[${body}]`;
			i = end;
		} else if (char === "\\" && i + 1 < glob.length) {
			out += glob[i + 1].replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
			i++;
		} else {
			out += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
		}
	}
	return out;
}

/** Parses the lines of a .gitignore located in `base` (relative directory, "" for the root). */
export function parseGitignore(content: string, base: string): IgnoreRule[] {
	const prefix = base === "" || base.endsWith("/") ? base : `${base}/`;
	const rules: IgnoreRule[] = [];
	for (const rawLine of content.split(/\r?\n/)) {
		let line = rawLine.replace(/(?<!\\)\s+$/, "");
		if (line === "" || line.startsWith("#")) continue;
		const isNegated = line.startsWith("!");
		if (isNegated) line = line.slice(1);
		if (line.startsWith("\\#") || line.startsWith("\\!")) line = line.slice(1);
		const isDirectoryOnly = line.endsWith("/");
		if (isDirectoryOnly) line = line.slice(0, -1);
		// A slash anywhere but at the end anchors the pattern to the .gitignore's directory.
		const isAnchored = line.includes("/");
		if (line.startsWith("/")) line = line.slice(1);
		if (line === "") continue;
		const body = globToRegexSource(line);
		const source = isAnchored ? `^${body}$` : `^(?:.*/)?${body}$`;
		rules.push({ regex: new RegExp(source), isNegated, isDirectoryOnly, base: prefix });
	}
	return rules;
}

/** Whether `path` (relative to the walk root, "/"-separated) is ignored; the last matching rule wins. */
export function isIgnored(rules: readonly IgnoreRule[], path: string, isDirectory: boolean): boolean {
	let ignored = false;
	for (const rule of rules) {
		if (rule.isDirectoryOnly && !isDirectory) continue;
		if (rule.base !== "" && !path.startsWith(rule.base)) continue;
		if (rule.regex.test(path.slice(rule.base.length))) ignored = !rule.isNegated;
	}
	return ignored;
}

export type { IgnoreRule };
