// Compaction and branch summaries in the transcript: a one-line label while collapsed, the summary as markdown
// when tool output is expanded.
import { CachedComponent, Markdown } from "@agent/tui";
import { BlockExpansion, type DisplayState, type ExpandableBlock, keyHint } from "../display-state.js";
import { boxLines, formatTokenCount } from "./render-utils.js";

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

	override invalidate(): void {
		this.markdown = undefined;
		super.invalidate();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		const label =
			this.kind === "compaction"
				? `[compaction] Compacted from ${formatTokenCount(this.tokensBefore ?? 0)} tokens`
				: "[branch summary] Summary of the branch left behind";
		const header = theme.bold(theme.fg("customMessageLabel", label));
		if (!this.expansion.isExpanded) {
			const hint = theme.fg("muted", ` (${keyHint(this.state, "expandTools")} to expand)`);
			return [
				"",
				...boxLines(width, () => [header + hint], {
					paddingX: 1,
					paddingY: 1,
					background: theme.bgStyle("customMessageBg"),
				}),
			];
		}
		this.markdown ??= new Markdown(this.summary, 0, 0, theme.getMarkdownTheme(), {
			color: theme.fgStyle("customMessageText"),
		});
		const markdown = this.markdown;
		return [
			"",
			...boxLines(width, (inner) => [header, "", ...markdown.render(inner)], {
				paddingX: 1,
				paddingY: 1,
				background: theme.bgStyle("customMessageBg"),
			}),
		];
	}
}
