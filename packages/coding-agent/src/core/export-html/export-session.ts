// HTML export of a session file (docs/export.md): the I/O shell around the pure renderer.
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { APP_NAME } from "../../config.js";
import { loadSessionText } from "../session/session-loader.js";
import { type ExportedTool, renderSessionPage, type SessionPageOptions } from "./render-page.js";
import { buildSessionView } from "./session-view.js";

export const IN_MEMORY_SESSION_EXPORT_ERROR = "Cannot export in-memory session to HTML";
export const NOTHING_TO_EXPORT_ERROR = "Nothing to export yet - start a conversation first";
export const HTML_EXPORT_FILE_PREFIX = `${APP_NAME}-session-`;

export function fileNotFoundError(sessionFile: string): string {
	return `File not found: ${sessionFile}`;
}

export interface ExportHtmlOptions extends SessionPageOptions {
	/** Directory that relative input and output paths are resolved against; default the process cwd. */
	cwd?: string;
	/**
	 * The entry whose branch the transcript follows. Default: the file's last entry (docs/session-format.md "The tree").
	 * A live session passes its in-memory leaf so a `/tree` move without a new message is honoured.
	 */
	leafId?: string | null;
}

/** `agent-session-<session file basename without .jsonl>.html`, relative (to the cwd). */
export function defaultHtmlExportPath(sessionFile: string): string {
	return `${HTML_EXPORT_FILE_PREFIX}${basename(sessionFile, ".jsonl")}.html`;
}

/** A session file's text (every branch, corrupt lines skipped, old versions migrated in memory) as a page. */
export function renderSessionTextToHtml(text: string, sessionFile: string, options: ExportHtmlOptions = {}): string {
	const loaded = loadSessionText(text, sessionFile);
	const view = buildSessionView(loaded.header, loaded.entries, options.leafId);
	return renderSessionPage(view, options);
}

/**
 * Writes a self-contained HTML rendering of a session file and returns the output path as the caller gave it,
 * or the relative default name. Relative paths are taken from `options.cwd`. Throws `File not found: <path>`
 * when the input does not exist; a file without a session header is refused (SessionFileFormatError).
 */
export async function exportSessionToHtml(
	sessionFile: string,
	outputPath?: string,
	options: ExportHtmlOptions = {},
): Promise<string> {
	const cwd = options.cwd ?? process.cwd();
	const input = resolve(cwd, sessionFile);
	if (!existsSync(input)) throw new Error(fileNotFoundError(sessionFile));
	const html = renderSessionTextToHtml(await readFile(input, "utf8"), input, options);
	const output = outputPath || defaultHtmlExportPath(sessionFile);
	await writeFile(resolve(cwd, output), html, "utf8");
	return output;
}

/** What the export needs of a live session; `AgentSession` satisfies it. */
export interface ExportableSession {
	/** Undefined for in-memory (`--no-session`) sessions. */
	readonly sessionFile?: string | undefined;
	readonly sessionManager?: { getLeafId(): string | null };
	readonly systemPrompt?: string;
	getActiveToolNames?(): string[];
	getAllTools?(): ExportedTool[];
}

/** The session's active tools, in the order they are active. */
function activeTools(session: ExportableSession): ExportedTool[] | undefined {
	if (!session.getActiveToolNames || !session.getAllTools) return undefined;
	const byName = new Map(session.getAllTools().map((tool) => [tool.name, tool]));
	return session
		.getActiveToolNames()
		.map((name) => byName.get(name))
		.filter((tool): tool is ExportedTool => tool !== undefined);
}

/**
 * `/export` and RPC `export_html`: exports the session's file, following its in-memory leaf and showing its
 * system prompt and active tools. Throws `Cannot export in-memory session to HTML` without a file, and
 * `Nothing to export yet - start a conversation first` while the file is not written yet (the lazy flush).
 */
export async function exportAgentSessionToHtml(
	session: ExportableSession,
	outputPath?: string,
	options: ExportHtmlOptions = {},
): Promise<string> {
	const sessionFile = session.sessionFile;
	if (sessionFile === undefined) throw new Error(IN_MEMORY_SESSION_EXPORT_ERROR);
	if (!existsSync(resolve(options.cwd ?? process.cwd(), sessionFile))) throw new Error(NOTHING_TO_EXPORT_ERROR);
	const live: ExportHtmlOptions = {};
	if (session.sessionManager) live.leafId = session.sessionManager.getLeafId();
	if (session.systemPrompt) live.systemPrompt = session.systemPrompt;
	const tools = activeTools(session);
	if (tools && tools.length > 0) live.tools = tools;
	return exportSessionToHtml(sessionFile, outputPath, { ...live, ...options });
}
