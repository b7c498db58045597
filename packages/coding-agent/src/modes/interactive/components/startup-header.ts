// The first lines of a session: name and version, the main keys, and what was loaded (context files, skills,
// prompt templates, extensions), plus startup warnings. `quietStartup` hides all but the warnings.
import { CachedComponent } from "@agent/tui";
import { type DisplayState, keyHint } from "../display-state.js";
import { wrapLines } from "./render-utils.js";

export interface StartupInfo {
	appName: string;
	version: string;
	contextFiles: string[];
	skills: string[];
	promptTemplates: string[];
	extensions: string[];
	/** `Model scope: …` line, when a scope exists. */
	modelScope?: string;
}

export class StartupHeaderComponent extends CachedComponent {
	constructor(
		private readonly state: DisplayState,
		private readonly info: StartupInfo,
		private readonly quiet: boolean,
	) {
		super();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		const lines: string[] = [];
		if (!this.quiet) {
			lines.push(`${theme.bold(theme.fg("accent", this.info.appName))}${theme.fg("dim", ` v${this.info.version}`)}`);
			const hint = (action: Parameters<typeof keyHint>[1], text: string) =>
				`${theme.fg("dim", keyHint(this.state, action))}${theme.fg("muted", ` ${text}`)}`;
			lines.push(
				[
					hint("interrupt", "to interrupt"),
					hint("clear", "to clear"),
					`${hint("clear", "twice")}${theme.fg("muted", " to exit")}`,
					hint("cycleModelForward", "to cycle models"),
					hint("cycleThinkingLevel", "to cycle thinking"),
					hint("expandTools", "to expand tools"),
					`${theme.fg("dim", "/")}${theme.fg("muted", " for commands")}`,
					`${theme.fg("dim", "!")}${theme.fg("muted", " to run bash")}`,
				].join(theme.fg("dim", " • ")),
			);
			const section = (title: string, items: string[]) => {
				if (items.length === 0) return;
				lines.push("");
				lines.push(theme.fg("accent", `[${title}]`));
				for (const item of items) lines.push(theme.fg("dim", `  ${item}`));
			};
			section("Context", this.info.contextFiles);
			section("Skills", this.info.skills);
			section("Prompts", this.info.promptTemplates);
			section("Extensions", this.info.extensions);
		}
		if (this.info.modelScope && !this.quiet) {
			lines.push("");
			lines.push(theme.fg("dim", this.info.modelScope));
		}
		return lines.length > 0
			? wrapLines(
					lines.map((line) => ` ${line}`),
					width,
				)
			: [];
	}
}
