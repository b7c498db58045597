// An extension's message (`role: "custom"`, `display: true`): drawn by the renderer its extension registered
// for the type, else its type as a label and its content as markdown.
import { CachedComponent, type Component, Markdown } from "@agent/tui";
import type { CustomMessage } from "../../../core/messages.js";
import type { DisplayState } from "../display-state.js";
import { boxLines } from "./render-utils.js";
import { userContentText } from "./user-message.js";

export class CustomMessageComponent extends CachedComponent {
	private markdown: Markdown | undefined;
	private custom: Component | undefined;
	private customExpanded: boolean | undefined;

	constructor(
		private readonly state: DisplayState,
		private readonly message: CustomMessage,
	) {
		super();
	}

	override invalidate(): void {
		this.markdown = undefined;
		this.custom = undefined;
		super.invalidate();
	}

	protected renderLines(width: number): string[] {
		const custom = this.customComponent();
		if (custom) return ["", ...custom.render(width)];
		const { theme } = this.state;
		this.markdown ??= new Markdown(userContentText(this.message.content), 0, 0, theme.getMarkdownTheme(), {
			color: theme.fgStyle("customMessageText"),
		});
		const markdown = this.markdown;
		const label = theme.bold(theme.fg("customMessageLabel", `[${this.message.customType}]`));
		return [
			"",
			...boxLines(width, (inner) => [label, ...markdown.render(inner)], {
				paddingX: 1,
				paddingY: 1,
				background: theme.bgStyle("customMessageBg"),
			}),
		];
	}

	private customComponent(): Component | undefined {
		const renderer = this.state.extensionRenderers?.messageRenderer(this.message.customType);
		if (!renderer) return undefined;
		if (this.custom && this.customExpanded === this.state.toolsExpanded) return this.custom;
		try {
			this.custom = renderer(this.message, { expanded: this.state.toolsExpanded }, this.state.theme);
		} catch {
			// A failing renderer falls back to the default look.
			this.custom = undefined;
		}
		this.customExpanded = this.state.toolsExpanded;
		return this.custom;
	}
}
