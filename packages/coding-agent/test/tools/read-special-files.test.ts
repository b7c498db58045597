// read on what is not a regular file (devices, FIFOs, sockets, directories, symlinks to them), on files too
// big to hold in memory, and aborted reads: errors instead of endless reads or blocked threads, and nothing
// held after an abort.
import { execFileSync } from "node:child_process";
import { readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import {
	createReadTool,
	createWriteTool,
	localReadOperations,
	type ReadableFile,
	type ReadOperations,
	type ReadToolDetails,
} from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { NotRegularFileError, openCheckedRegularFile } from "../../src/core/tools/regular-file.js";
import { TextPageScanner } from "../../src/core/tools/text-page-scanner.js";
import { deferred } from "../helpers/deferred.js";
import { errorOf, run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-read-special-");
const read = (args: Record<string, unknown>, signal?: AbortSignal) =>
	run<ReadToolDetails | undefined>(createReadTool(tempDir()), args, signal);

function mkfifo(name: string): string {
	const path = join(tempDir(), name);
	execFileSync("mkfifo", [path]);
	return path;
}

const onLinux = process.platform === "linux";
const openDescriptors = () => readdirSync("/proc/self/fd").length;

describe("files that are not regular files", () => {
	it("refuses /dev/zero instead of reading forever", async () => {
		expect(await errorOf(read({ path: "/dev/zero" }))).toBe(
			"Cannot read /dev/zero: it is a character device, not a regular file. If you need data from it, use bash with a byte limit and a timeout (e.g. head -c 4096).",
		);
	});

	it("refuses /dev/null", async () => {
		expect(await errorOf(read({ path: "/dev/null" }))).toContain(
			"Cannot read /dev/null: it is a character device, not a regular file.",
		);
	});

	it("follows a committed symlink to /dev/urandom and refuses the device, naming the path as given", async () => {
		symlinkSync("/dev/urandom", join(tempDir(), "README.md"));
		expect(await errorOf(read({ path: "README.md" }))).toContain(
			"Cannot read README.md: it is a character device, not a regular file.",
		);
	});

	it("refuses a FIFO without a writer at once, without blocking on it", async () => {
		mkfifo("pipe");
		expect(await errorOf(read({ path: "pipe" }))).toContain(
			"Cannot read pipe: it is a FIFO (named pipe), not a regular file.",
		);
	});

	it("refuses a unix socket", async () => {
		const socketPath = join(tempDir(), "agent.sock");
		const server: Server = createServer();
		await new Promise<void>((resolve) => server.listen(socketPath, resolve));
		try {
			expect(await errorOf(read({ path: "agent.sock" }))).toContain(
				"Cannot read agent.sock: it is a socket, not a regular file.",
			);
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});

	it("refuses a directory with a hint to list it", async () => {
		expect(await errorOf(read({ path: "." }))).toBe(
			"Cannot read .: it is a directory, not a regular file. List a directory with ls or bash instead.",
		);
	});

	it("catches a path swapped for a FIFO after the type check: the non-blocking open returns and fstat refuses it", async () => {
		const fifo = mkfifo("swapped");
		const error = await openCheckedRegularFile(fifo).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NotRegularFileError);
		expect((error as NotRegularFileError).fileType).toBe("a FIFO (named pipe)");
	});

	it("keeps the file-system threads free: after many reads of FIFOs, aborted or not, a write completes", async () => {
		const attempts: Promise<unknown>[] = [];
		for (let i = 0; i < 12; i++) {
			mkfifo(`fifo-${i}`);
			const controller = new AbortController();
			attempts.push(read({ path: `fifo-${i}` }, controller.signal).catch(() => undefined));
			controller.abort();
		}
		await Promise.all(attempts);
		const result = await run(createWriteTool(tempDir()), { path: "after.txt", content: "still works" });
		expect(textOf(result)).toBe("Successfully wrote 11 bytes to after.txt");
	});
});

describe("large files", () => {
	it("pages the end of a 24 MB log by offset, reading it in pieces", async () => {
		const lines = 300_000;
		const line = (n: number) => `${String(n).padStart(7, "0")} ${"log entry ".repeat(7)}`;
		const body = Array.from({ length: lines }, (_, i) => line(i + 1)).join("\n");
		writeFileSync(join(tempDir(), "big.log"), body);
		let largestRead = 0;
		const operations: ReadOperations = {
			...localReadOperations,
			open: async (path) => {
				const file = await localReadOperations.open!(path);
				return {
					...file,
					read: (buffer, position) => {
						largestRead = Math.max(largestRead, buffer.length);
						return file.read(buffer, position);
					},
				};
			},
		};
		const result = await run(createReadTool(tempDir(), { operations }), { path: "big.log", offset: 299_999 });
		expect(textOf(result)).toBe(`${line(299_999)}\n${line(300_000)}`);
		expect(largestRead).toBeLessThanOrEqual(64 * 1024);
	});

	it("holds no more than the page budget while scanning 100 MB for a page near the end", () => {
		const scanner = new TextPageScanner({ offset: 1_000_000 });
		const chunk = Buffer.from(`${"0123456789".repeat(10)}\n`.repeat(650));
		let retained = 0;
		for (let fed = 0; fed < 100 * 1024 * 1024; fed += chunk.length) {
			scanner.push(chunk);
			retained = Math.max(retained, scanner.retainedBytes);
		}
		const page = scanner.end();
		expect(retained).toBeLessThanOrEqual(51_200);
		expect(page.truncation.outputLines).toBeGreaterThan(0);
	});
});

describe("abort", () => {
	it.skipIf(!onLinux)("closes the file when aborted in the middle of a large read", async () => {
		writeFileSync(join(tempDir(), "big.txt"), "line\n".repeat(2_000_000));
		const before = openDescriptors();
		const closes: Promise<void>[] = [];
		for (let i = 0; i < 10; i++) {
			const controller = new AbortController();
			const closed = deferred();
			closes.push(closed.promise);
			const operations: ReadOperations = {
				...localReadOperations,
				open: async (path) => {
					const file = await localReadOperations.open!(path);
					const wrapped: ReadableFile = {
						size: () => file.size(),
						read: async (buffer, position) => {
							const bytes = await file.read(buffer, position);
							// Abort once the text pass is under way (after the image sniff).
							if (position > 0) controller.abort();
							return bytes;
						},
						close: async () => {
							await file.close();
							closed.resolve();
						},
					};
					return wrapped;
				},
			};
			const tool = createReadTool(tempDir(), { operations });
			expect(await errorOf(run(tool, { path: "big.txt" }, controller.signal))).toBe("Operation aborted");
		}
		// The call rejects at once; the scan stops at its next chunk and closes the file.
		await Promise.all(closes);
		expect(openDescriptors()).toBe(before);
	});
});
