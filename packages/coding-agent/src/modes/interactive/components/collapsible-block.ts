// A block on the custom-message background under a bold label (`[compaction]`, `[branch]`, `[skill]`): collapsed, one
// line naming it and the key that expands it; expanded (Ctrl+O, or a click on it in the full-screen mode), its text
// as markdown.
import { Markdown } from "@agent/tui";
import { type DisplayState, ExpandableComponent, keyHint } from "../display-state.js";
import { boxLines, wrapLines } from "./render-utils.js";

export interface CollapsibleBlockContent {
	/** `[compaction]` */
	label: string;
	/** What the collapsed line names: `Compacted from 1,050 tokens`. */
	subject: string;
	/** Shown when expanded. */
	markdown: string;
	/** A blank line between the label and the content. */
	gapAfterLabel: boolean;
}

export class CollapsibleBlock extends ExpandableComponent {
	private markdown: Markdown | undefined;

	constructor(
		private readonly state: DisplayState,
		private readonly content: CollapsibleBlockContent,
	) {
		super(state);
	}

	override invalidate(): void {
		this.markdown = undefined;
		super.invalidate();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		const head = [theme.bold(theme.fg("customMessageLabel", this.content.label))];
		if (this.content.gapAfterLabel) head.push("");
		const box = (content: (inner: number) => string[]) => [
			"",
			...boxLines(width, content, { paddingX: 1, paddingY: 1, background: theme.bgStyle("customMessageBg") }),
		];
		if (!this.isExpanded) {
			const line =
				theme.fg("customMessageText", `${this.content.subject} (`) +
				theme.fg("dim", keyHint(this.state, "expandTools")) +
				theme.fg("customMessageText", " to expand)");
			return box((inner) => [...head, ...wrapLines([line], inner)]);
		}
		this.markdown ??= new Markdown(this.content.markdown, 0, 0, theme.getMarkdownTheme(), {
			color: theme.fgStyle("customMessageText"),
		});
		const markdown = this.markdown;
		return box((inner) => [...head, ...markdown.render(inner)]);
	}
}
