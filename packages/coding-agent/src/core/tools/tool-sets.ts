import type { AgentTool } from "@agent/agent-core";
import { type BashToolOptions, bashTool, createBashTool } from "./bash.js";
import { createEditTool, type EditToolOptions, editTool } from "./edit.js";
import { createFindTool, type FindToolOptions, findTool } from "./find.js";
import { createGrepTool, type GrepToolOptions, grepTool } from "./grep.js";
import { createLsTool, type LsToolOptions, lsTool } from "./ls.js";
import { createReadTool, type ReadToolOptions, readTool } from "./read.js";
import { createWriteTool, type WriteToolOptions, writeTool } from "./write.js";

export type ToolName = "read" | "bash" | "edit" | "write" | "grep" | "find" | "ls";

/** Options for building several tools at once. */
export interface ToolsOptions {
	read?: ReadToolOptions;
	bash?: BashToolOptions;
	edit?: EditToolOptions;
	write?: WriteToolOptions;
	grep?: GrepToolOptions;
	find?: FindToolOptions;
	ls?: LsToolOptions;
	/**
	 * Refuse paths outside the working directory in read, write, edit, ls, grep and find (after resolving
	 * `..` and symlinks). Off by default, as in the reference; a per-tool `confineToCwd` wins.
	 */
	confineToCwd?: boolean;
}

/** The default active set: read, bash, edit, write (for the process's working directory). */
export const codingTools: AgentTool[] = [readTool, bashTool, editTool, writeTool];
/** Tools that cannot change files: read, grep, find, ls. */
export const readOnlyTools: AgentTool[] = [readTool, grepTool, findTool, lsTool];
/** All seven tools by name. */
export const allTools: Record<ToolName, AgentTool> = {
	read: readTool,
	bash: bashTool,
	edit: editTool,
	write: writeTool,
	grep: grepTool,
	find: findTool,
	ls: lsTool,
};

function withConfinement<T extends { confineToCwd?: boolean }>(
	options: T | undefined,
	confine: boolean | undefined,
): T {
	return { ...options, confineToCwd: options?.confineToCwd ?? confine } as T;
}

export function createAllTools(cwd: string, options: ToolsOptions = {}): Record<ToolName, AgentTool> {
	const confine = options.confineToCwd;
	return {
		read: createReadTool(cwd, withConfinement(options.read, confine)),
		bash: createBashTool(cwd, options.bash),
		edit: createEditTool(cwd, withConfinement(options.edit, confine)),
		write: createWriteTool(cwd, withConfinement(options.write, confine)),
		grep: createGrepTool(cwd, withConfinement(options.grep, confine)),
		find: createFindTool(cwd, withConfinement(options.find, confine)),
		ls: createLsTool(cwd, withConfinement(options.ls, confine)),
	};
}

/** read, bash, edit, write. */
export function createCodingTools(cwd: string, options: ToolsOptions = {}): AgentTool[] {
	const tools = createAllTools(cwd, options);
	return [tools.read, tools.bash, tools.edit, tools.write];
}

/** read, grep, find, ls. */
export function createReadOnlyTools(cwd: string, options: ToolsOptions = {}): AgentTool[] {
	const tools = createAllTools(cwd, options);
	return [tools.read, tools.grep, tools.find, tools.ls];
}
