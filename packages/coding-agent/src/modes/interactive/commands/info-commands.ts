// /hotkeys, /changelog and /reload.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Markdown, Spacer } from "@agent/tui";
import { getPackageRoot } from "../../../core/resources/package-docs.js";
import { formatKeyLabel } from "../display-state.js";
import { APP_ACTIONS, type KeybindingAction } from "../keybindings.js";
import type { AppearanceHost, DialogHost, EditorHost, NoticeHost, SessionHost, TranscriptHost } from "../mode-host.js";

export const RELOAD_WHILE_STREAMING_TEXT = "Wait for the current response to finish before reloading.";
export const RELOADED_TEXT = "Reloaded extensions, skills, prompts, themes";

const ACTION_DESCRIPTIONS: Partial<Record<KeybindingAction, string>> = {
	interrupt: "Cancel / abort the current run",
	clear: "Clear the editor (twice: quit)",
	exit: "Quit (when the editor is empty)",
	suspend: "Suspend to the shell",
	cycleThinkingLevel: "Cycle thinking level",
	cycleModelForward: "Next model",
	cycleModelBackward: "Previous model",
	selectModel: "Select model",
	expandTools: "Expand / collapse tool output",
	toggleThinking: "Show / hide thinking blocks",
	toggleSessionNamedFilter: "Session picker: named sessions only",
	externalEditor: "Edit in $VISUAL / $EDITOR",
	followUp: "Queue a follow-up message",
	dequeue: "Restore queued messages to the editor",
	pasteImage: "Paste an image from the clipboard",
	newSession: "New session",
	tree: "Session tree",
	fork: "Fork from a message",
	resume: "Resume a session",
	scrollUp: "Scroll the transcript up a page (full-screen mode)",
	scrollDown: "Scroll the transcript down a page (full-screen mode)",
	searchTranscript: "Search the transcript (full-screen mode)",
	cyclePermissionMode: "Cycle permission mode (default, accept edits, plan, ask)",
	submit: "Send the message (steer while the agent works)",
	newLine: "New line",
	cursorWordLeft: "Word left",
	cursorWordRight: "Word right",
	cursorLineStart: "Line start",
	cursorLineEnd: "Line end",
	deleteWordBackward: "Delete word backward",
	deleteToLineStart: "Delete to line start",
	deleteToLineEnd: "Delete to line end",
	yank: "Paste the last deletion",
	yankPop: "Cycle earlier deletions",
	undo: "Undo",
	jumpForward: "Jump to a character",
	tab: "Complete paths and commands",
};

export function hotkeysMarkdown(host: DialogHost & AppearanceHost): string {
	const rows: string[] = ["| Key | Action |", "| --- | --- |"];
	const add = (action: KeybindingAction) => {
		const keys = host.keybindings.getKeys(action);
		const description = ACTION_DESCRIPTIONS[action];
		if (!description || keys.length === 0) return;
		rows.push(`| ${keys.map((key) => `\`${formatKeyLabel(key)}\``).join(", ")} | ${description} |`);
	};
	for (const action of APP_ACTIONS) add(action);
	for (const action of Object.keys(ACTION_DESCRIPTIONS) as KeybindingAction[]) {
		if (!(APP_ACTIONS as readonly string[]).includes(action)) add(action);
	}
	const extras = [
		"| `/` | Slash commands |",
		"| `!cmd` / `!!cmd` | Run a shell command (`!!`: not sent to the model) |",
		"| `@` | Reference a file |",
		"| `Esc Esc` | Session tree (empty editor; `doubleEscapeAction`) |",
	];
	for (const shortcut of host.extensionShortcuts()) {
		rows.push(`| \`${formatKeyLabel(shortcut.key)}\` | ${shortcut.description} (extension) |`);
	}
	return ["**Keyboard shortcuts**", "", ...rows, ...extras].join("\n");
}

function showMarkdown(host: DialogHost & TranscriptHost, text: string): void {
	// A blank line first: the title must not touch the notice or block above it.
	host.transcript.addChild(new Spacer(1));
	host.transcript.addChild(new Markdown(text, 1, 0, host.state.theme.getMarkdownTheme()));
	host.requestRender();
}

export function runHotkeys(host: DialogHost & TranscriptHost & AppearanceHost): void {
	showMarkdown(host, hotkeysMarkdown(host));
}

export function runChangelog(host: NoticeHost & DialogHost & TranscriptHost): void {
	let text: string;
	try {
		text = readFileSync(join(getPackageRoot(), "CHANGELOG.md"), "utf8");
	} catch {
		host.notify("info", "No changelog available.");
		return;
	}
	showMarkdown(host, text);
}

export async function runReload(
	host: NoticeHost & SessionHost & EditorHost & TranscriptHost & AppearanceHost,
): Promise<void> {
	const { session } = host;
	if (session.isStreaming || session.isCompacting) {
		host.notify("warning", RELOAD_WHILE_STREAMING_TEXT);
		return;
	}
	host.status.show("Reloading...");
	try {
		await session.reload();
		host.reloadKeybindings();
		host.reloadThemes();
		host.applyUiSettings();
		host.refreshAutocomplete();
		host.reportModelsJsonError();
		host.notify("status", RELOADED_TEXT);
	} catch (error) {
		host.notify("error", `Reload failed: ${error instanceof Error ? error.message : String(error)}`);
		// models.json may have been read again before the failure.
		host.reportModelsJsonError();
	} finally {
		host.status.hide();
	}
}
