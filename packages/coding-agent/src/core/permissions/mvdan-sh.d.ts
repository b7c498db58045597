// The parts of mvdan-sh (mvdan.cc/sh's syntax package compiled to JavaScript) that shell-parser.ts uses. Nodes
// are Go structs behind getters: fields are read by name, positions through `Pos()` / `End()`.
declare module "mvdan-sh" {
	export interface ShPos {
		Offset(): number;
	}
	export interface ShParser {
		/** Throws the parse error (an object whose `Error()` is the message) for invalid input. */
		Parse(source: string, name: string): unknown;
	}
	export interface ShSyntax {
		NewParser(...options: unknown[]): ShParser;
		NodeType(node: unknown): string;
		/** Visits `node` and, while `visit` returns true, its children; the visit of a finished node passes null. */
		Walk(node: unknown, visit: (node: unknown) => boolean): void;
	}
	const sh: { syntax: ShSyntax };
	export default sh;
}
