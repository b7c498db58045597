import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { CONFIG_DIR_NAME, getAgentDir } from "../config/paths.js";
import { readSmallTextFileSync } from "../tools/regular-file.js";
import { describeError, type ResourceDiagnostic } from "./diagnostics.js";
import { collectSkillFiles, type SkillScanMode } from "./directory-scan.js";
import { parseFrontmatter } from "./frontmatter.js";
import { resolveInputPath } from "./input-paths.js";
import { NamedResourceCollection } from "./named-resource-collection.js";
import { collectResourceFiles } from "./resource-files.js";
import { validateSkillDescription, validateSkillName } from "./skill-validation.js";

/** A skill: a Markdown file whose name and description are advertised to the model (Agent Skills standard). */
export interface Skill {
	name: string;
	description: string;
	filePath: string;
	/** Directory that relative references in the skill file resolve against (`dirname(filePath)`). */
	baseDir: string;
	/** "user" | "project" | "path" | "extension:<name>" | … */
	source: string;
	/** Hidden from the system prompt; only `/skill:name` can use it. */
	disableModelInvocation: boolean;
}

/**
 * The frontmatter fields a skill file may set; other fields are kept and ignored. Values of the wrong type are
 * reported as diagnostics when the skill loads (`loadSkillFromFile`), so the YAML is read as `unknown` first.
 */
export interface SkillFrontmatter {
	name?: string;
	description?: string;
	"disable-model-invocation"?: boolean;
	[key: string]: unknown;
}

export interface LoadSkillsResult {
	skills: Skill[];
	diagnostics: ResourceDiagnostic[];
}

export const SKILL_FILE_NAME = "SKILL.md";

/** Reads and validates one skill file. Problems come back as diagnostics; `skill` is absent when it can't load. */
export function loadSkillFromFile(
	filePath: string,
	source: string,
): { skill?: Skill; diagnostics: ResourceDiagnostic[] } {
	const diagnostics: ResourceDiagnostic[] = [];
	const warn = (message: string) => diagnostics.push({ type: "warning", message, path: filePath });
	let content: string;
	try {
		content = readSmallTextFileSync(filePath);
	} catch (error) {
		diagnostics.push({ type: "error", message: `cannot read skill file: ${describeError(error)}`, path: filePath });
		return { diagnostics };
	}
	const { frontmatter, error } = parseFrontmatter(content);
	if (error) {
		warn(error.message);
		return { diagnostics };
	}

	const description = frontmatter.description;
	let isLoadable: boolean;
	if (description !== undefined && typeof description !== "string") {
		warn("description must be a string");
		isLoadable = false;
	} else {
		const checked = validateSkillDescription(description);
		checked.problems.forEach(warn);
		isLoadable = checked.isLoadable;
	}

	const baseDir = dirname(filePath);
	// The standard names a skill after its directory (`my-skill/SKILL.md`). For a loose `review.md` the
	// reference fell back to the *parent* directory's name (e.g. "skills") and warned about every such file;
	// ours uses the file's own name.
	const isSkillFile = basename(filePath) === SKILL_FILE_NAME;
	const expectedName = isSkillFile ? basename(baseDir) : basename(filePath, ".md");
	let name = expectedName;
	if (typeof frontmatter.name === "string" && frontmatter.name !== "") {
		name = frontmatter.name;
	} else if (frontmatter.name !== undefined && frontmatter.name !== null && frontmatter.name !== "") {
		warn("name must be a string");
	}
	validateSkillName(name, expectedName, isSkillFile ? "directory" : "file").forEach(warn);

	const disableModelInvocation = frontmatter["disable-model-invocation"];
	if (disableModelInvocation !== undefined && typeof disableModelInvocation !== "boolean") {
		warn("disable-model-invocation must be true or false");
	}

	if (!isLoadable || typeof description !== "string") return { diagnostics };
	return {
		skill: { name, description, filePath, baseDir, source, disableModelInvocation: disableModelInvocation === true },
		diagnostics,
	};
}

/** Skills gathered from several sources in priority order: the first skill with a name wins. */
export class SkillCollection extends NamedResourceCollection<Skill> {
	constructor() {
		super("skill");
	}

	get skills(): Skill[] {
		return this.resources;
	}

	protected pathOf(skill: Skill): string {
		return skill.filePath;
	}

	addFile(filePath: string, source: string): void {
		this.addLoadedFile(filePath, () => {
			const { skill, diagnostics } = loadSkillFromFile(filePath, source);
			return { resource: skill, diagnostics };
		});
	}

	/** Adds the skills of a directory scanned with `mode`. A missing directory is not an error. */
	addDirectory(dir: string, source: string, mode: SkillScanMode): void {
		if (!existsSync(dir)) return;
		for (const file of collectSkillFiles(dir, mode, this.diagnostics)) this.addFile(file, source);
	}

	/** Adds a path the user named (`--skill`, SDK): a skill file, or a directory scanned in `explicit` mode. */
	addExplicitPath(path: string, source: string): void {
		for (const file of collectResourceFiles("skills", path, "explicit", this.diagnostics)) this.addFile(file, source);
	}
}

export interface LoadSkillsFromDirOptions {
	dir: string;
	source: string;
}

/** Loads the skills of one directory the way `--skill <dir>` does (a directory with SKILL.md is one skill). */
export function loadSkillsFromDir(options: LoadSkillsFromDirOptions): LoadSkillsResult {
	const collection = new SkillCollection();
	collection.addDirectory(options.dir, options.source, "explicit");
	return { skills: collection.skills, diagnostics: collection.diagnostics };
}

/** The directories from `cwd` up to the git repository root (the first holding `.git`), or to `/` outside a repo. */
export function findAncestorsUpToGitRoot(cwd: string): string[] {
	const directories: string[] = [];
	let current = resolve(cwd);
	while (true) {
		directories.push(current);
		if (existsSync(join(current, ".git"))) return directories;
		const parent = dirname(current);
		if (parent === current) break;
		current = parent;
	}
	// Not inside a repository: every ancestor up to the file-system root counts.
	return directories;
}

/**
 * The auto-discovered skill directories of the project scope, in priority order. `~/.agents/skills` belongs to
 * the user scope even when the home directory is an ancestor of the cwd.
 */
export function getProjectSkillDirs(cwd: string, homeDir: string = homedir()): string[] {
	const userAgentsDir = join(homeDir, ".agents", "skills");
	return [
		join(resolve(cwd), CONFIG_DIR_NAME, "skills"),
		...findAncestorsUpToGitRoot(cwd)
			.map((dir) => join(dir, ".agents", "skills"))
			.filter((dir) => dir !== userAgentsDir),
	];
}

/** The auto-discovered skill directories of the user scope, in priority order. */
export function getUserSkillDirs(agentDir: string, homeDir: string = homedir()): string[] {
	return [join(agentDir, "skills"), join(homeDir, ".agents", "skills")];
}

export interface LoadSkillsOptions {
	/** Default: `process.cwd()`. */
	cwd?: string;
	/** Default: `getAgentDir()`. */
	agentDir?: string;
	/** Where `~/.agents/skills` and `~` in paths point. Default: the user's home directory. */
	homeDir?: string;
	/** Explicit skill files or directories (`--skill`), resolved against `cwd`. */
	skillPaths?: string[];
	/** Scan the project and user skill directories. Default: true. */
	includeDefaults?: boolean;
}

/**
 * Skills from the standard locations — project (`.agent/skills/`, `.agents/skills/` up to the git root), then
 * user (`~/.agent/skills/`, `~/.agents/skills/`) — then the explicit paths. Settings and packages are added by
 * the `DefaultResourceLoader`.
 */
export function loadSkills(options: LoadSkillsOptions = {}): LoadSkillsResult {
	const cwd = resolve(options.cwd ?? process.cwd());
	const agentDir = options.agentDir ?? getAgentDir();
	const homeDir = options.homeDir ?? homedir();
	const collection = new SkillCollection();
	if (options.includeDefaults ?? true) {
		for (const dir of getProjectSkillDirs(cwd, homeDir)) collection.addDirectory(dir, "project", "resource");
		for (const dir of getUserSkillDirs(agentDir, homeDir)) collection.addDirectory(dir, "user", "resource");
	}
	for (const path of options.skillPaths ?? []) {
		collection.addExplicitPath(resolveInputPath(path, cwd, homeDir), "path");
	}
	return { skills: collection.skills, diagnostics: collection.diagnostics };
}
