// Compaction and branch summaries in the transcript: `[compaction]` or `[branch]`, a blank line, then
// `Compacted from 1,050 tokens (Ctrl+O to expand)` while collapsed or the summary as markdown when expanded.
import type { DisplayState } from "../display-state.js";
import { CollapsibleBlock } from "./collapsible-block.js";

export class SummaryMessageComponent extends CollapsibleBlock {
	constructor(state: DisplayState, kind: "compaction" | "branch", summary: string, tokensBefore?: number) {
		// `1,050` as the reference writes it (en-US grouping whatever the locale, so tests and docs agree).
		const tokens = (tokensBefore ?? 0).toLocaleString("en-US");
		const subject = kind === "compaction" ? `Compacted from ${tokens} tokens` : "Branch summary";
		super(state, {
			label: kind === "compaction" ? "[compaction]" : "[branch]",
			subject,
			markdown: kind === "compaction" ? `**${subject}**\n\n${summary}` : summary,
			gapAfterLabel: true,
		});
	}
}
