// An expanded skill block (`/skill:<name>`) shown collapsed on the custom-message background: `[skill]`, then the
// skill's name and how to expand it, or its instructions as markdown when expanded. The user's own text after the
// block is a user message of its own.
import type { ParsedSkillBlock } from "../../../core/resources/skill-prompt.js";
import type { DisplayState } from "../display-state.js";
import { CollapsibleBlock } from "./collapsible-block.js";

export class SkillBlockComponent extends CollapsibleBlock {
	constructor(state: DisplayState, skill: ParsedSkillBlock) {
		super(state, {
			label: "[skill]",
			subject: skill.name,
			markdown: `**${skill.name}** · ${skill.location}\n\n${skill.content}`,
			gapAfterLabel: false,
		});
	}
}
