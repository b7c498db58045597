import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { computeEditDiff, generateDiffString } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-diff-");
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `l${i + 1}`);

describe("generateDiffString", () => {
	it("shows four lines of context around a change and marks skipped lines", () => {
		const before = numbered(20);
		const after = [...before];
		after[9] = "changed";
		expect(generateDiffString(before.join("\n"), after.join("\n"))).toEqual({
			diff: [
				"    ...",
				"  6 l6",
				"  7 l7",
				"  8 l8",
				"  9 l9",
				"-10 l10",
				"+10 changed",
				" 11 l11",
				" 12 l12",
				" 13 l13",
				" 14 l14",
				"    ...",
			].join("\n"),
			firstChangedLine: 10,
		});
	});

	it("numbers added lines in the new file and removed lines in the old one", () => {
		const { diff, firstChangedLine } = generateDiffString("a\nb\nc", "a\nx\ny\nc");
		expect(diff).toBe(" 1 a\n-2 b\n+2 x\n+3 y\n 3 c");
		expect(firstChangedLine).toBe(2);
	});

	it("keeps numbering right after an insertion far from the next change", () => {
		const before = numbered(30);
		const after = [...before.slice(0, 2), "new", ...before.slice(2)];
		after[26] = "tail change"; // old line 26
		const { diff } = generateDiffString(before.join("\n"), after.join("\n"));
		expect(diff).toContain("+ 3 new");
		expect(diff).toContain("-26 l26");
		expect(diff).toContain("+27 tail change");
		expect(diff).toContain(" 22 l22");
		// The unchanged run between the two changes is cut in the middle.
		expect(diff.split("\n").filter((line) => line === "    ...")).toHaveLength(1);
		expect(diff).not.toContain(" 7 l7");
	});

	it("returns an empty diff for identical content", () => {
		expect(generateDiffString("same\n", "same\n")).toEqual({ diff: "", firstChangedLine: undefined });
	});
});

describe("computeEditDiff (preview for UIs)", () => {
	it("returns the diff an edit would make without writing", async () => {
		writeFileSync(join(tempDir(), "a.txt"), "one\ntwo\n");
		expect(await computeEditDiff("a.txt", "two", "2", tempDir())).toEqual({
			diff: " 1 one\n-2 two\n+2 2\n 3 ",
			firstChangedLine: 2,
		});
	});

	it("words the no-op case as a preview", async () => {
		writeFileSync(join(tempDir(), "a.txt"), "one");
		expect(await computeEditDiff("a.txt", "one", "one", tempDir())).toEqual({
			error: "No changes would be made to a.txt. The replacement produces identical content.",
		});
	});

	it("returns the tool's error messages", async () => {
		expect(await computeEditDiff("missing.txt", "a", "b", tempDir())).toEqual({
			error: "File not found: missing.txt",
		});
	});
});
