// Project trust at start-up (config/project-trust.ts remembers the decisions). What waits for it: the project's
// own extensions (`<cwd>/.agent/extensions/`, and those its settings name), its settings that run code or decide
// what runs (`PROJECT_SETTINGS_NEEDING_TRUST`: `shellPath`, `shellCommandPrefix`, `packages`, …), and its context
// and prompt files that lead out of it (resources/project-boundary.ts). An interactive start asks;
// `--trust-project` trusts without asking; otherwise they stay off and one notice says which, and how to trust
// the project. User-level settings and extensions, `-e` paths and command-line flags apply as always.
import { relative } from "node:path";
import { createInterface } from "node:readline/promises";
import { getTrustedProjectsPath, isProjectTrusted, TRUST_PROJECT_FLAG, trustProject } from "../config/project-trust.js";
import type { SettingsManager } from "../config/settings-manager.js";
import type { HeldBackSetting } from "../config/settings-store.js";
import { findProjectMcpServers, type ProjectMcpServer } from "../mcp/config.js";
import type { FileOutsideProject } from "../resources/project-boundary.js";
import type { ExtensionPath, ResourceLoader } from "../resources/resource-loader.js";

/** Extensions contributed by the project's own configuration (as opposed to the user's or the command line). */
export function isProjectExtension(extension: ExtensionPath): boolean {
	return extension.scope === "project";
}

/** The extension paths that may load: all of them in a trusted project, else all but the project's own. */
export function extensionPathsToLoad(extensions: readonly ExtensionPath[], projectTrusted: boolean): string[] {
	return extensions
		.filter((extension) => projectTrusted || !isProjectExtension(extension))
		.map((extension) => extension.path);
}

/** What waits for the project to be trusted. */
export interface UntrustedProjectParts {
	/** Project settings, as written in `<cwd>/.agent/settings.json`. */
	settings: HeldBackSetting[];
	/** Project extension files. */
	extensions: string[];
	/** Context and prompt files of the project that lead out of it (see resources/project-boundary.ts). */
	files: FileOutsideProject[];
	/** MCP servers of the project's `.mcp.json` and `.agent/mcp.json`: processes it would start. */
	mcpServers: ProjectMcpServer[];
}

function isEmpty(parts: UntrustedProjectParts): boolean {
	return (
		parts.settings.length === 0 &&
		parts.extensions.length === 0 &&
		parts.files.length === 0 &&
		parts.mcpServers.length === 0
	);
}

const MAX_SHOWN_VALUE_CHARS = 120;

/** `shellPath = ./evil.sh`; lists and odd strings (newlines, quotes) as JSON; long values cut with `…`. */
export function formatHeldBackSetting(setting: HeldBackSetting): string {
	const { value } = setting;
	const plain = typeof value === "string" && !/[\u0000-\u001f\u007f"]/.test(value) && value.trim() === value;
	let shown = plain ? (value as string) : JSON.stringify(value);
	if (shown.length > MAX_SHOWN_VALUE_CHARS) shown = `${shown.slice(0, MAX_SHOWN_VALUE_CHARS - 1)}…`;
	return `${setting.key} = ${shown}`;
}

/** How a notice names a file: relative to the project when inside it. */
function displayPath(path: string, cwd: string): string {
	const rel = relative(cwd, path);
	return rel && !rel.startsWith("..") ? rel : path;
}

/** One line per part, as the notice and the question list them. */
function describeParts(parts: UntrustedProjectParts, cwd: string): string[] {
	return [
		...parts.settings.map((setting) => `project setting ${formatHeldBackSetting(setting)}`),
		...parts.extensions.map((path) => `project extension ${displayPath(path, cwd)}`),
		...parts.files.map((file) => `project file ${displayPath(file.path, cwd)} (leads to ${file.target})`),
		...parts.mcpServers.map((server) => `project MCP server ${server.name} (${displayPath(server.file, cwd)})`),
	];
}

/** The one notice for what an untrusted project had that stays off, and how to trust the project. */
export function untrustedProjectNotice(cwd: string, parts: UntrustedProjectParts, agentDir: string): string {
	return [
		`Ignored because ${cwd} is not a trusted project:`,
		...describeParts(parts, cwd).map((line) => `  ${line}`),
		`To trust it, start agent there interactively and accept, or run with ${TRUST_PROJECT_FLAG} ` +
			`(remembered in ${getTrustedProjectsPath(agentDir)}).`,
	].join("\n");
}

export const TRUST_PROJECT_QUESTION = "Trust this project and use them? [y/N] ";

export interface TrustPromptOptions {
	input: NodeJS.ReadableStream;
	output: NodeJS.WritableStream;
	cwd: string;
	parts: UntrustedProjectParts;
}

/** Asks on a terminal whether to trust the project; only `y` / `yes` trusts. */
export async function promptProjectTrust(options: TrustPromptOptions): Promise<boolean> {
	const { parts, cwd } = options;
	const lines = [
		`${cwd} is not a trusted project. These run code or are read with your permissions only once you trust it:`,
		...describeParts(parts, cwd).map((line) => `  ${line}`),
		"",
	];
	options.output.write(`${lines.join("\n")}\n`);
	const readline = createInterface({ input: options.input, output: options.output, terminal: false });
	try {
		return await new Promise<boolean>((resolve) => {
			// Input that ends without an answer (Ctrl+D, a closed pipe) is a no.
			readline.once("close", () => resolve(false));
			readline.question(TRUST_PROJECT_QUESTION).then(
				(answer) => resolve(/^\s*y(es)?\s*$/i.test(answer)),
				() => resolve(false),
			);
		});
	} finally {
		readline.close();
	}
}

export interface ProjectTrustOptions {
	cwd: string;
	agentDir: string;
	/** Its project settings wait for trust; trusting the project applies them at once. */
	settingsManager: SettingsManager;
	/** Already loaded; reloaded when trusting the project brings in settings that name resources. */
	resourceLoader: ResourceLoader;
	/** `--trust-project`: trust (and remember) without asking. */
	trustProjectFlag?: boolean;
	/** Asks the user (interactive start only); without it an untrusted project stays untrusted. */
	prompt?: (parts: UntrustedProjectParts) => Promise<boolean>;
}

export interface ProjectTrustDecision {
	trusted: boolean;
	/** What stays off because the project is not trusted (empty when it is). */
	ignored: UntrustedProjectParts;
	/** What to tell the user about `ignored` (stderr, or a notice in the interactive mode). */
	notice?: string;
}

/**
 * Decides whether the project is trusted: remembered before, `--trust-project`, or a yes to the prompt (both
 * remembered). A trusted project's held-back settings apply from then on, in this process too, and the resource
 * loader is reloaded so the extensions and packages they name are found. Asks only when something waits.
 */
export async function resolveProjectTrust(options: ProjectTrustOptions): Promise<ProjectTrustDecision> {
	const { cwd, agentDir, settingsManager, resourceLoader } = options;
	const none: UntrustedProjectParts = { settings: [], extensions: [], files: [], mcpServers: [] };
	const heldBack = settingsManager.getHeldBackProjectSettings();
	const filesOutside = resourceLoader.getFilesOutsideUntrustedProject?.() ?? [];
	const trustNow = async (): Promise<ProjectTrustDecision> => {
		settingsManager.setProjectTrusted(true);
		// Settings naming packages or extensions, and the files left out, are found only by loading again.
		if (heldBack.length > 0 || filesOutside.length > 0) await resourceLoader.reload();
		return { trusted: true, ignored: none };
	};
	if (settingsManager.isProjectTrusted()) return { trusted: true, ignored: none };
	// A settings manager made without the remembered decision (an embedder's own) still honours it.
	if (isProjectTrusted(cwd, agentDir)) return trustNow();

	const parts: UntrustedProjectParts = {
		settings: heldBack,
		extensions: resourceLoader
			.getExtensionPaths()
			.extensions.filter(isProjectExtension)
			.map((extension) => extension.path),
		files: filesOutside,
		mcpServers: findProjectMcpServers(cwd, agentDir),
	};
	if (isEmpty(parts)) return { trusted: false, ignored: none };
	if (options.trustProjectFlag || (options.prompt && (await options.prompt(parts)))) {
		trustProject(cwd, agentDir);
		return trustNow();
	}
	return { trusted: false, ignored: parts, notice: untrustedProjectNotice(cwd, parts, agentDir) };
}
