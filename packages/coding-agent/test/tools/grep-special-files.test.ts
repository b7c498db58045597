// The built-in search engine in a hostile tree: devices, FIFOs and sockets are skipped silently (as rg skips
// them), a FIFO named .gitignore does not hang the walk, and large files are searched in bounded windows.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createFindTool, createGrepTool, type GrepToolDetails } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { readLinesOfFile } from "../../src/core/tools/file-lines.js";
import { run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-grep-special-");
const grep = (args: Record<string, unknown>) =>
	run<GrepToolDetails | undefined>(createGrepTool(tempDir(), { engine: "builtin" }), args);

function mkfifo(path: string): void {
	execFileSync("mkfifo", [path]);
}

describe("files that are not regular files", () => {
	it("skips FIFOs, sockets and links to devices in a directory and finds the regular file", async () => {
		writeFileSync(join(tempDir(), "real.txt"), "needle here\n");
		mkfifo(join(tempDir(), "pipe.txt"));
		symlinkSync("/dev/zero", join(tempDir(), "zero.txt"));
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(join(tempDir(), "s.sock"), resolve));
		try {
			expect(textOf(await grep({ pattern: "needle" }))).toBe("real.txt:1: needle here");
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});

	it("answers no matches for a FIFO or a device given as the path, without blocking", async () => {
		mkfifo(join(tempDir(), "fifo"));
		expect(textOf(await grep({ pattern: "x", path: "fifo" }))).toBe("No matches found");
		expect(textOf(await grep({ pattern: "x", path: "/dev/zero" }))).toBe("No matches found");
	});

	it("walks past a FIFO named .gitignore (grep and find)", async () => {
		mkdirSync(join(tempDir(), "sub"));
		mkfifo(join(tempDir(), ".gitignore"));
		mkfifo(join(tempDir(), "sub", ".ignore"));
		writeFileSync(join(tempDir(), "sub", "a.txt"), "needle\n");
		expect(textOf(await grep({ pattern: "needle" }))).toBe("sub/a.txt:1: needle");
		const found = await run(createFindTool(tempDir(), { engine: "builtin" }), { pattern: "*.txt" });
		expect(textOf(found)).toBe("sub/a.txt");
	});
});

describe("large files", () => {
	const lineText = (n: number) => `entry ${n} ${"filler ".repeat(12)}`;

	it("finds matches across 1 MB windows with the right line numbers, and shows their context", async () => {
		const count = 60_000; // ~5.5 MB
		const lines = Array.from({ length: count }, (_, i) => lineText(i + 1));
		for (const n of [1, 11_800, 11_801, 30_000, count]) lines[n - 1] = `MARK ${n}`;
		writeFileSync(join(tempDir(), "big.log"), `${lines.join("\n")}\n`);
		expect(textOf(await grep({ pattern: "^MARK" }))).toBe(
			["big.log:1: MARK 1", "big.log:11800: MARK 11800", "big.log:11801: MARK 11801", "big.log:30000: MARK 30000"]
				.concat([`big.log:${count}: MARK ${count}`])
				.join("\n"),
		);
		expect(textOf(await grep({ pattern: "MARK 30000", context: 1 }))).toBe(
			[`big.log-29999- ${lineText(29_999)}`, "big.log:30000: MARK 30000", `big.log-30001- ${lineText(30_001)}`].join(
				"\n",
			),
		);
		// The file ends in a newline: the empty last line is context, as when the whole text is split.
		expect(textOf(await grep({ pattern: `MARK ${count}`, context: 1 }))).toBe(
			[
				`big.log-${count - 1}- ${lineText(count - 1)}`,
				`big.log:${count}: MARK ${count}`,
				`big.log-${count + 1}- `,
			].join("\n"),
		);
	});

	it("stops searching a large file at a NUL byte past its first 64KB, keeping the matches before it (as rg)", async () => {
		const before = `needle before\n${"filler line\n".repeat(200_000)}`;
		writeFileSync(
			join(tempDir(), "blob.bin"),
			Buffer.concat([Buffer.from(before), Buffer.from([0]), Buffer.from("\nneedle after\n")]),
		);
		writeFileSync(join(tempDir(), "small.bin"), Buffer.from("needle\0binary\n"));
		expect(textOf(await grep({ pattern: "needle" }))).toBe("blob.bin:1: needle before");
	});

	it("finds a match near the end of a single 1.5 MB line and shows it cut to 500 characters", async () => {
		writeFileSync(join(tempDir(), "min.js"), `${"a".repeat(1_500_000)}NEEDLE\nnext\n`);
		const result = await grep({ pattern: "NEEDLE" });
		expect(textOf(result)).toBe(
			`min.js:1: ${"a".repeat(500)}... [truncated]\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]`,
		);
	});

	it("reads only the wanted lines of a file, each cut to the byte budget", async () => {
		const path = join(tempDir(), "lines.txt");
		writeFileSync(path, "one\r\ntwo\nthree is longer\n");
		const lines = await readLinesOfFile(path, new Set([2, 3, 4, 9]), 5);
		expect([...lines.entries()]).toEqual([
			[2, { text: "two", cut: false }],
			[3, { text: "three", cut: true }],
			[4, { text: "", cut: false }],
		]);
	});
});
