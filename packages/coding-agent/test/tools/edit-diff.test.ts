import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { computeEditDiff, generateDiffString } from "@agent/coding-agent";
import { diffArrays } from "diff";
import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
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

	it("ends at the file's last line: a final newline is not one more line, so no stray `...` follows", () => {
		const before = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n";
		const after = before.replace("a - b", "a + b");
		expect(generateDiffString(before, after)).toEqual({
			diff: [
				" 1 def add(a, b):",
				"-2     return a - b",
				"+2     return a + b",
				" 3 ",
				" 4 ",
				" 5 def mul(a, b):",
				" 6     return a * b",
			].join("\n"),
			firstChangedLine: 2,
		});
		// A file that gains its final newline still shows it as a change.
		expect(generateDiffString("a\nb", "a\nb\n").diff).toBe(" 1 a\n 2 b\n+3 ");
	});

	it("returns an empty diff for identical content", () => {
		expect(generateDiffString("same\n", "same\n")).toEqual({ diff: "", firstChangedLine: undefined });
	});
});

describe("computeEditDiff (preview for UIs)", () => {
	it("returns the diff an edit would make without writing", async () => {
		writeFileSync(join(tempDir(), "a.txt"), "one\ntwo\n");
		expect(await computeEditDiff("a.txt", "two", "2", tempDir())).toEqual({
			diff: " 1 one\n-2 two\n+2 2",
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

/**
 * The straightforward diff: split both texts (less a final newline both end with), trim equal lines at both
 * ends, diff the middle.
 */
function naiveDiff(oldText: string, newText: string, context: number): { diff: string; firstChangedLine?: number } {
	if (oldText === newText) return { diff: "", firstChangedLine: undefined };
	const bothEndInNewline = oldText.endsWith("\n") && newText.endsWith("\n");
	const oldLines = (bothEndInNewline ? oldText.slice(0, -1) : oldText).split("\n");
	const newLines = (bothEndInNewline ? newText.slice(0, -1) : newText).split("\n");
	const width = String(Math.max(oldLines.length, newLines.length)).length;
	const pad = (n: number) => String(n).padStart(width, " ");
	let prefix = 0;
	const shorter = Math.min(oldLines.length, newLines.length);
	while (prefix < shorter && oldLines[prefix] === newLines[prefix]) prefix++;
	let suffix = 0;
	while (suffix < shorter - prefix && oldLines.at(-1 - suffix) === newLines.at(-1 - suffix)) suffix++;
	const parts: { kind: string; lines: string[] }[] = [];
	if (prefix > 0) parts.push({ kind: "equal", lines: oldLines.slice(0, prefix) });
	for (const change of diffArrays(
		oldLines.slice(prefix, oldLines.length - suffix),
		newLines.slice(prefix, newLines.length - suffix),
	)) {
		parts.push({ kind: change.added ? "added" : change.removed ? "removed" : "equal", lines: change.value });
	}
	if (suffix > 0) parts.push({ kind: "equal", lines: oldLines.slice(oldLines.length - suffix) });
	const output: string[] = [];
	let oldLine = 1;
	let newLine = 1;
	let firstChangedLine: number | undefined;
	parts.forEach((part, i) => {
		if (part.kind !== "equal") {
			firstChangedLine ??= newLine;
			for (const line of part.lines)
				output.push(part.kind === "added" ? `+${pad(newLine++)} ${line}` : `-${pad(oldLine++)} ${line}`);
			return;
		}
		const head = i > 0 ? Math.min(context, part.lines.length) : 0;
		const tail = i < parts.length - 1 ? Math.min(context, part.lines.length - head) : 0;
		for (let j = 0; j < head; j++) output.push(` ${pad(oldLine + j)} ${part.lines[j]}`);
		if (head + tail < part.lines.length) output.push(` ${" ".repeat(width)} ...`);
		for (let j = part.lines.length - tail; j < part.lines.length; j++)
			output.push(` ${pad(oldLine + j)} ${part.lines[j]}`);
		oldLine += part.lines.length;
		newLine += part.lines.length;
	});
	return { diff: output.join("\n"), firstChangedLine };
}

describe("generateDiffString properties", () => {
	const text = fc
		.array(fc.constantFrom("a", "b", "c", "", "ab", "a b"), { maxLength: 30 })
		.map((lines) => lines.join("\n"));
	const edit = fc
		.tuple(text, fc.nat(), fc.nat(), fc.constantFrom("", "x", "\n", "a\nz", "b\n"))
		.map(([base, a, b, insert]) => {
			const start = base.length ? a % (base.length + 1) : 0;
			const end = Math.min(base.length, start + (b % 6));
			return [base, base.slice(0, start) + insert + base.slice(end)] as const;
		});

	it("finds unchanged ends by characters yet diffs exactly like splitting the whole texts", () => {
		fc.assert(
			fc.property(
				fc.oneof(edit, fc.tuple(text, text)),
				fc.integer({ min: 0, max: 5 }),
				([oldText, newText], context) => {
					expect(generateDiffString(oldText, newText, context)).toEqual(naiveDiff(oldText, newText, context));
				},
			),
			{ numRuns: 500 },
		);
	});

	it("agrees with splitting the whole texts on large files, wherever the change falls", () => {
		const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i % 7} of the large file`);
		const base = `${lines.join("\n")}\n`;
		for (const at of [0, 1, 4095, 4096, 4097, 100_000, base.length - 5000, base.length - 2, base.length]) {
			for (const insert of ["", "X", "\n", "new line\n"]) {
				const changed = base.slice(0, at) + insert + base.slice(Math.min(base.length, at + 3));
				expect(generateDiffString(base, changed), `at ${at} insert ${JSON.stringify(insert)}`).toEqual(
					naiveDiff(base, changed, 4),
				);
			}
		}
	});
});
