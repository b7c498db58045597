/** What the system prompt needs to know about a tool registered by an extension or the SDK. */
export interface CustomToolPromptInfo {
	name: string;
	description: string;
	/** One line for "Available tools"; falls back to the description. */
	promptSnippet?: string;
	/** Guideline bullets added while the tool is active. */
	promptGuidelines?: string[];
}

function collapseToOneLine(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

/**
 * The `toolSnippets` and `promptGuidelines` of `buildSystemPrompt` for the active custom tools: each tool's
 * snippet (or description) collapsed to one line — left out when empty — and its guidelines, trimmed,
 * without empty ones or repeats within the tool.
 */
export function collectCustomToolPromptInputs(customTools: readonly CustomToolPromptInfo[]): {
	toolSnippets: Record<string, string>;
	promptGuidelines: string[];
} {
	const toolSnippets: Record<string, string> = {};
	const promptGuidelines: string[] = [];
	for (const tool of customTools) {
		const snippet = collapseToOneLine(tool.promptSnippet ?? tool.description);
		if (snippet) toolSnippets[tool.name] = snippet;
		const guidelines = (tool.promptGuidelines ?? []).map((guideline) => guideline.trim()).filter(Boolean);
		promptGuidelines.push(...new Set(guidelines));
	}
	return { toolSnippets, promptGuidelines };
}
