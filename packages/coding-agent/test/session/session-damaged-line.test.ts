// A damaged line in the middle of a session file (a disk error, a bad hand edit) loses that one entry, never
// the history before it: entries whose parent was on the damaged line hang on the last good entry before it.
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
	buildSessionContext,
	formatSessionFileDiagnostic,
	loadEntriesFromFile,
	SessionManager,
} from "../../src/core/session/index.js";
import { assistantMessage, userMessage, useTempDirs } from "../helpers/session-fixtures.js";

const tempDir = useTempDirs();

/** A session on disk with three exchanges; returns the file and its lines (header first). */
function writeThreeExchanges(): { file: string; lines: string[] } {
	const session = SessionManager.create("/p", tempDir());
	for (const n of [1, 2, 3]) {
		session.appendMessage(userMessage(`question ${n}`));
		session.appendMessage(assistantMessage(`answer ${n}`));
	}
	session.close();
	const file = session.getSessionFile() as string;
	return { file, lines: readFileSync(file, "utf8").split("\n") };
}

function contextTexts(manager: SessionManager): string[] {
	const { messages } = buildSessionContext(manager.getEntries(), manager.getLeafId());
	return messages.map((message) => {
		if (message.role !== "user" && message.role !== "assistant") return message.role;
		const content = message.content;
		return typeof content === "string"
			? content
			: content.map((block) => ("text" in block ? block.text : "")).join("");
	});
}

describe("a damaged line in the middle of a session file", () => {
	it("loses only its own entry: what came before stays in the context, with a warning naming file:line", () => {
		const { file, lines } = writeThreeExchanges();
		// Line 4 is "question 2" (header, question 1, answer 1, question 2, …): cut it off mid-object.
		lines[3] = (lines[3] as string).slice(0, 40);
		const damaged = lines.join("\n");
		writeFileSync(file, damaged);

		const reopened = SessionManager.open(file);
		expect(contextTexts(reopened)).toEqual(["question 1", "answer 1", "answer 2", "question 3", "answer 3"]);
		expect(reopened.getLoadDiagnostics().map(formatSessionFileDiagnostic)).toEqual([
			expect.stringMatching(new RegExp(`^${escapeRegExp(file)}:4: not valid JSON .*; line skipped$`)),
			expect.stringMatching(
				new RegExp(
					`^${escapeRegExp(file)}:5: parent [0-9a-f]{8} was lost with damaged line 4; attached to the entry on line 3$`,
				),
			),
		]);
		reopened.close();
		// Opening repairs the tree in memory only: the file keeps every byte.
		expect(readFileSync(file, "utf8")).toBe(damaged);
	});

	it("attaches across several damaged lines to the last good entry before the nearest one", () => {
		const { file, lines } = writeThreeExchanges();
		lines[2] = "garbage {"; // answer 1
		lines[3] = "42"; // question 2
		lines[5] = '{"type":"message","parentId":'; // question 3
		writeFileSync(file, lines.join("\n"));
		const reopened = SessionManager.open(file);
		expect(contextTexts(reopened)).toEqual(["question 1", "answer 2", "answer 3"]);
		reopened.close();
	});

	it("new entries continue the repaired branch, a reload gives the same context, the file keeps its parents", () => {
		const { file, lines } = writeThreeExchanges();
		const lostId = (JSON.parse(lines[3] as string) as { id: string }).id;
		lines[3] = "{ damaged";
		writeFileSync(file, lines.join("\n"));
		const reopened = SessionManager.open(file);
		reopened.appendMessage(userMessage("question 4"));
		reopened.appendMessage(assistantMessage("answer 4"));
		const before = contextTexts(reopened);
		reopened.close();
		expect(before).toEqual([
			"question 1",
			"answer 1",
			"answer 2",
			"question 3",
			"answer 3",
			"question 4",
			"answer 4",
		]);
		const again = SessionManager.open(file);
		expect(contextTexts(again)).toEqual(before);
		again.close();
		const answer2 = readFileSync(file, "utf8").split("\n")[4] as string;
		expect(JSON.parse(answer2)).toMatchObject({ parentId: lostId });
		expect(loadEntriesFromFile(file)).toHaveLength(1 + 7);
	});

	it("leaves alone an entry whose parent exists, and a missing parent with no damaged line before it", () => {
		const { file, lines } = writeThreeExchanges();
		const orphan = JSON.parse(lines[6] as string) as Record<string, unknown>;
		orphan.parentId = "ffffffff";
		lines[6] = JSON.stringify(orphan); // answer 3 now points at an id that never existed
		writeFileSync(file, lines.join("\n"));
		const reopened = SessionManager.open(file);
		expect(reopened.getLoadDiagnostics()).toEqual([]);
		expect(reopened.getEntries().find((entry) => entry.id === orphan.id)?.parentId).toBe("ffffffff");
		reopened.close();
	});
});

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
