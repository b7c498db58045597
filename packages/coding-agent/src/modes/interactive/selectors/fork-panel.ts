// The /fork list: the user's messages, newest first, each on one line; typing searches.
import type { DisplayState } from "../display-state.js";
import { SelectPanel } from "./select-panel.js";

export interface ForkCandidate {
	entryId: string;
	text: string;
}

export function forkPanel(
	state: DisplayState,
	candidates: readonly ForkCandidate[],
	on: { onSelect(entryId: string): void; onCancel(): void },
): SelectPanel {
	return new SelectPanel(state, {
		title: "Fork from message",
		items: candidates
			.map((candidate) => ({ value: candidate.entryId, label: candidate.text.replace(/\s+/g, " ").trim() }))
			.reverse(),
		hint: "Type to search · Enter to fork · Esc to cancel",
		onSelect: (item) => on.onSelect(item.value),
		onCancel: () => on.onCancel(),
	});
}
