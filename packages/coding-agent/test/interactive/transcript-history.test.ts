import type { AgentMessage } from "@agent/agent-core";
import { describe, expect, it } from "vitest";
import { NoticeComponent } from "../../src/modes/interactive/components/notice.js";
import { HISTORY_ROW_BUDGET, Transcript } from "../../src/modes/interactive/transcript.js";
import { createDisplayState } from "../helpers/interactive-display.js";
import { assistantMessage, userMessage } from "../helpers/session-fixtures.js";

function conversation(pairs: number): AgentMessage[] {
	const messages: AgentMessage[] = [];
	for (let i = 0; i < pairs; i++) messages.push(userMessage(`question ${i}`), assistantMessage(`answer ${i}`));
	return messages;
}

describe("rebuilding the transcript", () => {
	it("draws a short session in full", () => {
		const transcript = new Transcript(createDisplayState());
		transcript.showMessages(conversation(5), 100);
		expect(transcript.children).toHaveLength(10);
		expect(transcript.render(100).join("\n")).toContain("question 0");
	});

	it("draws the newest messages of a long one within the row budget and sums up the rest in one line", () => {
		const transcript = new Transcript(createDisplayState());
		transcript.showMessages(conversation(2500), 100);
		const lines = transcript.render(100);
		expect(lines.length).toBeLessThan(HISTORY_ROW_BUDGET + 50);
		const first = transcript.children[0];
		expect(first).toBeInstanceOf(NoticeComponent);
		const shown = transcript.children.length - 1;
		expect((first as NoticeComponent).getText()).toBe(
			`↑ ${(5000 - shown).toLocaleString("en-US")} earlier messages not shown (use /tree to browse the whole session)`,
		);
		expect(lines.join("\n")).toContain("answer 2499");
		expect(lines.join("\n")).not.toContain("question 0\n");
	});

	it("trims a transcript that grew long before everything is drawn again, counting what it drops", () => {
		const transcript = new Transcript(createDisplayState());
		transcript.showMessages(conversation(2500), 100);
		const notice = transcript.children[0] as NoticeComponent;
		const before = Number(/↑ ([\d,]+)/.exec(notice.getText())?.[1]?.replaceAll(",", ""));
		for (const message of conversation(300)) transcript.appendMessage(message);
		transcript.trimHistory(100);
		const after = Number(
			/↑ ([\d,]+)/.exec((transcript.children[0] as NoticeComponent).getText())?.[1]?.replaceAll(",", ""),
		);
		expect(after).toBe(before + 600);
		expect(transcript.render(100).length).toBeLessThan(HISTORY_ROW_BUDGET + 50);
	});
});
