// Public API of core/resources (re-exported by the package index).
export {
	CONTEXT_FILE_NAMES,
	type ContextFile,
	type LoadContextFilesOptions,
	loadContextFiles,
	loadProjectContextFiles,
} from "./context-files.js";
export type { ResourceCollision, ResourceDiagnostic, ResourceKind } from "./diagnostics.js";
export { type FrontmatterError, type ParsedFrontmatter, parseFrontmatter, stripFrontmatter } from "./frontmatter.js";
export { getDocsPath, getExamplesPath, getPackageRoot, getReadmePath } from "./package-docs.js";
export { type PackageManifest, type ResourceType, readPackageManifest } from "./package-manifest.js";
export {
	createDefaultPackageLocator,
	type PackageLocator,
	type PackageScope,
	type ParsedPackageSource,
	parsePackageSource,
} from "./package-sources.js";
export { type FileOutsideProject, findProjectRoot, ProjectBoundary } from "./project-boundary.js";
export { expandPromptTemplate, parseCommandArgs, substituteArgs } from "./prompt-template-expansion.js";
export {
	type LoadPromptTemplatesOptions,
	type LoadPromptTemplatesResult,
	loadPromptTemplateFile,
	loadPromptTemplates,
	type PromptTemplate,
	PromptTemplateCollection,
} from "./prompt-templates.js";
export {
	adaptReferenceResourceLoader,
	isReferenceResourceLoader,
	// The public name is the reference's interface, so programs written for it type-check unchanged; ours (which
	// discovers extension paths instead of handing over loaded extensions) is `AgentResourceLoader`.
	type ReferenceResourceLoader as ResourceLoader,
} from "./reference-resource-loader.js";
export {
	DefaultResourceLoader,
	type DefaultResourceLoaderOptions,
	type ExtensionPath,
	type ReferencePathEntry,
	type ResourceExtensionPaths,
	type ResourceLoader as AgentResourceLoader,
} from "./resource-loader.js";
export {
	expandSkillCommand,
	formatSkillBlock,
	formatSkillsForPrompt,
	type ParsedSkillBlock,
	parseSkillBlock,
	SKILL_BLOCK_PATTERN,
	SKILL_COMMAND_PREFIX,
	type SkillExpansion,
} from "./skill-prompt.js";
export { MAX_SKILL_DESCRIPTION_LENGTH, MAX_SKILL_NAME_LENGTH } from "./skill-validation.js";
export {
	type LoadSkillsFromDirOptions,
	type LoadSkillsOptions,
	type LoadSkillsResult,
	loadSkillFromFile,
	loadSkills,
	loadSkillsFromDir,
	type Skill,
	SkillCollection,
	type SkillFrontmatter,
} from "./skills.js";
export {
	BUILTIN_TOOL_SNIPPETS,
	type BuildSystemPromptOptions,
	buildSystemPrompt,
	DEFAULT_PROMPT_TOOLS,
	type DocumentationPaths,
} from "./system-prompt.js";
export {
	APPEND_SYSTEM_PROMPT_FILE_NAME,
	resolveSystemPromptSources,
	SYSTEM_PROMPT_FILE_NAME,
	type SystemPromptSourceOptions,
	type SystemPromptSources,
} from "./system-prompt-sources.js";
export { loadThemeFile, ThemeCollection, type ThemeResource } from "./themes.js";
export { type CustomToolPromptInfo, collectCustomToolPromptInputs } from "./tool-prompt-inputs.js";
