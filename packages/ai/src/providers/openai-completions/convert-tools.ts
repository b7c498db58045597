import type { Tool } from "../../types.js";
import type { ResolvedCompletionsCompat } from "./compat.js";
import type { WireTool } from "./wire-types.js";

/** Function tools; `strict: false` is stated explicitly where the server understands it. */
export function convertCompletionsTools(tools: readonly Tool[], compat: ResolvedCompletionsCompat): WireTool[] {
	return tools.map((tool) => ({
		type: "function",
		function: {
			name: tool.name,
			description: tool.description,
			parameters: tool.parameters,
			...(compat.supportsStrictMode ? { strict: false } : {}),
		},
	}));
}
