import type { PromptTemplate } from "./prompt-templates.js";

/**
 * Splits a command's argument string like a shell, without escapes: spaces and tabs separate arguments,
 * `"…"` and `'…'` group text and are removed. An empty quoted argument (`""`) is kept as `""`, so the
 * positions of the arguments after it do not shift (the reference dropped it).
 */
export function parseCommandArgs(argsString: string): string[] {
	const args: string[] = [];
	let current = "";
	let hasArgument = false;
	let quote: '"' | "'" | undefined;
	for (const char of argsString) {
		if (quote) {
			if (char === quote) quote = undefined;
			else current += char;
		} else if (char === '"' || char === "'") {
			quote = char;
			hasArgument = true;
		} else if (char === " " || char === "\t") {
			if (hasArgument) args.push(current);
			current = "";
			hasArgument = false;
		} else {
			current += char;
			hasArgument = true;
		}
	}
	if (hasArgument) args.push(current);
	return args;
}

// One pass over the template, so text coming from an argument (say, a literal "$1") is never substituted again.
const PLACEHOLDER = /\$\{@:(\d+)(?::(\d+))?\}|\$ARGUMENTS|\$@|\$(\d+)/g;

/**
 * Bash-style placeholders in a template: `$1`, `$2`… (missing → empty), `${@:N}` (arguments from the Nth on,
 * 1-based, 0 counts as 1), `${@:N:L}` (L arguments from the Nth), `$ARGUMENTS` and `$@` (all, space-joined).
 */
export function substituteArgs(content: string, args: readonly string[]): string {
	return content.replace(PLACEHOLDER, (match, sliceStart?: string, sliceLength?: string, position?: string) => {
		if (position !== undefined) return args[Number(position) - 1] ?? "";
		if (sliceStart !== undefined) {
			const start = Math.max(Number(sliceStart), 1) - 1;
			const end = sliceLength === undefined ? undefined : start + Number(sliceLength);
			return args.slice(start, end).join(" ");
		}
		// $ARGUMENTS and $@
		return match ? args.join(" ") : "";
	});
}

/**
 * Expands `/name args` when a template has exactly that name; any other text is returned unchanged. The name
 * ends at the first whitespace (the reference split on a space only, so `/name` followed by a newline was
 * sent to the model literally).
 */
export function expandPromptTemplate(text: string, templates: readonly PromptTemplate[]): string {
	if (!text.startsWith("/")) return text;
	const separator = text.search(/\s/);
	const name = separator === -1 ? text.slice(1) : text.slice(1, separator);
	const template = templates.find((candidate) => candidate.name === name);
	if (!template) return text;
	const argsString = separator === -1 ? "" : text.slice(separator + 1);
	return substituteArgs(template.content, parseCommandArgs(argsString));
}
