// What the start-up header lists: version, context files, skills, prompt templates, extensions, the model scope.
import { APP_NAME, VERSION } from "../../config.js";
import type { AgentSession } from "../../core/agent-session.js";
import { extensionPathsToLoad } from "../../core/extensions/trust.js";
import type { StartupInfo } from "./components/startup-header.js";
import { formatKeyLabel } from "./display-state.js";

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
