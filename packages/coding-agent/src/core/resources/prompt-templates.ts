import { existsSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { CONFIG_DIR_NAME, getAgentDir } from "../config/paths.js";
import { readSmallTextFileSync } from "../tools/regular-file.js";
import { describeError, type ResourceDiagnostic } from "./diagnostics.js";
import { collectDirectFiles } from "./directory-scan.js";
import { normalizeLineEndings, parseFrontmatter } from "./frontmatter.js";
import { resolveInputPath } from "./input-paths.js";
import { NamedResourceCollection } from "./named-resource-collection.js";
import { collectResourceFiles } from "./resource-files.js";

/** A Markdown file the user invokes as `/name args`. */
export interface PromptTemplate {
	/** File name without `.md`. */
	name: string;
	/** Frontmatter `description` (or the first body line), followed by the source label, e.g. `Review code (user)`. */
	description: string;
	/** Body without frontmatter; trimmed only when there was a frontmatter block. */
	content: string;
	/** "user" | "project" | "path" */
	source: string;
	filePath: string;
}

export interface LoadPromptTemplatesResult {
	prompts: PromptTemplate[];
	diagnostics: ResourceDiagnostic[];
}

const DESCRIPTION_FALLBACK_LENGTH = 60;

/** `(user)`, `(project)` or `(path:<name>)`: tells the user in autocomplete where a template comes from. */
export function formatSourceLabel(source: string, originPath: string): string {
	if (source === "user" || source === "project") return `(${source})`;
	return `(path:${basename(originPath, ".md")})`;
}

function describeFromBody(body: string): string {
	const firstLine = body
		.split("\n")
		.map((line) => line.trim())
		.find((line) => line !== "");
	if (!firstLine) return "";
	return firstLine.length > DESCRIPTION_FALLBACK_LENGTH
		? `${firstLine.slice(0, DESCRIPTION_FALLBACK_LENGTH)}...`
		: firstLine;
}

/**
 * Reads one template. `originPath` is the file or directory the user named (for the `(path:…)` label).
 * A frontmatter block that does not parse is reported and the template is skipped (the reference skipped it
 * without a word, so users never learned why their template was missing).
 */
export function loadPromptTemplateFile(
	filePath: string,
	source: string,
	originPath: string = filePath,
): { template?: PromptTemplate; diagnostics: ResourceDiagnostic[] } {
	const diagnostics: ResourceDiagnostic[] = [];
	let raw: string;
	try {
		raw = readSmallTextFileSync(filePath);
	} catch (error) {
		diagnostics.push({
			type: "error",
			message: `cannot read prompt template: ${describeError(error)}`,
			path: filePath,
		});
		return { diagnostics };
	}
	const parsed = parseFrontmatter(raw);
	if (parsed.error) {
		diagnostics.push({ type: "warning", message: parsed.error.message, path: filePath });
		return { diagnostics };
	}
	const name = basename(filePath, ".md");
	if (/\s/.test(name)) {
		diagnostics.push({
			type: "warning",
			message: `template name "${name}" contains whitespace, so /${name} cannot be typed`,
			path: filePath,
		});
	}
	const content = parsed.hasFrontmatter ? parsed.body : normalizeLineEndings(raw);
	const declared = parsed.frontmatter.description;
	if (declared !== undefined && typeof declared !== "string") {
		diagnostics.push({ type: "warning", message: "description must be a string", path: filePath });
	}
	const text = typeof declared === "string" && declared.trim() !== "" ? declared.trim() : describeFromBody(content);
	const label = formatSourceLabel(source, originPath);
	const description = text ? `${text} ${label}` : label;
	return { template: { name, description, content, source, filePath }, diagnostics };
}

/** Templates gathered in priority order; the first with a name wins, later ones are reported as collisions. */
export class PromptTemplateCollection extends NamedResourceCollection<PromptTemplate> {
	constructor() {
		super("prompt");
	}

	get prompts(): PromptTemplate[] {
		return this.resources;
	}

	protected pathOf(template: PromptTemplate): string {
		return template.filePath;
	}

	protected override collisionMessage(name: string): string {
		return `name "/${name}" collision`;
	}

	addFile(filePath: string, source: string, originPath: string = filePath): void {
		this.addLoadedFile(filePath, () => {
			const { template, diagnostics } = loadPromptTemplateFile(filePath, source, originPath);
			return { resource: template, diagnostics };
		});
	}

	/** Adds the direct `*.md` files of `dir` (no recursion). A missing directory is not an error. */
	addDirectory(dir: string, source: string, originPath: string = dir): void {
		if (!existsSync(dir)) return;
		for (const file of collectDirectFiles(dir, ".md", this.diagnostics)) this.addFile(file, source, originPath);
	}

	/** Adds a path the user named (`--prompt-template`, settings): a `.md` file or a directory. */
	addExplicitPath(path: string, source: string): void {
		for (const file of collectResourceFiles("prompts", path, "explicit", this.diagnostics)) {
			this.addFile(file, source, path);
		}
	}
}

export interface LoadPromptTemplatesOptions {
	cwd?: string;
	agentDir?: string;
	homeDir?: string;
	/** Explicit files or directories (`--prompt-template`), resolved against `cwd`. */
	promptPaths?: string[];
	/** Scan `<cwd>/.agent/prompts/` and `<agentDir>/prompts/`. Default: true. */
	includeDefaults?: boolean;
}

/** Templates from the project, then the user directory, then explicit paths (settings and packages: see the loader). */
export function loadPromptTemplates(options: LoadPromptTemplatesOptions = {}): LoadPromptTemplatesResult {
	const cwd = resolve(options.cwd ?? process.cwd());
	const agentDir = options.agentDir ?? getAgentDir();
	const collection = new PromptTemplateCollection();
	if (options.includeDefaults ?? true) {
		collection.addDirectory(join(cwd, CONFIG_DIR_NAME, "prompts"), "project");
		collection.addDirectory(join(agentDir, "prompts"), "user");
	}
	for (const path of options.promptPaths ?? []) {
		collection.addExplicitPath(resolveInputPath(path, cwd, options.homeDir), "path");
	}
	return { prompts: collection.prompts, diagnostics: collection.diagnostics };
}
