// One-line (wrapped) messages in the transcript: status ("Switched to …"), info, warnings and errors.
import { CachedComponent } from "@agent/tui";
import type { DisplayState } from "../display-state.js";
import { wrapLines } from "./render-utils.js";

export type NoticeKind = "status" | "info" | "warning" | "error";

export class NoticeComponent extends CachedComponent {
	constructor(
		private readonly state: DisplayState,
		readonly kind: NoticeKind,
		private text: string,
	) {
		super();
	}

	getText(): string {
		return this.text;
	}

	setText(text: string): void {
		if (text === this.text) return;
		this.text = text;
		this.markChanged();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		const style =
			this.kind === "error"
				? theme.fgStyle("error")
				: this.kind === "warning"
					? theme.fgStyle("warning")
					: this.kind === "status"
						? theme.fgStyle("dim")
						: theme.fgStyle("muted");
		const inner = Math.max(1, width - 1);
		const lines = wrapLines(
			this.text.split("\n").map((line) => style(line)),
			inner,
		).map((line) => ` ${line}`);
		return ["", ...lines];
	}
}
