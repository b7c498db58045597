/**
 * Rewrites settings written by older versions into the current shape (on a copy). Applied when a file is
 * read; the result reaches disk only when the file is next written.
 */
export function migrateLegacySettings(input: Record<string, unknown>): Record<string, unknown> {
	const settings = { ...input };

	// queueMode → steeringMode
	if ("queueMode" in settings) {
		if (!("steeringMode" in settings)) settings.steeringMode = settings.queueMode;
		delete settings.queueMode;
	}

	// websockets: boolean → transport
	if (typeof settings.websockets === "boolean") {
		if (!("transport" in settings)) settings.transport = settings.websockets ? "websocket" : "sse";
		delete settings.websockets;
	}

	// skills: {enableSkillCommands?, customDirectories?} → enableSkillCommands + skills: string[]
	const skills = settings.skills;
	if (typeof skills === "object" && skills !== null && !Array.isArray(skills)) {
		const legacy = skills as { enableSkillCommands?: unknown; customDirectories?: unknown };
		if (legacy.enableSkillCommands !== undefined && settings.enableSkillCommands === undefined) {
			settings.enableSkillCommands = legacy.enableSkillCommands;
		}
		if (Array.isArray(legacy.customDirectories) && legacy.customDirectories.length > 0) {
			settings.skills = legacy.customDirectories;
		} else {
			delete settings.skills;
		}
	}

	return settings;
}
