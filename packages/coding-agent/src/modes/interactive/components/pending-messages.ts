// Messages queued while the agent works, shown above the editor until the model receives them.
import { CachedComponent, truncateToWidth } from "@agent/tui";
import { type DisplayState, keyHint } from "../display-state.js";

export class PendingMessagesComponent extends CachedComponent {
	private steering: readonly string[] = [];
	private followUp: readonly string[] = [];
	private bashCommands: readonly string[] = [];

	constructor(private readonly state: DisplayState) {
		super();
	}

	get isEmpty(): boolean {
		return this.steering.length + this.followUp.length + this.bashCommands.length === 0;
	}

	setQueues(steering: readonly string[], followUp: readonly string[], bashCommands: readonly string[] = []): void {
		const same =
			sameList(steering, this.steering) &&
			sameList(followUp, this.followUp) &&
			sameList(bashCommands, this.bashCommands);
		if (same) return;
		this.steering = [...steering];
		this.followUp = [...followUp];
		this.bashCommands = [...bashCommands];
		this.markChanged();
	}

	protected renderLines(width: number): string[] {
		if (this.isEmpty) return [];
		const { theme } = this.state;
		const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
		const lines: string[] = [""];
		for (const text of this.steering)
			lines.push(truncateToWidth(` ${theme.fg("dim", "Steering:")} ${oneLine(text)}`, width));
		for (const text of this.followUp)
			lines.push(truncateToWidth(` ${theme.fg("dim", "Follow-up:")} ${oneLine(text)}`, width));
		for (const command of this.bashCommands)
			lines.push(truncateToWidth(` ${theme.fg("dim", "Bash:")} ${theme.fg("bashMode", oneLine(command))}`, width));
		if (this.steering.length + this.followUp.length > 0) {
			const key = keyHint(this.state, "dequeue");
			lines.push(truncateToWidth(theme.fg("dim", ` ↳ ${key} to edit all queued messages`), width));
		}
		return lines;
	}
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
	return a.length === b.length && a.every((value, index) => value === b[index]);
}
