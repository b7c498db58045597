import { join, resolve } from "node:path";
import { CONFIG_DIR_NAME } from "../config/paths.js";
import { readSmallTextFileSync } from "../tools/regular-file.js";
import { describeError, type ResourceDiagnostic } from "./diagnostics.js";
import { isFile } from "./path-probes.js";

export const SYSTEM_PROMPT_FILE_NAME = "SYSTEM.md";
export const APPEND_SYSTEM_PROMPT_FILE_NAME = "APPEND_SYSTEM.md";

/**
 * A `--system-prompt`/`--append-system-prompt` value, or a discovered file: a value that names an existing
 * file (relative to `cwd`) is replaced by the file's content; any other value is the text itself. A file that
 * can't be read is reported and its path is used as text, as the reference does.
 */
export function resolvePromptText(value: string, cwd: string, diagnostics: ResourceDiagnostic[]): string {
	const candidate = resolve(cwd, value);
	if (!value.includes("\n") && isFile(candidate)) {
		try {
			return readSmallTextFileSync(candidate);
		} catch (error) {
			diagnostics.push({
				type: "error",
				message: `cannot read system prompt file: ${describeError(error)}`,
				path: candidate,
			});
		}
	}
	return value;
}

function discoverFile(
	cwd: string,
	agentDir: string,
	fileName: string,
	mayReadProjectFile: (path: string) => boolean,
): string | undefined {
	const projectFile = join(cwd, CONFIG_DIR_NAME, fileName);
	if (isFile(projectFile) && mayReadProjectFile(projectFile)) return projectFile;
	const userFile = join(agentDir, fileName);
	return isFile(userFile) ? userFile : undefined;
}

export interface SystemPromptSourceOptions {
	cwd: string;
	agentDir: string;
	/** `--system-prompt`: text or a file path. Replaces SYSTEM.md discovery; `""` means the default prompt. */
	systemPrompt?: string;
	/** `--append-system-prompt`: text or a file path. Replaces APPEND_SYSTEM.md discovery. */
	appendSystemPrompt?: string;
	/** Ours: false for a project file not to read (an untrusted project's link out of it); the user's is used. */
	mayReadProjectFile?: (path: string) => boolean;
}

export interface SystemPromptSources {
	/** Replaces the default prompt when set. */
	customPrompt?: string;
	/** Text appended after the prompt (zero or one entry; the session joins entries with a blank line). */
	appendSystemPrompt: string[];
	diagnostics: ResourceDiagnostic[];
}

/** The custom prompt (flag, else `.agent/SYSTEM.md`, else `~/.agent/SYSTEM.md`) and the text appended to it. */
export function resolveSystemPromptSources(options: SystemPromptSourceOptions): SystemPromptSources {
	const diagnostics: ResourceDiagnostic[] = [];
	const read = (value: string | undefined) => (value ? resolvePromptText(value, options.cwd, diagnostics) : undefined);
	const mayRead = options.mayReadProjectFile ?? (() => true);
	const customPrompt = read(
		options.systemPrompt ?? discoverFile(options.cwd, options.agentDir, SYSTEM_PROMPT_FILE_NAME, mayRead),
	);
	const append = read(
		options.appendSystemPrompt ??
			discoverFile(options.cwd, options.agentDir, APPEND_SYSTEM_PROMPT_FILE_NAME, mayRead),
	);
	return {
		...(customPrompt ? { customPrompt } : {}),
		appendSystemPrompt: append ? [append] : [],
		diagnostics,
	};
}
