import { homedir } from "node:os";
import { dirname, resolve } from "node:path";
import { getAgentDir } from "../config/paths.js";
import { SettingsManager } from "../config/settings-manager.js";
import type { LoadExtensionsResult } from "../extensions/loader.js";
import { ExtensionRuntime } from "../extensions/runtime.js";
import type { EventBus, ExtensionFactory } from "../extensions/types.js";
import { type ContextFile, loadContextFiles } from "./context-files.js";
import type { ResourceDiagnostic } from "./diagnostics.js";
import { prepareFrontmatterParsing } from "./frontmatter.js";
import { createDefaultPackageLocator, type PackageLocator } from "./package-sources.js";
import { realPathOf } from "./path-probes.js";
import { type FileOutsideProject, ProjectBoundary } from "./project-boundary.js";
import { type PromptTemplate, PromptTemplateCollection } from "./prompt-templates.js";
import { collectResourceFiles, type ResourceFile } from "./resource-files.js";
import { gatherResourceFiles, type ResourceFiles } from "./resource-sources.js";
import { type Skill, SkillCollection } from "./skills.js";
import { resolveSystemPromptSources } from "./system-prompt-sources.js";
import { ThemeCollection, type ThemeResource } from "./themes.js";

/** An extension module to load, and where it was found ("user", "project" or "path"). */
export interface ExtensionPath {
	path: string;
	source: string;
	/** Whose configuration contributed it (`-e` is "temporary"); project extensions need a trusted project. */
	scope?: "user" | "project" | "temporary";
}

/** Paths contributed at runtime, e.g. by extensions' `resources_discover` handlers. */
/** A path the reference's `extendResources` takes, with where it came from. */
export interface ReferencePathEntry {
	path: string;
	metadata: { source: string; scope: string; origin: "package" | "top-level"; baseDir?: string };
}

/** Paths of skills, prompt templates and themes to add: plain paths, or entries that say where they came from. */
export interface ResourceExtensionPaths {
	skillPaths?: (string | ReferencePathEntry)[];
	promptPaths?: (string | ReferencePathEntry)[];
	themePaths?: (string | ReferencePathEntry)[];
}

/** Everything that shapes what the model is told, gathered from all sources, with problems to show. */
export interface ResourceLoader {
	getSkills(): { skills: Skill[]; diagnostics: ResourceDiagnostic[] };
	getPrompts(): { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] };
	getThemes(): { themes: ThemeResource[]; diagnostics: ResourceDiagnostic[] };
	/** Discovery only: loading and running the modules is the extension runner's job. */
	getExtensionPaths(): { extensions: ExtensionPath[]; diagnostics: ResourceDiagnostic[] };
	getContextFiles(): { contextFiles: ContextFile[]; diagnostics: ResourceDiagnostic[] };
	/** SYSTEM.md or `--system-prompt`; undefined means the default prompt. */
	getSystemPrompt(): string | undefined;
	/** APPEND_SYSTEM.md or `--append-system-prompt`; joined with a blank line by the session. */
	getAppendSystemPrompt(): string[];
	/** Every diagnostic of the last load, for a startup summary. */
	getDiagnostics(): ResourceDiagnostic[];
	/**
	 * Ours: context and prompt files of an untrusted project that lead out of it (symbolic links, or paths its
	 * settings name), left out of the last load; the project-trust notice names them. Optional for other loaders.
	 */
	getFilesOutsideUntrustedProject?(): FileOutsideProject[];
	/** Adds skills, templates and themes found at runtime (kept until the next `reload()`). */
	extendResources(paths: ResourceExtensionPaths, source?: string): void;
	reload(): Promise<void>;
}

export interface DefaultResourceLoaderOptions {
	cwd?: string;
	agentDir?: string;
	/** Where `~` and `~/.agents/skills` point. Default: the user's home directory. */
	homeDir?: string;
	settingsManager?: SettingsManager;
	/** `-e` / `--extension`: files, directories or package sources. */
	additionalExtensionPaths?: string[];
	/** `--skill` */
	additionalSkillPaths?: string[];
	/** `--prompt-template` */
	additionalPromptTemplatePaths?: string[];
	/** `--theme` */
	additionalThemePaths?: string[];
	noExtensions?: boolean;
	noSkills?: boolean;
	noPromptTemplates?: boolean;
	noThemes?: boolean;
	/** `--system-prompt` (text or file). */
	systemPrompt?: string;
	/** `--append-system-prompt` (text or file). */
	appendSystemPrompt?: string;
	/** Finds installed packages; default: the conventional install locations. */
	locatePackage?: PackageLocator;
	/** Extensions given as code, loaded after the discovered ones as `<inline:1>`, `<inline:2>`, … */
	extensionFactories?: ExtensionFactory[];
	/** The `pi.events` bus the session's extensions share (the embedder can listen and emit on it too). */
	eventBus?: EventBus;
	/** Rewrites what the session's extensions loaded to (applied when the session loads them). */
	extensionsOverride?: (base: LoadExtensionsResult) => LoadExtensionsResult;
	skillsOverride?: (base: { skills: Skill[]; diagnostics: ResourceDiagnostic[] }) => {
		skills: Skill[];
		diagnostics: ResourceDiagnostic[];
	};
	promptsOverride?: (base: { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] }) => {
		prompts: PromptTemplate[];
		diagnostics: ResourceDiagnostic[];
	};
	themesOverride?: (base: { themes: ThemeResource[]; diagnostics: ResourceDiagnostic[] }) => {
		themes: ThemeResource[];
		diagnostics: ResourceDiagnostic[];
	};
	/** Rewrites the context files (AGENTS.md, CLAUDE.md) put into the system prompt. */
	agentsFilesOverride?: (base: { agentsFiles: ContextFile[] }) => { agentsFiles: ContextFile[] };
	/** Rewrites the custom system prompt (undefined: the default prompt). */
	systemPromptOverride?: (base: string | undefined) => string | undefined;
	appendSystemPromptOverride?: (base: string[]) => string[];
}

interface RuntimePaths {
	skills: ResourceFile[];
	prompts: ResourceFile[];
	themes: ResourceFile[];
	diagnostics: ResourceDiagnostic[];
}

export class DefaultResourceLoader implements ResourceLoader {
	private readonly cwd: string;
	private readonly agentDir: string;
	private readonly homeDir: string;
	private readonly settingsManager: SettingsManager;
	private readonly locatePackage: PackageLocator;

	private files: ResourceFiles = { extensions: [], skills: [], prompts: [], themes: [] };
	private runtime: RuntimePaths = { skills: [], prompts: [], themes: [], diagnostics: [] };
	private baseDiagnostics: Record<"extensions" | "skills" | "prompts" | "themes" | "packages", ResourceDiagnostic[]> =
		{
			extensions: [],
			skills: [],
			prompts: [],
			themes: [],
			packages: [],
		};
	private skillCollection = new SkillCollection();
	private promptCollection = new PromptTemplateCollection();
	private themeCollection = new ThemeCollection();
	private extensions: ExtensionPath[] = [];
	private contextFiles: ContextFile[] = [];
	private contextDiagnostics: ResourceDiagnostic[] = [];
	private systemPrompt: string | undefined;
	private appendSystemPrompt: string[] = [];
	private systemPromptDiagnostics: ResourceDiagnostic[] = [];
	private filesOutsideProject: FileOutsideProject[] = [];
	private loadedExtensions: LoadExtensionsResult | undefined;

	constructor(private readonly options: DefaultResourceLoaderOptions = {}) {
		this.cwd = resolve(options.cwd ?? process.cwd());
		this.agentDir = options.agentDir ?? getAgentDir();
		this.homeDir = options.homeDir ?? homedir();
		this.settingsManager = options.settingsManager ?? SettingsManager.create(this.cwd, this.agentDir);
		this.locatePackage =
			options.locatePackage ??
			createDefaultPackageLocator({ cwd: this.cwd, agentDir: this.agentDir, homeDir: this.homeDir });
	}

	async reload(): Promise<void> {
		const gathered = gatherResourceFiles({
			cwd: this.cwd,
			agentDir: this.agentDir,
			homeDir: this.homeDir,
			globalSettings: this.settingsManager.getGlobalSettings(),
			projectSettings: this.settingsManager.getProjectSettings(),
			locatePackage: this.locatePackage,
			cliExtensionSources: this.options.additionalExtensionPaths ?? [],
			cliPaths: {
				skills: this.options.additionalSkillPaths ?? [],
				prompts: this.options.additionalPromptTemplatePaths ?? [],
				themes: this.options.additionalThemePaths ?? [],
			},
			disabledDiscovery: {
				extensions: this.options.noExtensions,
				skills: this.options.noSkills,
				prompts: this.options.noPromptTemplates,
				themes: this.options.noThemes,
			},
		});
		// Skill and prompt files may have YAML frontmatter: the parser loads as one chunk rather than on first parse.
		// Awaited before any state changes, so the loader is never seen half reloaded.
		if (gathered.files.skills.length > 0 || gathered.files.prompts.length > 0) await prepareFrontmatterParsing();
		// An untrusted project's files are read only from inside it (project-boundary.ts).
		const boundary = this.settingsManager.isProjectTrusted() ? undefined : new ProjectBoundary(this.cwd);
		this.filesOutsideProject = [];
		const staysInside = (path: string): boolean => {
			const target = boundary?.outsideTarget(path);
			if (target === undefined) return true;
			this.filesOutsideProject.push({ path, target });
			return false;
		};
		const projectFilesInside = (files: ResourceFile[]) =>
			files.filter((file) => file.scope !== "project" || staysInside(file.path));
		this.files = {
			...gathered.files,
			skills: projectFilesInside(gathered.files.skills),
			prompts: projectFilesInside(gathered.files.prompts),
		};
		this.baseDiagnostics = { ...gathered.diagnostics, packages: gathered.packageDiagnostics };
		this.runtime = { skills: [], prompts: [], themes: [], diagnostics: [] };

		const seenExtensions = new Set<string>();
		this.extensions = [];
		for (const file of this.files.extensions) {
			const key = realPathOf(file.path);
			if (seenExtensions.has(key)) continue;
			seenExtensions.add(key);
			this.extensions.push({ path: file.path, source: file.source, ...(file.scope ? { scope: file.scope } : {}) });
		}

		this.rebuildCollections();

		const context = loadContextFiles({
			cwd: this.cwd,
			agentDir: this.agentDir,
			maxBytes: this.settingsManager.getLimits().contextFileBytes,
		});
		// Kept apart from context-files.ts: the files of the project's tree (not the user's, not the ancestors above
		// the project) that lead out of it are dropped before anything uses them.
		const userDir = resolve(this.agentDir);
		this.contextFiles = context.files.filter(
			(file) => !boundary?.contains(file.path) || dirname(file.path) === userDir || staysInside(file.path),
		);
		this.contextDiagnostics = context.diagnostics;

		const prompts = resolveSystemPromptSources({
			cwd: this.cwd,
			agentDir: this.agentDir,
			systemPrompt: this.options.systemPrompt,
			appendSystemPrompt: this.options.appendSystemPrompt,
			...(boundary ? { mayReadProjectFile: staysInside } : {}),
		});
		this.systemPrompt = prompts.customPrompt;
		this.appendSystemPrompt = prompts.appendSystemPrompt;
		this.systemPromptDiagnostics = prompts.diagnostics;
	}

	extendResources(paths: ResourceExtensionPaths, source = "extension"): void {
		const collect = (type: "skills" | "prompts" | "themes", list: (string | ReferencePathEntry)[] | undefined) => {
			for (const entry of list ?? []) {
				const resolved = resolve(this.cwd, typeof entry === "string" ? entry : entry.path);
				const from = typeof entry === "string" ? source : entry.metadata.source;
				for (const file of collectResourceFiles(type, resolved, "explicit", this.runtime.diagnostics)) {
					this.runtime[type].push({ path: file, source: from, originPath: resolved });
				}
			}
		};
		collect("skills", paths.skillPaths);
		collect("prompts", paths.promptPaths);
		collect("themes", paths.themePaths);
		this.rebuildCollections();
	}

	getSkills(): { skills: Skill[]; diagnostics: ResourceDiagnostic[] } {
		const base = {
			skills: this.skillCollection.skills,
			diagnostics: [...this.baseDiagnostics.skills, ...this.skillCollection.diagnostics],
		};
		return this.options.skillsOverride ? this.options.skillsOverride(base) : base;
	}

	getPrompts(): { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] } {
		const base = {
			prompts: this.promptCollection.prompts,
			diagnostics: [...this.baseDiagnostics.prompts, ...this.promptCollection.diagnostics],
		};
		return this.options.promptsOverride ? this.options.promptsOverride(base) : base;
	}

	getThemes(): { themes: ThemeResource[]; diagnostics: ResourceDiagnostic[] } {
		const base = {
			themes: this.themeCollection.themes,
			diagnostics: [...this.baseDiagnostics.themes, ...this.themeCollection.diagnostics],
		};
		return this.options.themesOverride ? this.options.themesOverride(base) : base;
	}

	/** The reference's name for the context files: `{path, content}` of each AGENTS.md / CLAUDE.md. */
	getAgentsFiles(): { agentsFiles: ContextFile[] } {
		return { agentsFiles: this.getContextFiles().contextFiles };
	}

	getExtensionFactories(): ExtensionFactory[] {
		return [...(this.options.extensionFactories ?? [])];
	}

	getEventBus(): EventBus | undefined {
		return this.options.eventBus;
	}

	getExtensionsOverride(): ((base: LoadExtensionsResult) => LoadExtensionsResult) | undefined {
		return this.options.extensionsOverride;
	}

	/**
	 * What the session loaded from this loader's extensions (the reference loads them in `reload()`; ours loads
	 * extension code only once the session has the project trust decision). Empty before a session loaded them.
	 */
	getExtensions(): LoadExtensionsResult {
		return this.loadedExtensions ?? { extensions: [], errors: [], runtime: new ExtensionRuntime({ cwd: this.cwd }) };
	}

	/** Called by the session with what it loaded (see `getExtensions`). */
	setLoadedExtensions(result: LoadExtensionsResult): void {
		this.loadedExtensions = result;
	}

	/** Where each resource came from, by path (the reference's package metadata; ours: its source label). */
	getPathMetadata(): Map<string, { source: string; scope: string; origin: "package" | "top-level" }> {
		const metadata = new Map<string, { source: string; scope: string; origin: "package" | "top-level" }>();
		const add = (path: string, source: string) =>
			metadata.set(path, {
				source,
				scope: source === "project" ? "project" : source === "user" ? "user" : "temporary",
				origin: source.startsWith("package") ? "package" : "top-level",
			});
		for (const file of [...this.files.skills, ...this.files.prompts, ...this.files.themes])
			add(file.path, file.source);
		for (const extension of this.extensions) add(extension.path, extension.source);
		return metadata;
	}

	getExtensionPaths(): { extensions: ExtensionPath[]; diagnostics: ResourceDiagnostic[] } {
		return { extensions: [...this.extensions], diagnostics: [...this.baseDiagnostics.extensions] };
	}

	getContextFiles(): { contextFiles: ContextFile[]; diagnostics: ResourceDiagnostic[] } {
		const contextFiles = this.options.agentsFilesOverride
			? this.options.agentsFilesOverride({ agentsFiles: [...this.contextFiles] }).agentsFiles
			: [...this.contextFiles];
		return { contextFiles, diagnostics: [...this.contextDiagnostics] };
	}

	getSystemPrompt(): string | undefined {
		return this.options.systemPromptOverride
			? this.options.systemPromptOverride(this.systemPrompt)
			: this.systemPrompt;
	}

	getAppendSystemPrompt(): string[] {
		const base = [...this.appendSystemPrompt];
		return this.options.appendSystemPromptOverride ? this.options.appendSystemPromptOverride(base) : base;
	}

	getFilesOutsideUntrustedProject(): FileOutsideProject[] {
		return [...this.filesOutsideProject];
	}

	getDiagnostics(): ResourceDiagnostic[] {
		return [
			...this.baseDiagnostics.packages,
			...this.getExtensionPaths().diagnostics,
			...this.getSkills().diagnostics,
			...this.getPrompts().diagnostics,
			...this.getThemes().diagnostics,
			...this.runtime.diagnostics,
			...this.contextDiagnostics,
			...this.systemPromptDiagnostics,
		];
	}

	private rebuildCollections(): void {
		this.skillCollection = new SkillCollection();
		for (const file of [...this.files.skills, ...this.runtime.skills])
			this.skillCollection.addFile(file.path, file.source);
		this.promptCollection = new PromptTemplateCollection();
		for (const file of [...this.files.prompts, ...this.runtime.prompts]) {
			this.promptCollection.addFile(file.path, file.source, file.originPath);
		}
		this.themeCollection = new ThemeCollection();
		for (const file of [...this.files.themes, ...this.runtime.themes])
			this.themeCollection.addFile(file.path, file.source);
	}
}
