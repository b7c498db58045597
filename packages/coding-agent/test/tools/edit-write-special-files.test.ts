// edit and write on devices, FIFOs, sockets and directories (directly or behind a symlink): a clear error,
// never a blocked thread, and never a device node replaced by a regular file.
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { computeEditDiff, createEditTool, createWriteTool } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { errorOf, run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-edit-write-special-");
const edit = (args: Record<string, unknown>) => run(createEditTool(tempDir()), args);
const write = (args: Record<string, unknown>) => run(createWriteTool(tempDir()), args);

function mkfifo(name: string): string {
	const path = join(tempDir(), name);
	execFileSync("mkfifo", [path]);
	return path;
}

describe("edit", () => {
	it("refuses /dev/null", async () => {
		expect(await errorOf(edit({ path: "/dev/null", oldText: "a", newText: "b" }))).toBe(
			"Cannot edit /dev/null: it is a character device, not a regular file. The edit tool only changes regular files.",
		);
	});

	it("refuses a FIFO behind a symlink without blocking", async () => {
		mkfifo("pipe");
		symlinkSync(join(tempDir(), "pipe"), join(tempDir(), "notes.md"));
		expect(await errorOf(edit({ path: "notes.md", oldText: "a", newText: "b" }))).toContain(
			"Cannot edit notes.md: it is a FIFO (named pipe), not a regular file.",
		);
	});

	it("keeps the directory message for a directory", async () => {
		mkdirSync(join(tempDir(), "folder"));
		expect(await errorOf(edit({ path: "folder", oldText: "a", newText: "b" }))).toBe(
			"Is a directory: folder. Provide the path of a file to edit.",
		);
	});

	it("previews the same refusal", async () => {
		mkfifo("preview-pipe");
		expect(await computeEditDiff("preview-pipe", "a", "b", tempDir())).toEqual({
			error: "Cannot edit preview-pipe: it is a FIFO (named pipe), not a regular file. The edit tool only changes regular files.",
		});
	});
});

describe("write", () => {
	it("refuses a symlink to /dev/null instead of replacing the device", async () => {
		symlinkSync("/dev/null", join(tempDir(), "out.txt"));
		expect(await errorOf(write({ path: "out.txt", content: "x" }))).toBe(
			"Cannot write out.txt: it is a character device, not a regular file. The write tool only writes regular files.",
		);
		expect(lstatSync("/dev/null").isCharacterDevice()).toBe(true);
	});

	it("refuses a FIFO without blocking and leaves it a FIFO", async () => {
		const fifo = mkfifo("fifo");
		expect(await errorOf(write({ path: "fifo", content: "x" }))).toContain(
			"Cannot write fifo: it is a FIFO (named pipe), not a regular file.",
		);
		expect(lstatSync(fifo).isFIFO()).toBe(true);
	});

	it("refuses a unix socket", async () => {
		const socketPath = join(tempDir(), "s.sock");
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(socketPath, resolve));
		try {
			expect(await errorOf(write({ path: "s.sock", content: "x" }))).toContain(
				"Cannot write s.sock: it is a socket, not a regular file.",
			);
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});

	it("refuses a directory", async () => {
		mkdirSync(join(tempDir(), "dir"));
		expect(await errorOf(write({ path: "dir", content: "x" }))).toBe(
			"Cannot write dir: it is a directory, not a regular file. The write tool only writes regular files.",
		);
	});

	it("still writes through a symlink to a regular file", async () => {
		await write({ path: "real.txt", content: "one" });
		symlinkSync(join(tempDir(), "real.txt"), join(tempDir(), "link.txt"));
		expect(textOf(await write({ path: "link.txt", content: "two" }))).toBe("Successfully wrote 3 bytes to link.txt");
		expect(lstatSync(join(tempDir(), "link.txt")).isSymbolicLink()).toBe(true);
	});
});
