import { createAllTools, type ToolName } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";

// Model-facing text of the tools, byte for byte as the reference words it.
const expected: Record<ToolName, { description: string; parameters: [string, string, string, boolean][] }> = {
	read: {
		description:
			"Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as attachments. For text files, output is truncated to 2000 lines or 50KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.",
		parameters: [
			["path", "string", "Path to the file to read (relative or absolute)", true],
			["offset", "number", "Line number to start reading from (1-indexed)", false],
			["limit", "number", "Maximum number of lines to read", false],
		],
	},
	bash: {
		description:
			"Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last 2000 lines or 50KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.",
		parameters: [
			["command", "string", "Bash command to execute", true],
			["timeout", "number", "Timeout in seconds (optional, no default timeout)", false],
		],
	},
	edit: {
		description:
			"Edit a file by replacing exact text. The oldText must match exactly (including whitespace). Use this for precise, surgical edits.",
		parameters: [
			["path", "string", "Path to the file to edit (relative or absolute)", true],
			["oldText", "string", "Exact text to find and replace (must match exactly)", true],
			["newText", "string", "New text to replace the old text with", true],
		],
	},
	write: {
		description:
			"Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
		parameters: [
			["path", "string", "Path to the file to write (relative or absolute)", true],
			["content", "string", "Content to write to the file", true],
		],
	},
	grep: {
		description:
			"Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to 100 matches or 50KB (whichever is hit first). Long lines are truncated to 500 chars.",
		parameters: [
			["pattern", "string", "Search pattern (regex or literal string)", true],
			["path", "string", "Directory or file to search (default: current directory)", false],
			["glob", "string", "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'", false],
			["ignoreCase", "boolean", "Case-insensitive search (default: false)", false],
			["literal", "boolean", "Treat pattern as literal string instead of regex (default: false)", false],
			["context", "number", "Number of lines to show before and after each match (default: 0)", false],
			["limit", "number", "Maximum number of matches to return (default: 100)", false],
		],
	},
	find: {
		description:
			"Search for files by glob pattern. Returns matching file paths relative to the search directory. Respects .gitignore. Output is truncated to 1000 results or 50KB (whichever is hit first).",
		parameters: [
			["pattern", "string", "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'", true],
			["path", "string", "Directory to search in (default: current directory)", false],
			["limit", "number", "Maximum number of results (default: 1000)", false],
		],
	},
	ls: {
		description:
			"List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. Includes dotfiles. Output is truncated to 500 entries or 50KB (whichever is hit first).",
		parameters: [
			["path", "string", "Directory to list (default: current directory)", false],
			["limit", "number", "Maximum number of entries to return (default: 500)", false],
		],
	},
};

interface JsonSchemaObject {
	type: string;
	properties: Record<string, { type: string; description: string }>;
	required?: string[];
}

describe("tool definitions match the reference's wording byte for byte", () => {
	const tools = createAllTools(process.cwd());
	for (const [name, spec] of Object.entries(expected) as [ToolName, (typeof expected)[ToolName]][]) {
		it(`${name}: description, parameter order, types, descriptions and required fields`, () => {
			const tool = tools[name];
			expect(tool.description).toBe(spec.description);
			const schema = tool.parameters as unknown as JsonSchemaObject;
			expect(schema.type).toBe("object");
			expect(Object.keys(schema.properties)).toEqual(spec.parameters.map(([field]) => field));
			for (const [field, type, description] of spec.parameters) {
				expect(schema.properties[field]).toMatchObject({ type, description });
			}
			expect(schema.required ?? []).toEqual(
				spec.parameters.filter(([, , , required]) => required).map(([field]) => field),
			);
		});
	}
});
