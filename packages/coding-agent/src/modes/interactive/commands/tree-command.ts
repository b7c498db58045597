// `/tree` (and Esc Esc on an empty editor): pick a point in the session tree, optionally summarize the branch
// being left, and continue from there (docs/compaction.md "Branch summaries").
import type { SessionEntry } from "../../../core/session/entries.js";
import { keyHint } from "../display-state.js";
import type { DialogHost, EditorHost, NoticeHost, SelectorHandle, SessionHost, TranscriptHost } from "../mode-host.js";
import { inputDialog, selectDialog } from "../selectors/dialogs.js";
import { TreeSelector } from "../selectors/tree-selector.js";
import { askToRestoreFiles, reportRestore, showConflicts } from "./file-restore.js";

export const SUMMARIZE_BRANCH_TITLE = "Summarize branch?";
export const NO_SUMMARY = "No summary";
export const SUMMARIZE = "Summarize";
export const SUMMARIZE_CUSTOM = "Summarize with custom prompt";
export const CUSTOM_INSTRUCTIONS_TITLE = "Custom summarization instructions";
export const SUMMARIZE_BRANCH_HINT = "↑↓ to move · Enter to select · Esc to go back to the tree";

type SummaryChoice = { summarize: false } | { summarize: true; customInstructions?: string };

/** Asks whether to summarize the branch left behind; undefined = back to the tree. */
async function askForSummary(host: DialogHost): Promise<SummaryChoice | undefined> {
	for (;;) {
		const choice = await selectDialog(host, SUMMARIZE_BRANCH_TITLE, [NO_SUMMARY, SUMMARIZE, SUMMARIZE_CUSTOM], {
			hint: SUMMARIZE_BRANCH_HINT,
		});
		if (choice === undefined) return undefined;
		if (choice === NO_SUMMARY) return { summarize: false };
		if (choice === SUMMARIZE) return { summarize: true };
		const instructions = await inputDialog(host, CUSTOM_INSTRUCTIONS_TITLE);
		// Esc on the instructions goes back to the question.
		if (instructions === undefined) continue;
		return { summarize: true, customInstructions: instructions };
	}
}

export function openTreeNavigator(host: NoticeHost & SessionHost & DialogHost & EditorHost & TranscriptHost): void {
	const { session } = host;
	const manager = session.sessionManager;
	let handle: SelectorHandle | undefined;
	let isBusy = false;
	const selector = new TreeSelector({
		state: host.state,
		getTree: () => manager.getTree(),
		getBranch: () => manager.getBranch(),
		getLeafId: () => manager.getLeafId(),
		initialFilter: session.settingsManager.getTreeFilterMode(),
		terminalRows: () => host.tui.terminal.rows,
		onCancel: () => handle?.close(),
		setLabel: (entryId, label) => session.setLabel(entryId, label),
		onSelect: (entry) => {
			if (isBusy) return;
			isBusy = true;
			void navigateTo(host, entry, () => handle?.close()).finally(() => {
				isBusy = false;
			});
		},
	});
	handle = host.showSelector(selector);
}

async function navigateTo(
	host: NoticeHost & SessionHost & DialogHost & EditorHost & TranscriptHost,
	entry: SessionEntry,
	closeTree: () => void,
): Promise<void> {
	const { session } = host;
	if (entry.id === session.sessionManager.getLeafId()) {
		closeTree();
		host.notify("status", "Already at this point");
		return;
	}
	let choice: SummaryChoice = { summarize: false };
	if (!session.settingsManager.getBranchSummarySettings().skipPrompt) {
		const asked = await askForSummary(host);
		if (!asked) return;
		choice = asked;
	}
	// Ours: files changed since that point can go back with the conversation (docs/checkpoints.md).
	const files = await askToRestoreFiles(host, session.checkpoints.previewNavigation(entry.id));
	if (!files) return;
	if (choice.summarize) {
		host.status.show(`Summarizing branch... (${keyHint(host.state, "interrupt")} to cancel)`);
	}
	try {
		const result = await session.navigateTree(entry.id, {
			summarize: choice.summarize,
			...(choice.summarize && choice.customInstructions ? { customInstructions: choice.customInstructions } : {}),
			...(files.restoreFiles ? { restoreFiles: true, forceRestore: files.force } : {}),
		});
		if (result.cancelled) {
			if (result.aborted) host.notify("status", "Branch summarization cancelled");
			if (result.files && result.files.conflicts.length > 0) {
				showConflicts(host, result.files);
				host.notify("warning", "Files changed outside the agent meanwhile; nothing was done.");
			}
			// Back to the tree: it is still open under the dialogs.
			return;
		}
		closeTree();
		host.rebuildTranscript();
		if (result.editorText !== undefined && host.editor.getText().trim() === "")
			host.editor.setText(result.editorText);
		host.refreshEditorBorder();
		host.notify("status", "Navigated to selected point");
		if (result.files) reportRestore(host, result.files);
	} catch (error) {
		host.notify("error", error instanceof Error ? error.message : String(error));
	} finally {
		if (choice.summarize) host.status.hide();
	}
}
