// The first lines of a session: name and version, the main keys, and what was loaded (context files, skills,
// prompt templates, extensions), plus startup warnings. `quietStartup` hides all but the warnings.
import { CachedComponent, visibleWidth, wrapTextWithAnsi } from "@agent/tui";
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
	/** Whether the full-screen mode is on (its scrolling and search keys are listed then). */
	isFullscreen?: () => boolean;
}

/**
 * `hints` joined by ` • ` into lines of `width` columns that each start with one space: a line breaks between
 * hints, never inside one (unless a single hint is wider than a line, which then wraps under the indent).
 */
export function layoutHints(hints: readonly string[], separator: string, width: number): string[] {
	const inner = Math.max(1, width - 1);
	const lines: string[] = [];
	let current = "";
	for (const hint of hints) {
		const candidate = current === "" ? hint : current + separator + hint;
		if (visibleWidth(candidate) <= inner) {
			current = candidate;
			continue;
		}
		if (current !== "") lines.push(current);
		current = hint;
		if (visibleWidth(hint) > inner) {
			const rows = wrapTextWithAnsi(hint, inner);
			lines.push(...rows.slice(0, -1));
			current = rows[rows.length - 1] ?? "";
		}
	}
	if (current !== "") lines.push(current);
	return lines.map((line) => ` ${line}`);
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
		const hintRows: string[] = [];
		if (!this.quiet) {
			lines.push(`${theme.bold(theme.fg("accent", this.info.appName))}${theme.fg("dim", ` v${this.info.version}`)}`);
			const key = (text: string, what: string) => `${theme.fg("dim", text)}${theme.fg("muted", ` ${what}`)}`;
			const hint = (action: Parameters<typeof keyHint>[1], what: string) => key(keyHint(this.state, action), what);
			const hints = [
				hint("interrupt", "to interrupt"),
				hint("clear", "to clear"),
				`${hint("clear", "twice")}${theme.fg("muted", " to exit")}`,
				hint("cycleModelForward", "to cycle models"),
				hint("selectModel", "to select a model"),
				hint("cycleThinkingLevel", "to cycle thinking"),
				hint("toggleThinking", "to show/hide thinking"),
				hint("expandTools", "to expand tools"),
				hint("externalEditor", "for the external editor"),
				hint("followUp", "to queue a follow-up"),
				key("/", "for commands"),
				key("!", "to run bash"),
				key("!!", "to run bash without sending the output"),
			];
			if (this.info.isFullscreen?.()) {
				hints.push(
					key(`${keyHint(this.state, "scrollUp")}/${keyHint(this.state, "scrollDown")}`, "or the wheel to scroll"),
					hint("searchTranscript", "to search"),
					key("a click", "on a block to expand it"),
				);
			}
			hintRows.push(...layoutHints(hints, theme.fg("dim", " • "), width));
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
		if (lines.length === 0) return [];
		const wrapped = wrapLines(
			lines.map((line) => ` ${line}`),
			width,
		);
		// The hints go under the name and version line.
		return [...wrapped.slice(0, 1), ...hintRows, ...wrapped.slice(1)];
	}
}
