// How tool calls look to an editor: kinds, titles, locations and result content (pure mapping).
import { describe, expect, it } from "vitest";
import { toolKindOf, toolLocationsOf, toolResultContent, toolTitleOf } from "../../src/modes/acp/tool-calls.js";

const CWD = "/work/project";

describe("tool kinds", () => {
	it("maps the seven built-in tools to read, edit, execute and search", () => {
		expect(["read", "edit", "write", "bash", "grep", "find", "ls"].map(toolKindOf)).toEqual([
			"read",
			"edit",
			"edit",
			"execute",
			"search",
			"search",
			"search",
		]);
	});

	it("maps extension and unknown tools to other", () => {
		expect(toolKindOf("deploy")).toBe("other");
		expect(toolKindOf("")).toBe("other");
	});
});

describe("tool titles", () => {
	it("names the file and, for a partial read, the lines", () => {
		expect(toolTitleOf("read", { path: "src/a.ts" })).toBe("Read src/a.ts");
		expect(toolTitleOf("read", { path: "src/a.ts", offset: 10, limit: 5 })).toBe("Read src/a.ts (10-14)");
		expect(toolTitleOf("read", { path: "src/a.ts", offset: 10 })).toBe("Read src/a.ts (from line 10)");
		expect(toolTitleOf("edit", { path: "b.md" })).toBe("Edit b.md");
		expect(toolTitleOf("write", { path: "c.json" })).toBe("Write c.json");
	});

	it("shows a command's first line, shortened with an ellipsis", () => {
		expect(toolTitleOf("bash", { command: "npm test" })).toBe("npm test");
		expect(toolTitleOf("bash", { command: "cat <<EOF\nbody\nEOF" })).toBe("cat <<EOF…");
		const long = "x".repeat(300);
		expect(toolTitleOf("bash", { command: long })).toBe(`${"x".repeat(200)}…`);
	});

	it("describes searches with their pattern and, when given, their path", () => {
		expect(toolTitleOf("grep", { pattern: "TODO" })).toBe('grep "TODO"');
		expect(toolTitleOf("grep", { pattern: "TODO", path: "src" })).toBe('grep "TODO" in src');
		expect(toolTitleOf("find", { pattern: "*.ts", path: "lib" })).toBe("Find *.ts in lib");
		expect(toolTitleOf("ls", {})).toBe("List .");
	});

	it("falls back to the tool's name when arguments are missing or the tool is unknown", () => {
		expect(toolTitleOf("read", {})).toBe("Read");
		expect(toolTitleOf("bash", { command: 42 })).toBe("bash");
		expect(toolTitleOf("deploy", { target: "prod" })).toBe("deploy");
	});
});

describe("tool locations", () => {
	it("resolves paths against the cwd and keeps absolute ones", () => {
		expect(toolLocationsOf("edit", { path: "src/a.ts" }, CWD)).toEqual([{ path: "/work/project/src/a.ts" }]);
		expect(toolLocationsOf("write", { path: "/tmp/x" }, CWD)).toEqual([{ path: "/tmp/x" }]);
	});

	it("gives a read the line it starts at", () => {
		expect(toolLocationsOf("read", { path: "a.ts", offset: 40 }, CWD)).toEqual([
			{ path: "/work/project/a.ts", line: 40 },
		]);
	});

	it("points searches without a path at the cwd, and commands nowhere", () => {
		expect(toolLocationsOf("grep", { pattern: "x" }, CWD)).toEqual([{ path: CWD }]);
		expect(toolLocationsOf("bash", { command: "ls" }, CWD)).toEqual([]);
		expect(toolLocationsOf("deploy", { path: "a" }, CWD)).toEqual([]);
	});
});

describe("tool results", () => {
	const ok = { content: [{ type: "text", text: "Successfully replaced text in a.ts." }], isError: false };

	it("shows a recorded edit as a diff of the whole file", () => {
		const change = { path: "/work/project/a.ts", before: "a\nb\n", after: "a\nB\n" };
		expect(toolResultContent("edit", { path: "a.ts", oldText: "b", newText: "B" }, ok, CWD, change)).toEqual([
			{ type: "diff", path: "/work/project/a.ts", oldText: "a\nb\n", newText: "a\nB\n" },
		]);
	});

	it("shows an unrecorded edit as its replaced and replacing text, and a write as a new file", () => {
		expect(toolResultContent("edit", { path: "a.ts", oldText: "b", newText: "B" }, ok, CWD, undefined)).toEqual([
			{ type: "diff", path: "/work/project/a.ts", oldText: "b", newText: "B" },
		]);
		expect(toolResultContent("write", { path: "n.ts", content: "new" }, ok, CWD, undefined)).toEqual([
			{ type: "diff", path: "/work/project/n.ts", oldText: null, newText: "new" },
		]);
	});

	it("shows a failed edit as its error text, not a diff", () => {
		const failed = { content: [{ type: "text", text: "File not found: a.ts" }], isError: true };
		expect(toolResultContent("edit", { path: "a.ts", oldText: "b", newText: "B" }, failed, CWD, undefined)).toEqual([
			{ type: "content", content: { type: "text", text: "File not found: a.ts" } },
		]);
	});

	it("passes text and images through and drops anything else", () => {
		const result = {
			content: [
				{ type: "text", text: "Read image file [image/png]" },
				{ type: "image", data: "AAAA", mimeType: "image/png" },
				{ type: "mystery" },
			],
			isError: false,
		};
		expect(toolResultContent("read", { path: "i.png" }, result, CWD, undefined)).toEqual([
			{ type: "content", content: { type: "text", text: "Read image file [image/png]" } },
			{ type: "content", content: { type: "image", data: "AAAA", mimeType: "image/png" } },
		]);
	});
});
