// The application's key actions in the main editor (docs/keybindings.md "Application actions"). Each returns true
// when it handled the key; false lets the editor have it (Esc closing the autocomplete, Ctrl+D deleting).

import { modeChangedText } from "../../core/permissions/messages.js";
import { PERMISSION_MODE_NAMES } from "../../core/permissions/modes.js";
import { saveClipboardImage } from "./clipboard.js";
import { runFork, runNew, runResume } from "./commands/session-commands.js";
import { openTreeNavigator } from "./commands/tree-command.js";
import type { InputController } from "./input-controller.js";
import type { AppAction } from "./keybindings.js";
import type {
	DialogHost,
	EditorHost,
	FooterHost,
	LifecycleHost,
	NoticeHost,
	SessionHost,
	TranscriptHost,
} from "./mode-host.js";
import { openModelSelector } from "./selectors/model-selector.js";

/** Two presses of Esc or Ctrl+C within this time count as a double press. */
export const DOUBLE_PRESS_MS = 500;

export const THINKING_NOT_SUPPORTED_TEXT = "Current model does not support thinking";

export function restoredQueuedText(count: number): string {
	return `Restored ${count} queued message${count === 1 ? "" : "s"} to editor`;
}

export class KeyActions {
	private lastEscapeAt = 0;
	private lastClearAt = 0;

	constructor(
		private readonly host: NoticeHost &
			SessionHost &
			DialogHost &
			EditorHost &
			TranscriptHost &
			FooterHost &
			LifecycleHost,
		private readonly input: InputController,
		private readonly now: () => number = Date.now,
	) {}

	handle(action: AppAction): boolean {
		const { host } = this;
		switch (action) {
			case "interrupt":
				return this.interrupt();
			case "clear":
				return this.clear();
			case "exit":
				if (host.editor.getText().length > 0) return false;
				void host.quit(0);
				return true;
			case "suspend":
				host.suspend();
				return true;
			case "cycleThinkingLevel":
				this.cycleThinking();
				return true;
			case "cycleModelForward":
			case "cycleModelBackward":
				void this.cycleModel(action === "cycleModelForward" ? "forward" : "backward");
				return true;
			case "selectModel":
				openModelSelector(host);
				return true;
			case "expandTools":
				host.setToolsExpanded(!host.state.toolsExpanded);
				return true;
			case "toggleThinking":
				host.setHideThinking(!host.state.hideThinking);
				return true;
			case "externalEditor":
				host.openExternalEditor();
				return true;
			case "followUp": {
				const text = host.editor.getExpandedText();
				if (!text.trim()) return true;
				host.editor.setText("");
				this.input.submit(text, "followUp");
				return true;
			}
			case "dequeue":
				this.restoreQueued(true);
				return true;
			case "pasteImage": {
				const path = saveClipboardImage({ env: host.options.env ?? process.env });
				if (path) host.editor.insertTextAtCursor(path);
				return true;
			}
			case "newSession":
				void runNew(host);
				return true;
			case "tree":
				openTreeNavigator(host);
				return true;
			case "fork":
				runFork(host);
				return true;
			case "resume":
				runResume(host);
				return true;
			case "scrollUp":
				return host.scrollTranscript(-1);
			case "scrollDown":
				return host.scrollTranscript(1);
			case "searchTranscript":
				return host.openTranscriptSearch();
			case "cyclePermissionMode": {
				const mode = host.session.permissions.cycleMode();
				host.notify("status", modeChangedText(mode, PERMISSION_MODE_NAMES[mode]));
				return true;
			}
			case "toggleSessionNamedFilter":
				return false;
			default:
				return false;
		}
	}

	private interrupt(): boolean {
		const { host } = this;
		const { session, editor } = host;
		if (editor.isShowingAutocomplete()) return false;
		if (session.isCompacting) {
			session.abortCompaction();
			return true;
		}
		if (session.isRetrying) {
			session.abortRetry();
			return true;
		}
		if (session.isStreaming) {
			this.restoreQueued(false);
			void session.abort();
			return true;
		}
		if (this.input.abortBash()) return true;
		const text = editor.getText();
		if (text.trimStart().startsWith("!")) {
			editor.setText("");
			host.refreshEditorBorder();
			return true;
		}
		if (text.length === 0) {
			const now = this.now();
			if (now - this.lastEscapeAt < DOUBLE_PRESS_MS) {
				this.lastEscapeAt = 0;
				this.doubleEscape();
			} else {
				this.lastEscapeAt = now;
			}
		}
		return true;
	}

	private doubleEscape(): void {
		const action = this.host.session.settingsManager.getDoubleEscapeAction();
		if (action === "tree") openTreeNavigator(this.host);
		else if (action === "fork") runFork(this.host);
	}

	private clear(): boolean {
		const { host } = this;
		const now = this.now();
		if (now - this.lastClearAt < DOUBLE_PRESS_MS) {
			void host.quit(0);
			return true;
		}
		this.lastClearAt = now;
		host.editor.setText("");
		host.refreshEditorBorder();
		return true;
	}

	private cycleThinking(): void {
		const { host } = this;
		const level = host.session.cycleThinkingLevel();
		if (level === undefined) {
			host.notify("status", THINKING_NOT_SUPPORTED_TEXT);
			return;
		}
		host.notify("status", `Thinking level: ${level}`);
		host.refreshEditorBorder();
	}

	private async cycleModel(direction: "forward" | "backward"): Promise<void> {
		const { host } = this;
		const { session } = host;
		try {
			const result = await session.cycleModel(direction);
			if (!result) {
				host.notify(
					"status",
					session.scopedModels.length > 0 ? "Only one model in scope" : "Only one model available",
				);
				return;
			}
			const name = result.model.name || result.model.id;
			const thinking =
				result.model.reasoning && result.thinkingLevel !== "off" ? ` (thinking: ${result.thinkingLevel})` : "";
			host.notify("status", `Switched to ${name}${thinking}`);
			host.refreshEditorBorder();
		} catch (error) {
			host.notify("error", error instanceof Error ? error.message : String(error));
		}
	}

	/** Alt+Up, and Esc while the agent works: queued messages back into the editor, above its text. */
	private restoreQueued(reportEmpty: boolean): void {
		const { host } = this;
		const { steering, followUp } = host.session.clearQueue();
		const queued = [...steering, ...followUp];
		host.refreshPending();
		if (queued.length === 0) {
			if (reportEmpty) host.notify("status", "No queued messages to restore");
			return;
		}
		const current = host.editor.getText();
		host.editor.setText([...queued, ...(current.trim() ? [current] : [])].join("\n\n"));
		host.notify("status", restoredQueuedText(queued.length));
	}
}
