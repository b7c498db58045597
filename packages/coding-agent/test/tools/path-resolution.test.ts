import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { assertInsideWorkspace, expandPath, resolveReadPath, resolveToCwd } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-paths-");

describe("expandPath", () => {
	it("strips one leading @", () => {
		expect(expandPath("@src/a.ts")).toBe("src/a.ts");
		expect(expandPath("@@scope/pkg")).toBe("@scope/pkg");
	});

	it("turns Unicode spaces into ASCII spaces", () => {
		expect(expandPath("a\u00A0b\u2003c\u202Fd\u205Fe\u3000f")).toBe("a b c d e f");
	});

	it("expands ~ and ~/ but not ~user", () => {
		expect(expandPath("~")).toBe(homedir());
		expect(expandPath("~/notes.md")).toBe(join(homedir(), "notes.md"));
		expect(expandPath("~other/x")).toBe("~other/x");
	});
});

describe("resolveToCwd", () => {
	it("keeps absolute paths and resolves relative ones against cwd", () => {
		expect(resolveToCwd("/etc/hosts", "/work")).toBe("/etc/hosts");
		expect(resolveToCwd("src/../lib/a.ts", "/work")).toBe("/work/lib/a.ts");
		expect(resolveToCwd("@./x", "/work")).toBe("/work/x");
	});
});

describe("resolveReadPath", () => {
	it("finds macOS screenshot names written with a plain space before PM", () => {
		writeFileSync(join(tempDir(), "Screen Shot 2024-01-01 at 10.00.00\u202FPM.png"), "");
		expect(resolveReadPath("Screen Shot 2024-01-01 at 10.00.00 PM.png", tempDir())).toBe(
			join(tempDir(), "Screen Shot 2024-01-01 at 10.00.00\u202FPM.png"),
		);
	});

	it("finds NFD-stored names given in NFC", () => {
		const nfd = "re\u0301sume\u0301.txt";
		writeFileSync(join(tempDir(), nfd), "");
		expect(resolveReadPath("résumé.txt", tempDir())).toBe(join(tempDir(), nfd));
	});

	it("finds names with a typographic apostrophe given with '", () => {
		writeFileSync(join(tempDir(), "l\u2019image.png"), "");
		expect(resolveReadPath("l'image.png", tempDir())).toBe(join(tempDir(), "l\u2019image.png"));
	});

	it("returns the plain resolution when no variant exists", () => {
		expect(resolveReadPath("nothing here.txt", tempDir())).toBe(join(tempDir(), "nothing here.txt"));
	});
});

describe("workspace confinement", () => {
	it("allows the working directory and paths below it, existing or not", () => {
		expect(() => assertInsideWorkspace(tempDir(), tempDir(), ".")).not.toThrow();
		expect(() =>
			assertInsideWorkspace(join(tempDir(), "new/dir/file.txt"), tempDir(), "new/dir/file.txt"),
		).not.toThrow();
	});

	it("refuses .. escapes, absolute paths elsewhere and symlinks pointing out", () => {
		mkdirSync(join(tempDir(), "work"));
		const work = join(tempDir(), "work");
		symlinkSync(tempDir(), join(work, "up"));
		expect(() => assertInsideWorkspace(join(work, "../x"), work, "../x")).toThrow(
			`Path is outside the working directory: ../x resolves to ${join(tempDir(), "x")}, which is not inside ${work}. Only paths inside the working directory can be used.`,
		);
		expect(() => assertInsideWorkspace("/etc/passwd", work, "/etc/passwd")).toThrow(/outside the working directory/);
		expect(() => assertInsideWorkspace(join(work, "up/secret"), work, "up/secret")).toThrow(
			/outside the working directory/,
		);
	});

	it("does not mistake a sibling with a common prefix for the inside", () => {
		mkdirSync(join(tempDir(), "work"));
		mkdirSync(join(tempDir(), "work-other"));
		expect(() =>
			assertInsideWorkspace(join(tempDir(), "work-other/a"), join(tempDir(), "work"), "../work-other/a"),
		).toThrow(/outside the working directory/);
	});
});
