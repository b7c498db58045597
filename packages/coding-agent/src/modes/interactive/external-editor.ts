// Ctrl+G: edit the prompt in $VISUAL / $EDITOR. The terminal is handed over to the editor while it runs; on
// exit status 0 the file's text (one trailing newline removed) replaces the prompt.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TUI } from "@agent/tui";
import type { DialogHost, EditorHost, NoticeHost } from "./mode-host.js";

export const NO_EDITOR_CONFIGURED_TEXT = "No editor configured. Set $VISUAL or $EDITOR environment variable.";

/** `$VISUAL`, else `$EDITOR`, split on spaces into a command and its arguments. */
export function editorCommand(env: Record<string, string | undefined>): string[] | undefined {
	const value = (env.VISUAL || env.EDITOR || "").trim();
	return value ? value.split(/\s+/) : undefined;
}

/**
 * Runs the editor on a temp file holding `text` and returns the edited text, or undefined when the editor
 * failed or exited with a non-zero status. The caller suspends the TUI around this call.
 */
export function editInExternalEditor(text: string, command: string[]): string | undefined {
	const path = join(tmpdir(), `agent-editor-${Date.now()}.agent.md`);
	writeFileSync(path, text);
	try {
		const [program, ...args] = command;
		const result = spawnSync(program as string, [...args, path], { stdio: "inherit" });
		if (result.error || result.status !== 0) return undefined;
		const edited = readFileSync(path, "utf8");
		return edited.endsWith("\n") ? edited.slice(0, -1) : edited;
	} finally {
		rmSync(path, { force: true });
	}
}

/** Ctrl+G: the TUI is stopped while the editor runs; a warning when no editor is configured. */
export function editPromptExternally(
	host: NoticeHost & Pick<DialogHost, "tui"> & Pick<EditorHost, "editor">,
	env: Record<string, string | undefined>,
): void {
	const command = editorCommand(env);
	if (!command) {
		host.notify("warning", NO_EDITOR_CONFIGURED_TEXT);
		return;
	}
	const edited = editWithTuiStopped(host.tui, host.editor.getExpandedText(), command);
	if (edited !== undefined) host.editor.setText(edited);
}

/** Hands the terminal to the editor on `text` and takes it back; the edited text, or undefined. */
export function editWithTuiStopped(tui: TUI, text: string, command: string[]): string | undefined {
	tui.stop();
	try {
		return editInExternalEditor(text, command);
	} finally {
		tui.start();
		tui.requestRender(true);
	}
}
