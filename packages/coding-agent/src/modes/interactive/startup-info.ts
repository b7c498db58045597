// What the start-up header lists (version, context files, skills, prompt templates, extensions, the model scope)
// and the notices start-up shows under it.
import { join } from "node:path";
import { APP_NAME, VERSION } from "../../config.js";
import type { AgentSession } from "../../core/agent-session.js";
import { extensionPathsToLoad } from "../../core/extensions/trust.js";
import { getDocsPath } from "../../core/resources/package-docs.js";
import type { StartupInfo } from "./components/startup-header.js";
import { formatKeyLabel } from "./display-state.js";
import type { InteractiveModeOptions, NoticeLevel } from "./mode-host.js";
import type { ThemeRegistry } from "./theme/theme-registry.js";

/** The header's facts about `session`; `cycleKey` is the key that cycles the scoped models, when bound. */
export function startupInfoOf(
	session: AgentSession,
	cycleKey: string | undefined,
	isFullscreen: () => boolean,
): StartupInfo {
	const loader = session.resourceLoader;
	const scoped = session.scopedModels;
	const modelScope =
		scoped.length > 0
			? `Model scope: ${scoped.map((entry) => `${entry.model.id}${entry.thinkingLevel ? `:${entry.thinkingLevel}` : ""}`).join(", ")}${cycleKey ? ` (${formatKeyLabel(cycleKey)} to cycle)` : ""}`
			: undefined;
	return {
		appName: APP_NAME,
		version: VERSION,
		contextFiles: loader.getContextFiles().contextFiles.map((file) => file.path),
		skills: loader.getSkills().skills.map((skill) => skill.name),
		promptTemplates: loader.getPrompts().prompts.map((prompt) => `/${prompt.name}`),
		// What loaded: an untrusted project's own extensions are named by the trust notice instead.
		extensions: extensionPathsToLoad(
			loader.getExtensionPaths().extensions,
			session.settingsManager.isProjectTrusted(),
		),
		...(modelScope ? { modelScope } : {}),
		isFullscreen,
	};
}

/** After the warnings of start-up and the models.json error: theme issues, the model fallback, no model at all. */
export function startupNotices(
	session: AgentSession,
	themes: ThemeRegistry,
	options: InteractiveModeOptions,
): { level: NoticeLevel; text: string }[] {
	const notices: { level: NoticeLevel; text: string }[] = themes.issues.map((issue) => ({
		level: issue.severity,
		text: `Theme: ${issue.message}`,
	}));
	if (options.modelFallbackMessage) notices.push({ level: "warning", text: options.modelFallbackMessage });
	if (!session.model) {
		notices.push({
			level: "warning",
			text: `No models available. Use /login or set an API key environment variable. See ${join(getDocsPath(), "providers.md")}. Then use /model to select a model.`,
		});
	}
	return notices;
}
