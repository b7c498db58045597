// Slash commands about the session itself: /name, /session, /copy, /export, /share, /new, /compact, /fork,
// /resume, /quit, /debug.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkpointStoreDirFor, removeCheckpointStore } from "../../../core/checkpoints/checkpoint-paths.js";
import type { SessionInfo } from "../../../core/session/entries.js";
import { SessionManager } from "../../../core/session/session-manager.js";
import {
	ALREADY_COMPACTED_TEXT,
	COMPACTION_CANCELLED_TEXT,
	NOTHING_TO_COMPACT_TEXT,
} from "../../../core/session-runtime/compaction-controller.js";
import { copyToClipboard } from "../clipboard.js";
import { SummaryMessageComponent } from "../components/summary-message.js";
import { keyHint } from "../display-state.js";
import type { DialogHost, EditorHost, FooterHost, NoticeHost, SessionHost, TranscriptHost } from "../mode-host.js";
import { forkPanel } from "../selectors/fork-panel.js";
import { SessionPicker, type SessionScope } from "../selectors/session-picker.js";
import { askToRestoreFiles, reportRestore, showConflicts } from "./file-restore.js";

export const NO_AGENT_MESSAGES_TEXT = "No agent messages to copy yet.";
export const COPIED_TEXT = "Copied last agent message to clipboard";
export const NOTHING_TO_COMPACT_NO_MESSAGES_TEXT = "Nothing to compact (no messages yet)";
/** The session has a message or more, but nothing before a cut point (e.g. one message since the last compaction). */
export const NOTHING_TO_COMPACT_YET_TEXT = "Nothing to compact yet";
export const NO_MESSAGES_TO_FORK_TEXT = "No messages to fork from";

export function runName(host: NoticeHost & SessionHost & FooterHost, args: string): void {
	const name = args.trim();
	if (!name) {
		const current = host.session.sessionName;
		if (current) host.notify("info", `Session name: ${current}`);
		else host.notify("warning", "Usage: /name <name>");
		return;
	}
	host.session.setSessionName(name);
	host.updateTitle();
	host.notify("info", `Session name set: ${name}`);
}

function number(value: number): string {
	return value.toLocaleString("en-US");
}

export function sessionInfoText(host: SessionHost): string {
	const { session } = host;
	const stats = session.getSessionStats();
	const file = session.sessionManager.isPersisted() ? (session.sessionFile ?? "In-memory") : "In-memory";
	const lines = ["Session Info", ""];
	if (session.sessionName) lines.push(`Name: ${session.sessionName}`);
	lines.push(`File: ${file}`, `ID: ${session.sessionId}`, "");
	lines.push(
		"Messages",
		`User: ${stats.userMessages}`,
		`Assistant: ${stats.assistantMessages}`,
		`Tool Calls: ${stats.toolCalls}`,
		`Tool Results: ${stats.toolResults}`,
		`Total: ${stats.totalMessages}`,
		"",
	);
	lines.push(
		"Tokens",
		`Input: ${number(stats.tokens.input)}`,
		`Output: ${number(stats.tokens.output)}`,
		`Cache Read: ${number(stats.tokens.cacheRead)}`,
		`Cache Write: ${number(stats.tokens.cacheWrite)}`,
		`Total: ${number(stats.tokens.total)}`,
		"",
	);
	lines.push("Cost", `Total: $${stats.cost.toFixed(4)}`);
	return lines.join("\n");
}

export function runCopy(host: NoticeHost & SessionHost & DialogHost): void {
	const text = host.session.getLastAssistantText();
	if (!text) {
		host.notify("error", NO_AGENT_MESSAGES_TEXT);
		return;
	}
	const copied = copyToClipboard(text, (data) => host.tui.terminal.write(data), {
		env: host.options.env ?? process.env,
	});
	if (copied) host.notify("status", COPIED_TEXT);
	else host.notify("error", "Could not copy to the clipboard.");
}

export async function runExport(host: NoticeHost & SessionHost, args: string): Promise<void> {
	try {
		const { session } = host;
		// Loaded on first use: most sessions never export, and startup pays for every module it loads.
		const { exportAgentSessionToHtml } = await import("../../../core/export-html/export-session.js");
		const written = await exportAgentSessionToHtml(session, args || undefined, { cwd: session.cwd });
		host.notify("info", `Session exported to: ${written}`);
	} catch (error) {
		host.notify("error", `Failed to export session: ${error instanceof Error ? error.message : String(error)}`);
	}
}

export function runShare(host: NoticeHost & SessionHost & TranscriptHost): void {
	const gh = spawnSync("gh", ["auth", "status"], { stdio: "ignore" });
	if (gh.error || gh.status !== 0) {
		host.notify("error", "Sharing needs the GitHub CLI (gh), installed and logged in (gh auth login).");
		return;
	}
	void shareViaGist(host);
}

async function shareViaGist(host: NoticeHost & SessionHost & TranscriptHost): Promise<void> {
	const output = join(tmpdir(), `agent-share-${Date.now()}.html`);
	host.status.show("Sharing session...");
	try {
		const { exportAgentSessionToHtml } = await import("../../../core/export-html/export-session.js");
		await exportAgentSessionToHtml(host.session, output);
		const result = spawnSync("gh", ["gist", "create", "--public=false", output], { encoding: "utf8" });
		if (result.status !== 0) throw new Error(result.stderr.trim() || "gh gist create failed");
		const gistUrl = result.stdout.trim().split("\n").pop() ?? "";
		const gistId = gistUrl.split("/").pop() ?? "";
		const env = host.options.env ?? process.env;
		const viewer = env.AGENT_SHARE_VIEWER_URL || "https://pi.dev/session/";
		host.notify("info", `Share URL: ${viewer}#${gistId}\nGist: ${gistUrl}`);
	} catch (error) {
		host.notify("error", `Failed to share session: ${error instanceof Error ? error.message : String(error)}`);
	} finally {
		host.status.hide();
		rmSync(output, { force: true });
	}
}

export async function runNew(host: NoticeHost & SessionHost & TranscriptHost & FooterHost): Promise<void> {
	const started = await host.session.newSession();
	if (!started) return;
	host.rebuildTranscript();
	host.updateTitle();
	host.notify("info", "✓ New session started");
}

export async function runCompact(
	host: NoticeHost & SessionHost & DialogHost & TranscriptHost,
	instructions: string,
): Promise<void> {
	const { session } = host;
	const messageEntries = session.sessionManager.getBranch().filter((entry) => entry.type === "message").length;
	if (messageEntries < 2) {
		host.notify("warning", NOTHING_TO_COMPACT_NO_MESSAGES_TEXT);
		return;
	}
	host.status.show(`Compacting context... (${keyHint(host.state, "interrupt")} to cancel)`);
	try {
		const result = await session.compact(instructions || undefined);
		// The transcript becomes what the model now sees (the summary, then what was kept), printed again; the
		// summary is also added at the end, where the user is looking (as the reference shows it).
		host.rebuildTranscript();
		host.transcript.addChild(
			new SummaryMessageComponent(host.state, "compaction", result.summary, result.tokensBefore),
		);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		// Nothing to do is not a failure.
		if (message === COMPACTION_CANCELLED_TEXT) host.notify("warning", COMPACTION_CANCELLED_TEXT);
		else if (message === NOTHING_TO_COMPACT_TEXT) host.notify("warning", NOTHING_TO_COMPACT_YET_TEXT);
		else if (message === ALREADY_COMPACTED_TEXT) host.notify("warning", ALREADY_COMPACTED_TEXT);
		else host.notify("error", `Compaction failed: ${message}`);
	} finally {
		host.status.hide();
	}
}

export function runFork(host: NoticeHost & SessionHost & DialogHost & EditorHost & TranscriptHost & FooterHost): void {
	const candidates = host.session.getUserMessagesForForking();
	if (candidates.length === 0) {
		host.notify("warning", NO_MESSAGES_TO_FORK_TEXT);
		return;
	}
	const handle = host.showSelector(
		forkPanel(host.state, candidates, {
			onSelect: (entryId) => {
				handle.close();
				void forkAt(host, entryId);
			},
			onCancel: () => handle.close(),
		}),
	);
}

async function forkAt(
	host: NoticeHost & SessionHost & DialogHost & EditorHost & TranscriptHost & FooterHost,
	entryId: string,
): Promise<void> {
	try {
		// Ours: the files can go back to how they were before the message (docs/checkpoints.md).
		const files = host.session.isStreaming
			? { restoreFiles: false as const }
			: await askToRestoreFiles(host, host.session.checkpoints.previewFork(entryId));
		if (!files) return;
		const result = await host.session.fork(
			entryId,
			files.restoreFiles ? { restoreFiles: true, forceRestore: files.force } : {},
		);
		if (result.cancelled) {
			if (result.files && result.files.conflicts.length > 0) {
				showConflicts(host, result.files);
				host.notify("warning", "Files changed outside the agent meanwhile; nothing was done.");
			}
			return;
		}
		host.rebuildTranscript();
		host.editor.setText(result.selectedText);
		host.updateTitle();
		host.notify("status", "Branched to new session");
		if (result.files) reportRestore(host, result.files);
	} catch (error) {
		host.notify("error", error instanceof Error ? error.message : String(error));
	}
}

/** Renames a session file: the open session through the session, any other by appending to its file. */
async function renameSession(host: SessionHost & FooterHost, info: SessionInfo, name: string): Promise<void> {
	if (info.path === host.session.sessionFile) {
		host.session.setSessionName(name);
		host.updateTitle();
		return;
	}
	const manager = SessionManager.open(info.path);
	try {
		manager.appendSessionInfo(name);
	} finally {
		manager.close();
	}
}

/** Deletes a session file and (ours) its checkpoint store, to the trash when `trash` is installed. */
export async function deleteSession(info: Pick<SessionInfo, "path">): Promise<void> {
	const store = checkpointStoreDirFor(info.path);
	const trash = spawnSync("trash", existsSync(store) ? [info.path, store] : [info.path], { stdio: "ignore" });
	if (!trash.error && trash.status === 0) return;
	rmSync(info.path);
	removeCheckpointStore(info.path);
}

export function loadSessionsFor(host: SessionHost, scope: SessionScope): Promise<SessionInfo[]> {
	const manager = host.session.sessionManager;
	if (scope === "all") return SessionManager.listAll(host.agentDir);
	return SessionManager.list(host.session.cwd, manager.getSessionDir());
}

export function runResume(
	host: NoticeHost & SessionHost & DialogHost & EditorHost & TranscriptHost & FooterHost,
): void {
	const handle = host.showSelector(
		new SessionPicker({
			state: host.state,
			keybindings: host.keybindings,
			loadSessions: (scope) => loadSessionsFor(host, scope),
			...(host.session.sessionFile ? { currentSessionPath: host.session.sessionFile } : {}),
			onSelect: (info) => {
				handle.close();
				void resumeSession(host, info.path);
			},
			onCancel: () => handle.close(),
			rename: (info, name) => renameSession(host, info, name),
			remove: (info) => deleteSession(info),
			requestRender: () => host.requestRender(),
			maxVisible: Math.max(5, Math.floor(host.tui.terminal.rows / 2) - 4),
		}),
	);
}

/**
 * `agent -r`: the picker before anything else. Opening a session rebuilds the screen for it, then `onOpened`;
 * cancelling calls `onCancelled` (the caller quits with `No session selected`).
 */
export function pickSessionAtStartup(
	host: NoticeHost & SessionHost & DialogHost & EditorHost & TranscriptHost & FooterHost,
	on: { onOpened(): void; onCancelled(): void },
): void {
	const handle = host.showSelector(
		new SessionPicker({
			state: host.state,
			keybindings: host.keybindings,
			loadSessions: (scope) => loadSessionsFor(host, scope),
			onSelect: (info) => {
				handle.close();
				void host.session.switchSession(info.path).then(
					() => {
						host.rebuildTranscript();
						host.updateTitle();
						host.refreshEditorBorder();
						on.onOpened();
					},
					(error: unknown) => host.notify("error", error instanceof Error ? error.message : String(error)),
				);
			},
			onCancel: () => {
				handle.close();
				on.onCancelled();
			},
			rename: async () => {
				throw new Error("Open the session first to rename it.");
			},
			remove: async () => {
				throw new Error("Open the session first to delete others.");
			},
			requestRender: () => host.requestRender(),
			maxVisible: Math.max(5, Math.floor(host.tui.terminal.rows / 2) - 4),
		}),
	);
}

async function resumeSession(
	host: NoticeHost & SessionHost & EditorHost & TranscriptHost & FooterHost,
	path: string,
): Promise<void> {
	try {
		const switched = await host.session.switchSession(path);
		if (!switched) return;
		host.rebuildTranscript();
		host.updateTitle();
		host.refreshEditorBorder();
		host.notify("status", "Resumed session");
	} catch (error) {
		host.notify("error", error instanceof Error ? error.message : String(error));
	}
}

export function runDebug(host: NoticeHost & SessionHost & DialogHost): void {
	const path = join(host.agentDir, "agent-debug.log");
	const width = host.tui.terminal.columns;
	const lines = [
		`Debug output at ${new Date().toISOString()}`,
		`Terminal: ${width}x${host.tui.terminal.rows}`,
		"",
		"Rendered lines:",
		...host.tui.render(width),
		"",
		"Messages:",
		JSON.stringify(host.session.messages, null, 2),
	];
	writeFileSync(path, `${lines.join("\n")}\n`);
	host.notify("info", `Debug log written to ${path}`);
}
