// The renderer for a tool name.
import { bashToolRenderer } from "./bash.js";
import { editToolRenderer } from "./edit.js";
import { genericToolRenderer } from "./generic.js";
import { readToolRenderer } from "./read.js";
import { findToolRenderer, grepToolRenderer, lsToolRenderer } from "./search.js";
import type { ToolRenderer } from "./types.js";
import { writeToolRenderer } from "./write.js";

const RENDERERS: Record<string, ToolRenderer> = {
	bash: bashToolRenderer,
	read: readToolRenderer,
	edit: editToolRenderer,
	write: writeToolRenderer,
	grep: grepToolRenderer,
	find: findToolRenderer,
	ls: lsToolRenderer,
};

export function getToolRenderer(toolName: string): ToolRenderer {
	return RENDERERS[toolName] ?? genericToolRenderer;
}

export type { ToolRenderContext, ToolRenderer, ToolView } from "./types.js";
