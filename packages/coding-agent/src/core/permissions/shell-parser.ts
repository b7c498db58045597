// Bash commands parsed by a real shell parser: mvdan.cc/sh (the parser of shfmt), compiled to JavaScript as the
// `mvdan-sh` package. Loaded on first use (1.5 MB); its syntax tree is turned into the few facts permission
// rules need: every simple command anywhere in the script (pipelines, lists, subshells, `$(…)`, `<(…)`, function
// bodies, loops), each word's value when the shell would not change it, and every redirection.
import type { ShSyntax } from "mvdan-sh";

/** A word of a command: its value, or (when the shell computes it at run time) the source text. */
export interface ShellWord {
	value: string;
	/** `$VAR`, `$(…)`, `$((…))`, globs, brace expansion, `$'…'` with escapes: only known when the command runs. */
	dynamic: boolean;
}

export interface ShellAssignment {
	name: string;
	/** Undefined for `declare NAME` (no value). */
	value: ShellWord | undefined;
}

/** A simple command (`X=1 cmd args`) or a declaration (`export X=1`, `local y`). */
export interface ShellCall {
	assignments: ShellAssignment[];
	/** The command name and arguments; empty for a bare assignment (`X=1`). */
	words: ShellWord[];
	/** `export`, `declare`, `local`, `readonly`, `typeset`, `nameref`. */
	isDeclaration: boolean;
}

export interface ShellRedirect {
	operator: string;
	target: ShellWord;
	/** The redirection creates or changes a file (`>`, `>>`, `<>`, `>|`, `&>`, `&>>`, `>& file`). */
	writes: boolean;
}

export interface ShellScript {
	calls: ShellCall[];
	redirects: ShellRedirect[];
	/** Parts whose reading may differ from bash's (backslashes in nested backquotes). */
	uncertain: string[];
}

export type ShellParseResult = { ok: true; script: ShellScript } | { ok: false; error: string };

export interface ShellParser {
	/** Synchronous once loaded; never throws. */
	parse(source: string): ShellParseResult;
}

// Redirection operators by their token number in mvdan-sh 0.10.1 (pinned in package.json; the numbers are the
// Go package's token order, checked by test/permissions/bash-command-analysis.test.ts).
const REDIRECT_OPERATORS: Readonly<Record<number, string>> = {
	54: ">",
	55: ">>",
	56: "<",
	57: "<>",
	58: "<&",
	59: ">&",
	60: ">|",
	61: "<<",
	62: "<<-",
	63: "<<<",
	64: "&>",
	65: "&>>",
};
const WRITING_OPERATORS = new Set([">", ">>", "<>", ">|", "&>", "&>>"]);

// Nodes of the syntax tree, as far as this file reads them.
interface Node {
	Pos(): { Offset(): number };
	End(): { Offset(): number };
}
interface LitNode extends Node {
	Value: string;
}
interface QuotedNode extends Node {
	Value: string;
	Dollar: boolean;
	Parts: Node[];
}
interface WordNode extends Node {
	Parts: Node[];
}
interface AssignNode extends Node {
	Name: LitNode | null;
	Value: WordNode | null;
	Naked: boolean;
	Array: unknown;
}
interface CallNode extends Node {
	Assigns: AssignNode[];
	Args: WordNode[];
}
interface DeclNode extends Node {
	Variant: LitNode;
	Args: AssignNode[];
}
interface RedirectNode extends Node {
	Op: number;
	Word: WordNode | null;
}

/** Whether an unquoted literal contains something the shell expands: a glob or a brace expansion. */
function hasUnquotedExpansion(raw: string): boolean {
	let braceDepth = 0;
	let braceHasList = false;
	for (let i = 0; i < raw.length; i++) {
		const char = raw[i];
		if (char === "\\") {
			i++;
			continue;
		}
		if (char === "*" || char === "?" || char === "[") return true;
		if (char === "{") braceDepth++;
		else if (char === "}" && braceDepth > 0) {
			if (braceHasList) return true;
			braceDepth--;
		} else if (braceDepth > 0 && (char === "," || (char === "." && raw[i + 1] === "."))) braceHasList = true;
	}
	return false;
}

/** The value of an unquoted literal: a backslash keeps the next character, a backslash-newline disappears. */
function unescapeUnquoted(raw: string): string {
	return raw.replace(/\\(\n|.)/gs, (_, char: string) => (char === "\n" ? "" : char));
}

/** Inside double quotes a backslash only escapes `$`, backtick, `"`, `\` and newline. */
function unescapeDoubleQuoted(raw: string): string {
	return raw.replace(/\\([$`"\\\n])/g, (_, char: string) => (char === "\n" ? "" : char));
}

class SyntaxTreeReader {
	private readonly bytes: Buffer;
	/** Byte ranges of `…` substitutions: backslashes in them are read differently at each level of nesting. */
	private readonly backquoted: [number, number][] = [];
	readonly uncertain = new Set<string>();

	constructor(
		private readonly syntax: ShSyntax,
		source: string,
	) {
		this.bytes = Buffer.from(source, "utf8");
	}

	private text(node: Node): string {
		// Positions are byte offsets into the UTF-8 source.
		return this.bytes.subarray(node.Pos().Offset(), node.End().Offset()).toString("utf8");
	}

	/** A `…` substitution starts: words inside it with backslashes are not read (see `word`). */
	enterBackquotes(node: Node): void {
		this.backquoted.push([node.Pos().Offset(), node.End().Offset()]);
	}

	private isBackquoted(node: Node): boolean {
		const offset = node.Pos().Offset();
		return this.backquoted.some(([start, end]) => offset > start && offset < end);
	}

	word(node: WordNode): ShellWord {
		let value = "";
		let dynamic = false;
		// mvdan-sh removes one level of backslashes fewer than bash inside nested backquotes; such a word's value
		// is not trusted.
		if (this.isBackquoted(node) && this.text(node).includes("\\")) {
			dynamic = true;
			this.uncertain.add(`backslashes inside backquotes (${this.text(node)})`);
		}
		for (const part of node.Parts) {
			switch (this.syntax.NodeType(part)) {
				case "Lit": {
					const raw = (part as LitNode).Value;
					if (hasUnquotedExpansion(raw)) dynamic = true;
					value += unescapeUnquoted(raw);
					break;
				}
				case "SglQuoted": {
					const quoted = part as QuotedNode;
					// $'…' turns escapes into other characters.
					if (quoted.Dollar && quoted.Value.includes("\\")) dynamic = true;
					value += quoted.Value;
					break;
				}
				case "DblQuoted":
					for (const inner of (part as QuotedNode).Parts) {
						if (this.syntax.NodeType(inner) === "Lit") value += unescapeDoubleQuoted((inner as LitNode).Value);
						else dynamic = true;
					}
					break;
				default:
					dynamic = true;
			}
		}
		return dynamic ? { value: this.text(node), dynamic } : { value, dynamic };
	}

	assignment(node: AssignNode): ShellAssignment | undefined {
		if (!node.Name) return undefined;
		if (node.Array) return { name: node.Name.Value, value: { value: this.text(node), dynamic: true } };
		return { name: node.Name.Value, value: node.Value ? this.word(node.Value) : undefined };
	}

	call(node: CallNode): ShellCall {
		const assignments: ShellAssignment[] = [];
		for (const assign of node.Assigns ?? []) {
			const converted = this.assignment(assign);
			if (converted) assignments.push(converted);
		}
		return { assignments, words: (node.Args ?? []).map((word) => this.word(word)), isDeclaration: false };
	}

	declaration(node: DeclNode): ShellCall {
		const words: ShellWord[] = [{ value: node.Variant.Value, dynamic: false }];
		const assignments: ShellAssignment[] = [];
		for (const arg of node.Args ?? []) {
			if (arg.Naked) {
				// `export -x NAME` style: a flag or a name without a value.
				if (arg.Value) words.push(this.word(arg.Value));
				else if (arg.Name) words.push({ value: arg.Name.Value, dynamic: false });
				continue;
			}
			const converted = this.assignment(arg);
			if (!converted) continue;
			assignments.push(converted);
			words.push({ value: this.text(arg), dynamic: converted.value?.dynamic ?? false });
		}
		return { assignments, words, isDeclaration: true };
	}

	redirect(node: RedirectNode): ShellRedirect | undefined {
		const operator = REDIRECT_OPERATORS[node.Op];
		if (!operator || !node.Word) {
			// Another mvdan-sh version numbering tokens differently: what it writes is not known, so it asks.
			this.uncertain.add(`a redirection not understood (${this.text(node)})`);
			return undefined;
		}
		const target = this.word(node.Word);
		// `>&2` duplicates a descriptor; `>& file` (bash) writes the file.
		const duplicatesDescriptor = operator === ">&" && !target.dynamic && /^(\d+|-)$/.test(target.value);
		const writes = WRITING_OPERATORS.has(operator) || (operator === ">&" && !duplicatesDescriptor);
		return { operator, target, writes };
	}
}

function errorText(error: unknown): string {
	if (typeof error === "object" && error !== null && typeof (error as { Error?: unknown }).Error === "function") {
		return String((error as { Error(): unknown }).Error());
	}
	return error instanceof Error ? error.message : String(error);
}

export function createShellParser(syntax: ShSyntax): ShellParser {
	const parser = syntax.NewParser();
	return {
		parse(source) {
			let file: unknown;
			try {
				file = parser.Parse(source, "");
			} catch (error) {
				return { ok: false, error: errorText(error) };
			}
			const reader = new SyntaxTreeReader(syntax, source);
			const script: ShellScript = { calls: [], redirects: [], uncertain: [] };
			try {
				syntax.Walk(file, (node) => {
					if (node === null || node === undefined) return true;
					switch (syntax.NodeType(node)) {
						case "CallExpr":
							script.calls.push(reader.call(node as CallNode));
							break;
						case "DeclClause":
							script.calls.push(reader.declaration(node as DeclNode));
							break;
						case "CmdSubst":
							if ((node as { Backquotes?: boolean }).Backquotes) reader.enterBackquotes(node as Node);
							break;
						case "Redirect": {
							const redirect = reader.redirect(node as RedirectNode);
							if (redirect) script.redirects.push(redirect);
							break;
						}
					}
					return true;
				});
			} catch (error) {
				return { ok: false, error: errorText(error) };
			}
			script.uncertain.push(...reader.uncertain);
			return { ok: true, script };
		},
	};
}

let loading: Promise<ShellParser> | undefined;

/**
 * The parser, loaded once. mvdan-sh's GopherJS runtime sets `Error.stackTraceLimit` to Infinity and a global
 * `require` while it loads; both are put back as they were.
 */
export function loadShellParser(): Promise<ShellParser> {
	loading ??= (async () => {
		const stackTraceLimit = Error.stackTraceLimit;
		const hadRequire = Object.hasOwn(globalThis, "require");
		const previousRequire = (globalThis as { require?: unknown }).require;
		try {
			const module = await import("mvdan-sh");
			return createShellParser(module.default.syntax);
		} finally {
			Error.stackTraceLimit = stackTraceLimit;
			if (hadRequire) (globalThis as { require?: unknown }).require = previousRequire;
			else delete (globalThis as { require?: unknown }).require;
		}
	})();
	return loading;
}
