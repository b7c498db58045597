// Compaction and branch summaries in the transcript, on the custom-message background: the label (`[compaction]`,
// `[branch]`), a blank line, then `Compacted from 1,050 tokens (Ctrl+O to expand)` while collapsed or the summary
// as markdown when expanded (Ctrl+O, or a click on it in the full-screen mode).
import { CachedComponent, Markdown } from "@agent/tui";
import { BlockExpansion, type DisplayState, type ExpandableBlock, keyHint } from "../display-state.js";
import { boxLines, wrapLines } from "./render-utils.js";

export class SummaryMessageComponent extends CachedComponent implements ExpandableBlock {
	private markdown: Markdown | undefined;
	private readonly expansion: BlockExpansion;

	constructor(
		private readonly state: DisplayState,
		private readonly kind: "compaction" | "branch",
		private readonly summary: string,
		private readonly tokensBefore?: number,
	) {
		super();
		this.expansion = new BlockExpansion(state);
	}

	toggleExpanded(): void {
		this.expansion.toggle();
		this.markChanged();
	}

	resetExpanded(): void {
		this.expansion.reset();
		this.markChanged();
	}

	override invalidate(): void {
		this.markdown = undefined;
		super.invalidate();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		const label = theme.bold(
			theme.fg("customMessageLabel", this.kind === "compaction" ? "[compaction]" : "[branch]"),
		);
		// `1,050` as the reference writes it (en-US grouping whatever the locale, so tests and docs agree).
		const tokens = (this.tokensBefore ?? 0).toLocaleString("en-US");
		const subject = this.kind === "compaction" ? `Compacted from ${tokens} tokens` : "Branch summary";
		const box = (content: (inner: number) => string[]) => [
			"",
			...boxLines(width, content, { paddingX: 1, paddingY: 1, background: theme.bgStyle("customMessageBg") }),
		];
		if (!this.expansion.isExpanded) {
			const line =
				theme.fg("customMessageText", `${subject} (`) +
				theme.fg("dim", keyHint(this.state, "expandTools")) +
				theme.fg("customMessageText", " to expand)");
			return box((inner) => [label, "", ...wrapLines([line], inner)]);
		}
		this.markdown ??= new Markdown(
			this.kind === "compaction" ? `**${subject}**\n\n${this.summary}` : this.summary,
			0,
			0,
			theme.getMarkdownTheme(),
			{ color: theme.fgStyle("customMessageText") },
		);
		const markdown = this.markdown;
		return box((inner) => [label, "", ...markdown.render(inner)]);
	}
}
