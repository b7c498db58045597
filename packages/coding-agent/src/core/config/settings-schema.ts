import type { ThinkingLevel } from "@agent/agent-core";
import type { Transport } from "@agent/ai";
import { PERMISSION_MODES, type PermissionMode } from "../permissions/modes.js";

/** A package providing resources: a source string, or an object whose arrays filter the package's resources. */
export type PackageSource =
	| string
	| {
			source: string;
			extensions?: string[];
			skills?: string[];
			prompts?: string[];
			themes?: string[];
	  };

export interface CompactionSettings {
	enabled?: boolean;
	reserveTokens?: number;
	keepRecentTokens?: number;
}

export interface BranchSummarySettings {
	reserveTokens?: number;
	skipPrompt?: boolean;
}

export interface RetrySettings {
	enabled?: boolean;
	maxRetries?: number;
	baseDelayMs?: number;
	maxDelayMs?: number;
	/** Ours: a model call whose stream sends nothing this long is aborted and retried (0 disables). */
	streamStallTimeoutMs?: number;
}

export interface TerminalSettings {
	showImages?: boolean;
	clearOnShrink?: boolean;
}

export interface ImageSettings {
	autoResize?: boolean;
	blockImages?: boolean;
}

/**
 * Ours: bounds on what one reply, one tool or one file may cost in memory, time, disk or processes. Each has a
 * safe default (in SettingsManager); 0 disables a byte or time cap.
 */
export interface LimitsSettings {
	/** Response body bytes one model reply may receive. Default 64 MiB. */
	replyMaxBytes?: number;
	/** How long one model reply may stream in all. Default 30 minutes. */
	replyTimeoutMs?: number;
	/**
	 * Bash output of one command held in memory; the rest is only in the full-output file. The bash tool's own
	 * window is 100KB whatever this says; the interactive `!cmd` display keeps up to this much. Default 1 MiB.
	 */
	bashMemoryBytes?: number;
	/** Size at which a command's full-output file stops growing. Default 256 MiB. */
	bashOutputFileBytes?: number;
	/** Tool calls of one reply that run at once; the rest queue. Default 8 (at least 1). */
	parallelToolCalls?: number;
	/** Bytes read from each context file (AGENTS.md, CLAUDE.md); the rest is cut with a notice. Default 128 KiB. */
	contextFileBytes?: number;
}

/** Ours: file checkpoints (docs/checkpoints.md). */
export interface CheckpointSettings {
	/** Record the files the agent changes, so points of the session can restore them. Default true. */
	enabled?: boolean;
	/** Files larger than this are recorded as changed but their content is not kept. Default 4 MiB. */
	maxFileBytes?: number;
	/** Size of one session's checkpoint store; past it, contents are no longer kept. Default 1 GiB. */
	maxSessionBytes?: number;
	/** Files of the working tree tracked for bash commands. Default 100 000. */
	maxFiles?: number;
	/**
	 * Learn what a bash command changed from file-system notifications (Linux). false: rescan the tree around every
	 * command instead (slower; for file systems that do not report changes, such as some network mounts). Default true.
	 */
	watch?: boolean;
}

/** Ours: MCP servers (docs/mcp.md). Servers themselves are configured in `mcp.json`. */
export interface McpSettings {
	/** How long one MCP tool call may take. Default 120 000 ms (a server's own `timeout` wins). */
	toolTimeoutMs?: number;
	/** How long starting a server (spawn or connect, and the MCP handshake) may take. Default 30 000 ms. */
	connectTimeoutMs?: number;
	/** MCP tools listed directly to the model, over all servers without a `toolMode`; the rest are on-demand. Default 40. */
	directToolLimit?: number;
}

/** Ours: the OS sandbox bash commands run in (docs/permissions.md). */
export interface SandboxSettings {
	/** Run bash in bubblewrap (Linux) or sandbox-exec (macOS): writes only to the working directory and temp. */
	enabled?: boolean;
	/** Let sandboxed commands use the network. Default false. */
	network?: boolean;
}

/** Ours: permission rules and mode (docs/permissions.md). Rules of the user's and the project's file both apply. */
export interface PermissionSettings {
	/** `Tool` or `Tool(pattern)`: calls that run without asking. */
	allow?: string[];
	/** Calls that ask first (in print mode: are refused). */
	ask?: string[];
	/** Calls that are refused. Deny wins over ask, ask over allow. */
	deny?: string[];
	defaultMode?: PermissionMode;
	sandbox?: SandboxSettings;
}

export interface ThinkingBudgetsSettings {
	minimal?: number;
	low?: number;
	medium?: number;
	high?: number;
}

export interface MarkdownSettings {
	codeBlockIndent?: string;
}

export type QueueMode = "all" | "one-at-a-time";
export type DoubleEscapeAction = "tree" | "fork" | "none";
export type TreeFilterMode = "default" | "no-tools" | "user-only" | "labeled-only" | "all";
/**
 * Ours: the terminal UI in the normal screen (`inline`, the transcript in the terminal's scrollback) or on the
 * alternate screen (`fullscreen`: own scrolling with a scrollbar, mouse wheel, search). `--tui-mode` overrides it.
 */
export const TUI_MODES = ["inline", "fullscreen"] as const;
export type TuiMode = (typeof TUI_MODES)[number];

/** The contents of a settings.json file (user or project). Every key is optional; defaults live in the manager. */
export interface Settings {
	defaultProvider?: string;
	defaultModel?: string;
	defaultThinkingLevel?: ThinkingLevel;
	hideThinkingBlock?: boolean;
	thinkingBudgets?: ThinkingBudgetsSettings;
	transport?: Transport;
	steeringMode?: QueueMode;
	followUpMode?: QueueMode;
	theme?: string;
	quietStartup?: boolean;
	collapseChangelog?: boolean;
	lastChangelogVersion?: string;
	doubleEscapeAction?: DoubleEscapeAction;
	treeFilterMode?: TreeFilterMode;
	editorPaddingX?: number;
	autocompleteMaxVisible?: number;
	showHardwareCursor?: boolean;
	tuiMode?: TuiMode;
	compaction?: CompactionSettings;
	branchSummary?: BranchSummarySettings;
	retry?: RetrySettings;
	terminal?: TerminalSettings;
	images?: ImageSettings;
	shellPath?: string;
	shellCommandPrefix?: string;
	npmCommand?: string[];
	/** Ours: environment variables passed to bash and `!cmd` although they hold a provider key. */
	shellEnvPassthrough?: string[];
	limits?: LimitsSettings;
	mcp?: McpSettings;
	permissions?: PermissionSettings;
	checkpoints?: CheckpointSettings;
	enabledModels?: string[];
	enableSkillCommands?: boolean;
	packages?: PackageSource[];
	extensions?: string[];
	skills?: string[];
	prompts?: string[];
	themes?: string[];
	markdown?: MarkdownSettings;
}

/**
 * Ours: settings that run code or decide what runs. From a project's `.agent/settings.json` they apply only once
 * the project is trusted (see project-trust.ts); the user's own settings and command-line overrides always apply.
 * A new setting of that kind is one more entry here. `permissions` is one: a repository's allow rules or
 * `defaultMode: "yolo"` would decide what runs.
 */
export const PROJECT_SETTINGS_NEEDING_TRUST = [
	"shellPath",
	"shellCommandPrefix",
	"shellEnvPassthrough",
	"npmCommand",
	"extensions",
	"packages",
	"permissions",
] as const satisfies readonly (keyof Settings)[];

export type SettingNeedingTrust = (typeof PROJECT_SETTINGS_NEEDING_TRUST)[number];

/** Keys whose value is an object; writes merge only the nested keys this process changed. */
export const NESTED_SETTINGS_KEYS = [
	"thinkingBudgets",
	"compaction",
	"branchSummary",
	"retry",
	"terminal",
	"images",
	"markdown",
	"limits",
	"mcp",
	"permissions",
	"checkpoints",
] as const;

type ValueCheck = (value: unknown) => string | undefined;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

const describe = (value: unknown): string => JSON.stringify(value) ?? String(value);

const aString: ValueCheck = (value) => (typeof value === "string" ? undefined : "expected a string");
const aBoolean: ValueCheck = (value) => (typeof value === "boolean" ? undefined : "expected true or false");
const aCount: ValueCheck = (value) =>
	typeof value === "number" && Number.isFinite(value) && value >= 0 ? undefined : "expected a number ≥ 0";
const aStringList: ValueCheck = (value) =>
	Array.isArray(value) && value.every((item) => typeof item === "string") ? undefined : "expected a list of strings";
const oneOf =
	(...allowed: string[]): ValueCheck =>
	(value) =>
		typeof value === "string" && allowed.includes(value)
			? undefined
			: `expected one of ${allowed.map((item) => `"${item}"`).join(", ")}`;

const aPackageList: ValueCheck = (value) => {
	if (!Array.isArray(value)) return "expected a list of package sources";
	for (const item of value) {
		if (typeof item === "string") continue;
		if (!isPlainObject(item) || typeof item.source !== "string") {
			return 'expected each package to be a source string or an object with a "source" string';
		}
		for (const kind of ["extensions", "skills", "prompts", "themes"]) {
			if (item[kind] !== undefined && aStringList(item[kind]))
				return `expected "${kind}" of a package to be a list of strings`;
		}
	}
	return undefined;
};

const aSandbox: ValueCheck = (value) => {
	if (!isPlainObject(value)) return 'expected an object like {"enabled": true, "network": false}';
	for (const key of ["enabled", "network"]) {
		if (value[key] !== undefined && typeof value[key] !== "boolean") return `expected "${key}" to be true or false`;
	}
	return undefined;
};

const NESTED_CHECKS: Record<(typeof NESTED_SETTINGS_KEYS)[number], Record<string, ValueCheck>> = {
	thinkingBudgets: { minimal: aCount, low: aCount, medium: aCount, high: aCount },
	compaction: { enabled: aBoolean, reserveTokens: aCount, keepRecentTokens: aCount },
	branchSummary: { reserveTokens: aCount, skipPrompt: aBoolean },
	retry: {
		enabled: aBoolean,
		maxRetries: aCount,
		baseDelayMs: aCount,
		maxDelayMs: aCount,
		streamStallTimeoutMs: aCount,
	},
	terminal: { showImages: aBoolean, clearOnShrink: aBoolean },
	images: { autoResize: aBoolean, blockImages: aBoolean },
	markdown: { codeBlockIndent: aString },
	limits: {
		replyMaxBytes: aCount,
		replyTimeoutMs: aCount,
		bashMemoryBytes: aCount,
		bashOutputFileBytes: aCount,
		parallelToolCalls: aCount,
		contextFileBytes: aCount,
	},
	mcp: { toolTimeoutMs: aCount, connectTimeoutMs: aCount, directToolLimit: aCount },
	permissions: {
		allow: aStringList,
		ask: aStringList,
		deny: aStringList,
		defaultMode: oneOf(...PERMISSION_MODES),
		sandbox: aSandbox,
	},
	checkpoints: { enabled: aBoolean, maxFileBytes: aCount, maxSessionBytes: aCount, maxFiles: aCount, watch: aBoolean },
};

const TOP_LEVEL_CHECKS: Record<string, ValueCheck> = {
	defaultProvider: aString,
	defaultModel: aString,
	defaultThinkingLevel: oneOf("off", "minimal", "low", "medium", "high", "xhigh"),
	hideThinkingBlock: aBoolean,
	transport: oneOf("sse", "websocket", "auto"),
	steeringMode: oneOf("all", "one-at-a-time"),
	followUpMode: oneOf("all", "one-at-a-time"),
	theme: aString,
	quietStartup: aBoolean,
	collapseChangelog: aBoolean,
	lastChangelogVersion: aString,
	doubleEscapeAction: oneOf("tree", "fork", "none"),
	treeFilterMode: oneOf("default", "no-tools", "user-only", "labeled-only", "all"),
	editorPaddingX: aCount,
	autocompleteMaxVisible: aCount,
	showHardwareCursor: aBoolean,
	tuiMode: oneOf(...TUI_MODES),
	shellPath: aString,
	shellCommandPrefix: aString,
	npmCommand: aStringList,
	shellEnvPassthrough: aStringList,
	enabledModels: aStringList,
	enableSkillCommands: aBoolean,
	packages: aPackageList,
	extensions: aStringList,
	skills: aStringList,
	prompts: aStringList,
	themes: aStringList,
};

/**
 * Checks the known keys of a parsed settings object. Values of the wrong type are left out of the returned
 * settings (so the default applies) and described in `problems`; unknown keys are kept untouched.
 */
export function validateSettings(raw: Record<string, unknown>): { settings: Settings; problems: string[] } {
	const settings: Record<string, unknown> = {};
	const problems: string[] = [];
	for (const [key, value] of Object.entries(raw)) {
		if (value === undefined || value === null) continue;
		const nestedChecks = NESTED_CHECKS[key as keyof typeof NESTED_CHECKS];
		if (nestedChecks) {
			if (!isPlainObject(value)) {
				problems.push(`"${key}": expected an object, got ${describe(value)}`);
				continue;
			}
			const nested: Record<string, unknown> = {};
			for (const [nestedKey, nestedValue] of Object.entries(value)) {
				const problem = nestedChecks[nestedKey]?.(nestedValue);
				if (problem && nestedValue !== null)
					problems.push(`"${key}.${nestedKey}": ${problem}, got ${describe(nestedValue)}`);
				else if (!problem) nested[nestedKey] = nestedValue;
			}
			settings[key] = nested;
			continue;
		}
		const problem = TOP_LEVEL_CHECKS[key]?.(value);
		if (problem) problems.push(`"${key}": ${problem}, got ${describe(value)}`);
		else settings[key] = value;
	}
	return { settings: settings as Settings, problems };
}
