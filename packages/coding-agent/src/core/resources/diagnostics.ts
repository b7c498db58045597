/** Which kind of resource a diagnostic or collision is about. */
export type ResourceKind = "skill" | "prompt" | "theme" | "extension" | "context" | "system-prompt";

/** Two resources claimed the same name; the first one in discovery order stays loaded. */
export interface ResourceCollision {
	resourceType: ResourceKind;
	name: string;
	winnerPath: string;
	loserPath: string;
}

/**
 * A problem found while discovering resources, for a UI to show.
 * - `warning`: the file is wrong in some way (it may still be loaded; the message says what is wrong).
 * - `error`: the file or directory could not be read at all.
 * - `collision`: a second resource with an existing name; it was not loaded.
 * - `duplicate`: the same file reached twice (e.g. through a symbolic link); the second path was skipped.
 */
export interface ResourceDiagnostic {
	type: "warning" | "error" | "collision" | "duplicate";
	message: string;
	path: string;
	collision?: ResourceCollision;
}

export function describeError(error: unknown): string {
	if (error instanceof Error) {
		const code = (error as NodeJS.ErrnoException).code;
		return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
	}
	return String(error);
}
