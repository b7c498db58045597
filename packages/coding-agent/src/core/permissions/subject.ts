// What a tool call is about, for the rules: the commands of a bash call, the path of a file tool, or just the
// tool (MCP and extension tools; the `mcp` tool's inner call by the inner tool's name). Pure, apart from
// following symbolic links of the paths.
import { MCP_TOOL_NAME } from "../mcp/search-tool.js";
import { type CallPath, relativeInside, resolveCallPath } from "./path-pattern.js";
import type { PathToolName } from "./rule-syntax.js";
import type { BashAnalysis } from "./shell-commands.js";

export interface PathContext {
	/** The working directory as given (paths of calls resolve against it). */
	cwd: string;
	/** The working directory with symbolic links resolved: what project rules are anchored at. */
	projectRoot: string;
	home: string;
}

export type PermissionSubject =
	| {
			kind: "bash";
			toolName: string;
			command: string;
			analysis: BashAnalysis;
			/** The files output redirections write, resolved. */
			writes: CallPath[];
	  }
	| { kind: "path"; toolName: PathToolName; path: CallPath; writes: boolean }
	| {
			kind: "tool";
			toolName: string;
			/** The name rules are matched against (the inner tool for an `mcp` call). */
			name: string;
			/** Rules naming this tool refuse or ask too (the `mcp` tool around an inner call). */
			outerName?: string;
			/** Cannot change anything (the `mcp` tool searching): runs in every mode unless a rule objects. */
			readOnly: boolean;
	  };

const PATH_TOOLS: Readonly<Record<string, { argument: string; defaultPath?: string; writes: boolean }>> = {
	read: { argument: "path", writes: false },
	grep: { argument: "path", defaultPath: ".", writes: false },
	find: { argument: "path", defaultPath: ".", writes: false },
	ls: { argument: "path", defaultPath: ".", writes: false },
	edit: { argument: "path", writes: true },
	write: { argument: "path", writes: true },
};

function stringArg(args: Record<string, unknown>, key: string): string | undefined {
	const value = args[key];
	return typeof value === "string" ? value : undefined;
}

/**
 * A call path with its lexical form also expressed under the resolved project root, so that a project whose
 * directory is reached through a link matches its own rules either way.
 */
export function resolvePathForRules(given: string, context: PathContext): CallPath {
	const path = resolveCallPath(given, context.cwd, context.home);
	const inside = relativeInside(context.cwd, path.lexical);
	if (inside === undefined || context.cwd === context.projectRoot) return path;
	return { ...path, lexical: inside === "" ? context.projectRoot : `${context.projectRoot}/${inside}` };
}

/** The subject of a call; `analyzeBash` is asked only for bash calls. */
export function describeCall(
	toolName: string,
	args: Record<string, unknown>,
	context: PathContext,
	analyzeBash: (command: string) => BashAnalysis,
): PermissionSubject {
	if (toolName === "bash") {
		const command = stringArg(args, "command");
		const analysis: BashAnalysis =
			command === undefined
				? { commands: [], writes: [], unknowns: ["the call has no command"] }
				: analyzeBash(command);
		return {
			kind: "bash",
			toolName,
			command: command ?? "",
			analysis,
			writes: analysis.writes.map((target) => resolvePathForRules(target, context)),
		};
	}
	const pathTool = PATH_TOOLS[toolName];
	if (pathTool) {
		const given = stringArg(args, pathTool.argument) ?? pathTool.defaultPath;
		if (given !== undefined) {
			return {
				kind: "path",
				toolName: toolName as PathToolName,
				path: resolvePathForRules(given, context),
				writes: pathTool.writes,
			};
		}
		return { kind: "tool", toolName, name: toolName, readOnly: false };
	}
	if (toolName === MCP_TOOL_NAME) {
		const inner = stringArg(args, "tool");
		if (inner !== undefined && inner.length > 0) {
			return { kind: "tool", toolName, name: inner, outerName: MCP_TOOL_NAME, readOnly: false };
		}
		// A search: lists tools, calls none.
		return { kind: "tool", toolName, name: MCP_TOOL_NAME, readOnly: true };
	}
	return { kind: "tool", toolName, name: toolName, readOnly: false };
}
