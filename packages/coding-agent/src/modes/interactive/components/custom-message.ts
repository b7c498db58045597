// An extension's message (`role: "custom"`, `display: true`): its type as a label, its content as markdown.
import type { ImageContent, TextContent } from "@agent/ai";
import { CachedComponent, Markdown } from "@agent/tui";
import type { DisplayState } from "../display-state.js";
import { boxLines } from "./render-utils.js";
import { userContentText } from "./user-message.js";

export class CustomMessageComponent extends CachedComponent {
	private markdown: Markdown | undefined;

	constructor(
		private readonly state: DisplayState,
		private readonly customType: string,
		private readonly content: string | (TextContent | ImageContent)[],
	) {
		super();
	}

	override invalidate(): void {
		this.markdown = undefined;
		super.invalidate();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		this.markdown ??= new Markdown(userContentText(this.content), 0, 0, theme.getMarkdownTheme(), {
			color: theme.fgStyle("customMessageText"),
		});
		const markdown = this.markdown;
		const label = theme.bold(theme.fg("customMessageLabel", `[${this.customType}]`));
		return [
			"",
			...boxLines(width, (inner) => [label, ...markdown.render(inner)], {
				paddingX: 1,
				paddingY: 1,
				background: theme.bgStyle("customMessageBg"),
			}),
		];
	}
}
