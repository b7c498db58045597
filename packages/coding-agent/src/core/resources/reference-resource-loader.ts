// Resource loaders written against the reference's `ResourceLoader` interface (SDK programs build one as an
// object literal: `getExtensions`, `getAgentsFiles`, `getPathMetadata`, …) work with `createAgentSession`:
// this adapter gives them our interface. Their `getExtensions()` result is used as the session's extensions.
import type { LoadExtensionsResult } from "../extensions/loader.js";
import type { ContextFile } from "./context-files.js";
import type { ResourceDiagnostic } from "./diagnostics.js";
import type { PromptTemplate } from "./prompt-templates.js";
import type { ReferencePathEntry, ResourceExtensionPaths, ResourceLoader } from "./resource-loader.js";
import type { Skill } from "./skills.js";

/** The reference's resource loader interface (pi-mono v0.58.3). */
export interface ReferenceResourceLoader {
	getExtensions(): LoadExtensionsResult;
	getSkills(): { skills: Skill[]; diagnostics: ResourceDiagnostic[] };
	getPrompts(): { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] };
	getThemes(): { themes: unknown[]; diagnostics: ResourceDiagnostic[] };
	getAgentsFiles(): { agentsFiles: ContextFile[] };
	getSystemPrompt(): string | undefined;
	getAppendSystemPrompt(): string[];
	getPathMetadata(): Map<string, unknown>;
	extendResources(paths: {
		skillPaths?: ReferencePathEntry[];
		promptPaths?: ReferencePathEntry[];
		themePaths?: ReferencePathEntry[];
	}): void;
	reload(): Promise<void>;
}

export function isReferenceResourceLoader(
	loader: ResourceLoader | ReferenceResourceLoader,
): loader is ReferenceResourceLoader {
	return typeof (loader as Partial<ResourceLoader>).getExtensionPaths !== "function";
}

/** Our interface over a reference-style loader (no discovered extension paths: its extensions come loaded). */
export function adaptReferenceResourceLoader(loader: ReferenceResourceLoader): ResourceLoader & {
	getExtensions(): LoadExtensionsResult;
} {
	const entries = (paths: (string | ReferencePathEntry)[] | undefined): ReferencePathEntry[] | undefined =>
		paths?.map((entry) =>
			typeof entry === "string"
				? { path: entry, metadata: { source: "extension", scope: "temporary", origin: "top-level" } }
				: entry,
		);
	return {
		getExtensions: () => loader.getExtensions(),
		getSkills: () => loader.getSkills(),
		getPrompts: () => loader.getPrompts(),
		// Its themes are the reference's Theme objects, which our theme registry cannot read.
		getThemes: () => ({ themes: [], diagnostics: loader.getThemes().diagnostics }),
		getExtensionPaths: () => ({ extensions: [], diagnostics: [] }),
		getContextFiles: () => ({ contextFiles: loader.getAgentsFiles().agentsFiles, diagnostics: [] }),
		getSystemPrompt: () => loader.getSystemPrompt(),
		getAppendSystemPrompt: () => loader.getAppendSystemPrompt(),
		getDiagnostics: () => [...loader.getSkills().diagnostics, ...loader.getPrompts().diagnostics],
		extendResources: (paths: ResourceExtensionPaths) => {
			const skillPaths = entries(paths.skillPaths);
			const promptPaths = entries(paths.promptPaths);
			const themePaths = entries(paths.themePaths);
			loader.extendResources({
				...(skillPaths ? { skillPaths } : {}),
				...(promptPaths ? { promptPaths } : {}),
				...(themePaths ? { themePaths } : {}),
			});
		},
		reload: () => loader.reload(),
	};
}
