// Permission modes: what happens to a tool call that no rule decides. One definition; settings, the command
// line, RPC, ACP and the terminal UI all take their lists and names from here.

export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "ask", "yolo"] as const;

export type PermissionMode = (typeof PERMISSION_MODES)[number];

export function isPermissionMode(value: unknown): value is PermissionMode {
	return typeof value === "string" && (PERMISSION_MODES as readonly string[]).includes(value);
}

/** One line per mode, for help texts, the terminal UI and editors (ACP mode descriptions). */
export const PERMISSION_MODE_DESCRIPTIONS: Readonly<Record<PermissionMode, string>> = {
	default: "Rules apply; anything no rule names runs",
	acceptEdits: "Rules apply; edits inside the project run, commands and other changes ask",
	plan: "Read-only: edits, writes and commands that change anything are refused",
	ask: "Rules apply; bash, edits, writes and other tools that no rule allows ask",
	yolo: "No rules: every call runs",
};

/** How a mode reads in the footer and in editors. */
export const PERMISSION_MODE_NAMES: Readonly<Record<PermissionMode, string>> = {
	default: "Default",
	acceptEdits: "Accept edits",
	plan: "Plan",
	ask: "Ask",
	yolo: "YOLO",
};

export function invalidPermissionModeText(value: string): string {
	return `Invalid permission mode "${value}". Valid values: ${PERMISSION_MODES.join(", ")}`;
}

/**
 * The mode after `mode` when the user cycles (terminal UI key). `yolo` is in the cycle only when the session was
 * started in it (flag or setting): cycling never lands on "no rules" by accident.
 */
export function nextPermissionMode(mode: PermissionMode, includeYolo: boolean): PermissionMode {
	const cycle = PERMISSION_MODES.filter((candidate) => includeYolo || candidate !== "yolo");
	const index = cycle.indexOf(mode);
	return cycle[(index + 1) % cycle.length] ?? "default";
}
