// A user's message: markdown on the user-message background, after a blank line.
import type { ImageContent, TextContent } from "@agent/ai";
import { CachedComponent, Markdown } from "@agent/tui";
import type { DisplayState } from "../display-state.js";
import { boxLines } from "./render-utils.js";

export function userContentText(content: string | (TextContent | ImageContent)[]): string {
	if (typeof content === "string") return content;
	return content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
}

export function imageCount(content: string | (TextContent | ImageContent)[]): number {
	return typeof content === "string" ? 0 : content.filter((block) => block.type === "image").length;
}

export class UserMessageComponent extends CachedComponent {
	private markdown: Markdown | undefined;

	constructor(
		private readonly state: DisplayState,
		private readonly text: string,
		private readonly images = 0,
	) {
		super();
	}

	getText(): string {
		return this.text;
	}

	override invalidate(): void {
		this.markdown = undefined;
		super.invalidate();
	}

	protected renderLines(width: number): string[] {
		const theme = this.state.theme;
		this.markdown ??= new Markdown(
			this.text,
			0,
			0,
			theme.getMarkdownTheme({ codeBlockIndent: this.state.codeBlockIndent }),
			{
				color: theme.fgStyle("userMessageText"),
			},
		);
		const markdown = this.markdown;
		const attachments =
			this.images > 0 ? [theme.fg("muted", `[${this.images} image${this.images === 1 ? "" : "s"} attached]`)] : [];
		const body = boxLines(width, (inner) => [...markdown.render(inner), ...attachments], {
			paddingX: 1,
			paddingY: 1,
			background: theme.bgStyle("userMessageBg"),
		});
		return ["", ...body];
	}
}
