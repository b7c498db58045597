// The bundles' outputs are ASCII (scripts/bundle.mjs). V8 keeps a source with one non-ASCII character as a two-byte
// string, and Node decodes an ES module's file with a TextDecoder: both cost more than ASCII (8–16 ms and ~1 MB of a
// print run). esbuild escapes strings, untagged templates and identifiers itself (its default `charset`); it leaves
// comments, regular expressions and tagged templates as they are.
import ts from "typescript";

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * `text` (JavaScript, from esbuild) with each non-ASCII character escaped (`\uXXXX`, surrogate pairs for the rest).
 * In a comment an escape is only text, and in a regular expression it means the character, as it does after a
 * backslash (an identity escape, `\é`, whose backslash the escape replaces). A tagged template's raw text is what its
 * tag gets, so one there throws, as does a raw line or paragraph separator (it ends a `//` comment; its escape would
 * not). `name` names the file in errors.
 */
export function toAscii(text, name) {
	if (!NON_ASCII.test(text)) return text;
	if (/[\u2028\u2029]/.test(text)) throw new Error(`${name}: a raw U+2028 or U+2029 this build cannot escape`);
	const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
	const visit = (node) => {
		if (ts.isTaggedTemplateExpression(node) && NON_ASCII.test(node.template.getText(source))) {
			const { line } = source.getLineAndCharacterOfPosition(node.template.getStart(source));
			throw new Error(`${name}:${line + 1}: non-ASCII text in a tagged template: escape it in the source`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	const unicodeEscape = (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
	return text.replace(
		/(\\*)([^\x00-\x7f])/g,
		(_, slashes, char) => (slashes.length % 2 === 1 ? slashes.slice(1) : slashes) + unicodeEscape(char),
	);
}
