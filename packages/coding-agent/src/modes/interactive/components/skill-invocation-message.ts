// An expanded skill block (`/skill:<name>`) shown collapsed on the custom-message background: `[skill]`, then the
// skill's name and how to expand it, or its instructions as markdown when expanded. The user's own text after the
// block is a user message of its own.
import { CachedComponent, Markdown } from "@agent/tui";
import type { ParsedSkillBlock } from "../../../core/resources/skill-prompt.js";
import { BlockExpansion, type DisplayState, type ExpandableBlock, keyHint } from "../display-state.js";
import { boxLines, wrapLines } from "./render-utils.js";

export class SkillBlockComponent extends CachedComponent implements ExpandableBlock {
	private markdown: Markdown | undefined;
	private readonly expansion: BlockExpansion;

	constructor(
		private readonly state: DisplayState,
		private readonly skill: ParsedSkillBlock,
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
		const label = theme.bold(theme.fg("customMessageLabel", "[skill]"));
		const box = (content: (inner: number) => string[]) => [
			"",
			...boxLines(width, content, { paddingX: 1, paddingY: 1, background: theme.bgStyle("customMessageBg") }),
		];
		if (!this.expansion.isExpanded) {
			const line =
				theme.fg("customMessageText", `${this.skill.name} (`) +
				theme.fg("dim", keyHint(this.state, "expandTools")) +
				theme.fg("customMessageText", " to expand)");
			return box((inner) => [label, ...wrapLines([line], inner)]);
		}
		this.markdown ??= new Markdown(
			`**${this.skill.name}** · ${this.skill.location}\n\n${this.skill.content}`,
			0,
			0,
			theme.getMarkdownTheme(),
			{ color: theme.fgStyle("customMessageText") },
		);
		const markdown = this.markdown;
		return box((inner) => [label, ...markdown.render(inner)]);
	}
}
