// Command-line arguments (docs/cli.md): one left-to-right scan, run twice — once before extensions load and
// once with the flags they registered. Pure: no I/O, so it is cheap enough for `--version`.
import type { ThinkingLevel } from "@agent/agent-core";
import type { TuiMode } from "../core/config/settings-schema.js";
import { invalidPermissionModeText, isPermissionMode, type PermissionMode } from "../core/permissions/modes.js";

export type OutputMode = "text" | "json" | "rpc" | "acp";

export const OUTPUT_MODES: readonly OutputMode[] = ["text", "json", "rpc", "acp"];

export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** The built-in tools `--tools` accepts, in the order messages list them. */
export const TOOL_NAMES = ["read", "bash", "edit", "write", "grep", "find", "ls"] as const;
export type CliToolName = (typeof TOOL_NAMES)[number];

/** A flag an extension registered (`registerFlag`); `--<name>` on the command line. */
export interface ExtensionFlagDefinition {
	type: "boolean" | "string";
}

export interface ParseArgsOptions {
	/** Flags registered by loaded extensions, keyed by name without the leading `--` (second pass). */
	extensionFlags?: ReadonlyMap<string, ExtensionFlagDefinition>;
}

export interface Args {
	help: boolean;
	version: boolean;
	/** `--mode`; any explicit mode makes the run non-interactive. */
	mode?: OutputMode;
	print: boolean;
	continue: boolean;
	resume: boolean;
	session?: string;
	sessionDir?: string;
	noSession: boolean;
	provider?: string;
	model?: string;
	apiKey?: string;
	/** `--models`, split on commas and trimmed. */
	models?: string[];
	thinking?: ThinkingLevel;
	/** `--tools`, validated names in the order given. */
	tools?: CliToolName[];
	noTools: boolean;
	extensions: string[];
	noExtensions: boolean;
	/**
	 * `--trust-project`: trust the project without asking (and remember it): its own extensions load and its
	 * settings that run code apply.
	 */
	trustProject: boolean;
	/** `--allow <rule>` (repeatable): permission rules for this run (docs/permissions.md). */
	allow: string[];
	/** `--deny <rule>` (repeatable). */
	deny: string[];
	/** `--permission-mode <mode>`. */
	permissionMode?: PermissionMode;
	skills: string[];
	noSkills: boolean;
	promptTemplates: string[];
	noPromptTemplates: boolean;
	themes: string[];
	noThemes: boolean;
	systemPrompt?: string;
	appendSystemPrompt?: string;
	export?: string;
	/** `--list-models`: `true` without a search pattern. */
	listModels?: string | true;
	verbose: boolean;
	offline: boolean;
	/** `--tui-mode`: overrides the `tuiMode` setting for this run. */
	tuiMode?: TuiMode;
	/** A lone `-`: read the prompt from stdin even when it is a terminal. */
	readStdin: boolean;
	/** Positional words, each one message, in order. */
	messages: string[];
	/** `@path` arguments without the `@`, in order. */
	fileArgs: string[];
	/** Values of extension-registered flags (second pass). */
	extensionFlagValues: Map<string, boolean | string>;
	/** Flags nobody knows (yet): an error once extensions had their say. */
	unknownFlags: string[];
	/** Bad or missing values, as messages without the `Error: ` prefix. */
	errors: string[];
}

type ValueTarget =
	| "mode"
	| "provider"
	| "model"
	| "apiKey"
	| "models"
	| "thinking"
	| "session"
	| "sessionDir"
	| "tools"
	| "extension"
	| "skill"
	| "promptTemplate"
	| "theme"
	| "systemPrompt"
	| "appendSystemPrompt"
	| "export"
	| "tuiMode"
	| "allow"
	| "deny"
	| "permissionMode";

type BooleanTarget =
	| "help"
	| "version"
	| "print"
	| "continue"
	| "resume"
	| "noSession"
	| "noTools"
	| "noExtensions"
	| "trustProject"
	| "noSkills"
	| "noPromptTemplates"
	| "noThemes"
	| "verbose"
	| "offline";

const VALUE_FLAGS: Readonly<Record<string, ValueTarget>> = {
	"--mode": "mode",
	"--provider": "provider",
	"--model": "model",
	"--api-key": "apiKey",
	"--models": "models",
	"--thinking": "thinking",
	"--session": "session",
	"--session-dir": "sessionDir",
	"--tools": "tools",
	"--extension": "extension",
	"-e": "extension",
	"--skill": "skill",
	"--prompt-template": "promptTemplate",
	"--theme": "theme",
	"--system-prompt": "systemPrompt",
	"--append-system-prompt": "appendSystemPrompt",
	"--export": "export",
	"--tui-mode": "tuiMode",
	"--allow": "allow",
	"--deny": "deny",
	"--permission-mode": "permissionMode",
};

const BOOLEAN_FLAGS: Readonly<Record<string, BooleanTarget>> = {
	"--help": "help",
	"-h": "help",
	"--version": "version",
	"-v": "version",
	"--print": "print",
	"-p": "print",
	"--continue": "continue",
	"-c": "continue",
	"--resume": "resume",
	"-r": "resume",
	"--no-session": "noSession",
	"--no-tools": "noTools",
	"--no-extensions": "noExtensions",
	"-ne": "noExtensions",
	"--trust-project": "trustProject",
	"--no-skills": "noSkills",
	"-ns": "noSkills",
	"--no-prompt-templates": "noPromptTemplates",
	"-np": "noPromptTemplates",
	"--no-themes": "noThemes",
	"--verbose": "verbose",
	"--offline": "offline",
};

const LIST_MODELS_FLAG = "--list-models";

/** Every built-in flag spelling, for "did you mean" suggestions. */
export const KNOWN_FLAGS: readonly string[] = [
	...Object.keys(VALUE_FLAGS),
	...Object.keys(BOOLEAN_FLAGS),
	LIST_MODELS_FLAG,
];

function emptyArgs(): Args {
	return {
		help: false,
		version: false,
		print: false,
		continue: false,
		resume: false,
		noSession: false,
		noTools: false,
		extensions: [],
		noExtensions: false,
		trustProject: false,
		allow: [],
		deny: [],
		skills: [],
		noSkills: false,
		promptTemplates: [],
		noPromptTemplates: false,
		themes: [],
		noThemes: false,
		verbose: false,
		offline: false,
		readStdin: false,
		messages: [],
		fileArgs: [],
		extensionFlagValues: new Map(),
		unknownFlags: [],
		errors: [],
	};
}

/**
 * `--tui-mode` values. A record over the setting's type, so the compiler keeps it complete without this module
 * loading the settings schema (`--version` loads the command-line front only).
 */
const TUI_MODE_VALUES: Readonly<Record<TuiMode, true>> = { inline: true, fullscreen: true };

function isTuiMode(value: string): value is TuiMode {
	return Object.hasOwn(TUI_MODE_VALUES, value);
}

function isThinkingLevel(value: string): value is ThinkingLevel {
	return (THINKING_LEVELS as readonly string[]).includes(value);
}

function isToolName(value: string): value is CliToolName {
	return (TOOL_NAMES as readonly string[]).includes(value);
}

function splitList(value: string): string[] {
	return value
		.split(",")
		.map((item) => item.trim())
		.filter((item) => item.length > 0);
}

function applyValue(args: Args, flag: string, target: ValueTarget, value: string): void {
	switch (target) {
		case "mode":
			if ((OUTPUT_MODES as readonly string[]).includes(value)) args.mode = value as OutputMode;
			else args.errors.push(`Invalid value for ${flag}: "${value}". Valid values: ${OUTPUT_MODES.join(", ")}`);
			return;
		case "thinking":
			// The reference only warns and ignores the level; a typo would silently change what the run costs.
			if (isThinkingLevel(value)) args.thinking = value;
			else args.errors.push(`Invalid thinking level "${value}". Valid values: ${THINKING_LEVELS.join(", ")}`);
			return;
		case "tools": {
			const tools: CliToolName[] = [];
			for (const name of splitList(value)) {
				if (!isToolName(name)) {
					args.errors.push(`Unknown tool "${name}". Valid tools: ${TOOL_NAMES.join(", ")}`);
					continue;
				}
				if (!tools.includes(name)) tools.push(name);
			}
			args.tools = tools;
			return;
		}
		case "models":
			args.models = splitList(value);
			return;
		case "tuiMode":
			if (isTuiMode(value)) args.tuiMode = value;
			else
				args.errors.push(
					`Invalid value for ${flag}: "${value}". Valid values: ${Object.keys(TUI_MODE_VALUES).join(", ")}`,
				);
			return;
		case "extension":
			args.extensions.push(value);
			return;
		case "allow":
			args.allow.push(value);
			return;
		case "deny":
			args.deny.push(value);
			return;
		case "permissionMode":
			if (isPermissionMode(value)) args.permissionMode = value;
			else args.errors.push(invalidPermissionModeText(value));
			return;
		case "skill":
			args.skills.push(value);
			return;
		case "promptTemplate":
			args.promptTemplates.push(value);
			return;
		case "theme":
			args.themes.push(value);
			return;
		default:
			args[target] = value;
	}
}

/** `--name=value` for value-taking flags (a convenience the reference lacks; `--name value` is the reference's form). */
function splitInlineValue(arg: string): { flag: string; value: string } | undefined {
	if (!arg.startsWith("--")) return undefined;
	const equals = arg.indexOf("=");
	if (equals < 0) return undefined;
	return { flag: arg.slice(0, equals), value: arg.slice(equals + 1) };
}

/**
 * Parses `argv` (without `node` and the script). Never throws and never exits: problems are collected in
 * `errors` and `unknownFlags` for the caller, which reports them once extensions had their chance to claim
 * flags. A value-taking option takes the next argument verbatim, even when it starts with `-`.
 */
export function parseArgs(argv: readonly string[], options: ParseArgsOptions = {}): Args {
	const args = emptyArgs();
	const extensionFlags = options.extensionFlags;

	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] as string;

		const inline = splitInlineValue(arg);
		if (inline && VALUE_FLAGS[inline.flag] !== undefined) {
			applyValue(args, inline.flag, VALUE_FLAGS[inline.flag] as ValueTarget, inline.value);
			continue;
		}

		const valueTarget = VALUE_FLAGS[arg];
		if (valueTarget !== undefined) {
			if (i + 1 >= argv.length) {
				args.errors.push(`Missing value for ${arg}`);
				continue;
			}
			applyValue(args, arg, valueTarget, argv[++i] as string);
			continue;
		}

		const booleanTarget = BOOLEAN_FLAGS[arg];
		if (booleanTarget !== undefined) {
			args[booleanTarget] = true;
			continue;
		}

		if (arg === LIST_MODELS_FLAG) {
			const next = argv[i + 1];
			if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) {
				args.listModels = next;
				i++;
			} else args.listModels = true;
			continue;
		}

		if (arg.startsWith("@")) {
			args.fileArgs.push(arg.slice(1));
			continue;
		}

		if (arg.startsWith("--") && extensionFlags) {
			const name = (inline?.flag ?? arg).slice(2);
			const definition = extensionFlags.get(name);
			if (definition) {
				if (definition.type === "boolean") {
					args.extensionFlagValues.set(name, inline ? inline.value !== "false" : true);
				} else if (inline) {
					args.extensionFlagValues.set(name, inline.value);
				} else if (i + 1 < argv.length) {
					args.extensionFlagValues.set(name, argv[++i] as string);
				} else {
					args.errors.push(`Missing value for ${arg}`);
				}
				continue;
			}
		}

		if (arg === "-") {
			args.readStdin = true;
			continue;
		}

		if (!arg.startsWith("-")) {
			args.messages.push(arg);
			continue;
		}

		args.unknownFlags.push(inline?.flag ?? arg);
	}

	return args;
}

/** The permission rules and mode the command line gives (`--allow`, `--deny`, `--permission-mode`). */
export function permissionsOf(args: Pick<Args, "allow" | "deny" | "permissionMode">): {
	allow: string[];
	deny: string[];
	mode?: PermissionMode;
} {
	return {
		allow: [...args.allow],
		deny: [...args.deny],
		...(args.permissionMode ? { mode: args.permissionMode } : {}),
	};
}

/** Optimal string alignment distance: edits plus adjacent transpositions (`--modle` is one step from `--model`). */
function editDistance(a: string, b: string): number {
	const rows = Array.from({ length: a.length + 1 }, (_, i) =>
		Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
	);
	const at = (i: number, j: number) => (rows[i] as number[])[j] as number;
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
				best = Math.min(best, at(i - 2, j - 2) + 1);
			(rows[i] as number[])[j] = best;
		}
	}
	return at(a.length, b.length);
}

/** The known flag closest to a mistyped one (`--modle` → `--model`), when it is close enough to be a typo. */
export function suggestFlag(unknown: string, extraFlags: Iterable<string> = []): string | undefined {
	let best: { flag: string; distance: number; lengthGap: number } | undefined;
	for (const flag of [...KNOWN_FLAGS, ...extraFlags]) {
		if (!flag.startsWith("--")) continue;
		const distance = editDistance(unknown, flag);
		// On a tie, a flag of the same length is the likelier intent (a transposition, not a missing letter).
		const lengthGap = Math.abs(flag.length - unknown.length);
		if (!best || distance < best.distance || (distance === best.distance && lengthGap < best.lengthGap))
			best = { flag, distance, lengthGap };
	}
	if (!best) return undefined;
	const tolerance = Math.max(1, Math.floor(unknown.length / 4));
	return best.distance <= tolerance ? best.flag : undefined;
}
