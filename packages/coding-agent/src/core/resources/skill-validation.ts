// Validation of skill frontmatter after the Agent Skills standard (agentskills.io), applied leniently:
// only a missing description keeps a skill from loading; everything else is a warning.

export const MAX_SKILL_NAME_LENGTH = 64;
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;

/** Problems with a skill's name; `expectedName` is the name of the directory (or file) the skill lives in. */
export function validateSkillName(name: string, expectedName: string, expectedFrom: "directory" | "file"): string[] {
	const problems: string[] = [];
	if (name !== expectedName) {
		problems.push(
			expectedFrom === "directory"
				? `name "${name}" does not match parent directory "${expectedName}"`
				: `name "${name}" does not match file name "${expectedName}"`,
		);
	}
	if (name.length > MAX_SKILL_NAME_LENGTH) {
		problems.push(`name exceeds ${MAX_SKILL_NAME_LENGTH} characters (${name.length})`);
	}
	if (!/^[a-z0-9-]+$/.test(name)) {
		problems.push("name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)");
	}
	if (name.startsWith("-") || name.endsWith("-")) {
		problems.push("name must not start or end with a hyphen");
	}
	if (name.includes("--")) {
		problems.push("name must not contain consecutive hyphens");
	}
	return problems;
}

/** Problems with a skill's description; `isLoadable` is false when the skill must not be loaded. */
export function validateSkillDescription(description: string | undefined): { problems: string[]; isLoadable: boolean } {
	if (description === undefined || description.trim() === "") {
		return { problems: ["description is required"], isLoadable: false };
	}
	if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
		return {
			problems: [`description exceeds ${MAX_SKILL_DESCRIPTION_LENGTH} characters (${description.length})`],
			isLoadable: true,
		};
	}
	return { problems: [], isLoadable: true };
}
