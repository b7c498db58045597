// Lists generator functions (sync or async) that are created anew each time the code around them runs: inside
// another function, in an object literal or class built inside one, or as an instance field. V8 gives every
// generator closure that is called a map of its own, and that map keeps the closure's scope alive until a full
// collection: a generator made per request or per turn holds that request's or turn's objects (its stream, its
// events) long after they are dead. Declare generators at module level, or as methods of a module-level class.
// packages/coding-agent/test/conventions/generator-closures.test.ts runs it over every package's src.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: "utf8" })
		.filter((name) => /\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts"))
		.map((name) => join(dir, name));
}

function isGenerator(node: ts.Node): boolean {
	return (
		(ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) &&
		node.asteriskToken !== undefined
	);
}

/** Why `node` (a generator) is created per call, or undefined when it is created once. */
function perCallReason(node: ts.Node): string | undefined {
	for (let parent = node.parent; parent && !ts.isSourceFile(parent); parent = parent.parent) {
		if (ts.isFunctionLike(parent) || ts.isClassStaticBlockDeclaration(parent)) return "inside a function";
		if (ts.isPropertyDeclaration(parent) && !parent.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) {
			return "an instance field";
		}
	}
	return undefined;
}

/** `file:line: reason` for each generator created per call in the .ts files under `dirs`. */
export function findGeneratorClosures(dirs: string[], root = process.cwd()): string[] {
	const found: string[] = [];
	for (const file of dirs.flatMap(sourceFiles)) {
		const text = readFileSync(file, "utf8");
		if (!text.includes("*")) continue;
		const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
		const visit = (node: ts.Node): void => {
			if (isGenerator(node)) {
				const reason = perCallReason(node);
				if (reason) {
					const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
					found.push(`${relative(root, file)}:${line}: a generator made per call (${reason})`);
				}
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found;
}
