// Another process writes a file between edit's (or write's) read and the rename that replaces it. The change
// lands through an injected operations hook — a real `sh` appending to the real file at exactly that moment —
// so the test does not depend on timing.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	createEditTool,
	createWriteTool,
	type EditOperations,
	localEditOperations,
	localWriteOperations,
	type WriteOperations,
} from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { errorOf, run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-concurrent-");

/** Appends a line to `path` from a separate process. */
function appendFromAnotherProcess(path: string, line: string): void {
	execFileSync("sh", ["-c", 'printf "%s\\n" "$2" >> "$1"', "sh", path, line]);
}

/** Local edit operations whose writes first let another process append to the file (the first `times` writes). */
function editOpsWithAppender(times: number, line = "appended by another process"): EditOperations & { reads: number } {
	let writes = 0;
	const ops = {
		...localEditOperations,
		reads: 0,
		readFile: async (path: string) => {
			ops.reads++;
			return localEditOperations.readFile(path);
		},
		writeFile: async (path: string, content: string, options?: Parameters<EditOperations["writeFile"]>[2]) => {
			if (writes++ < times) appendFromAnotherProcess(path, `${line} ${writes}`);
			return localEditOperations.writeFile(path, content, options);
		},
	};
	return ops;
}

describe("edit while another process appends", () => {
	it("redoes the replacement on the new content, keeping the appended line", async () => {
		const path = join(tempDir(), "app.log");
		writeFileSync(path, "status: starting\nfirst entry\n");
		const operations = editOpsWithAppender(1);
		const result = await run(createEditTool(tempDir(), { operations }), {
			path: "app.log",
			oldText: "status: starting",
			newText: "status: running",
		});
		expect(textOf(result)).toBe("Successfully replaced text in app.log.");
		expect(readFileSync(path, "utf8")).toBe("status: running\nfirst entry\nappended by another process 1\n");
		expect(operations.reads).toBe(2);
	});

	it("reports the usual error when the other process removed the text being replaced", async () => {
		const path = join(tempDir(), "notes.txt");
		writeFileSync(path, "alpha\n");
		const operations: EditOperations = {
			...localEditOperations,
			writeFile: async (p, content, options) => {
				execFileSync("sh", ["-c", 'printf "beta\\n" > "$1"', "sh", p]);
				return localEditOperations.writeFile(p, content, options);
			},
		};
		const message = await errorOf(
			run(createEditTool(tempDir(), { operations }), { path: "notes.txt", oldText: "alpha", newText: "gamma" }),
		);
		expect(message).toContain("Could not find the exact text in notes.txt.");
		expect(readFileSync(path, "utf8")).toBe("beta\n");
	});

	it("gives up with a clear error when the file changes before every attempt, losing none of the changes", async () => {
		const path = join(tempDir(), "busy.log");
		writeFileSync(path, "header\n");
		const operations = editOpsWithAppender(Number.POSITIVE_INFINITY, "line");
		const message = await errorOf(
			run(createEditTool(tempDir(), { operations }), { path: "busy.log", oldText: "header", newText: "HEADER" }),
		);
		expect(message).toBe(
			"Cannot edit busy.log: another process kept changing the file while the edit was being written (5 attempts). Nothing was changed; try again when the file is no longer being written to.",
		);
		expect(readFileSync(path, "utf8")).toBe("header\nline 1\nline 2\nline 3\nline 4\nline 5\n");
	});

	it("notices a same-size rewrite that timestamps may not show", async () => {
		const path = join(tempDir(), "same-size.txt");
		writeFileSync(path, "aaaa bbbb\n");
		let rewrote = false;
		const operations: EditOperations = {
			...localEditOperations,
			writeFile: async (p, content, options) => {
				if (!rewrote) {
					rewrote = true;
					writeFileSync(p, "aaaa cccc\n");
				}
				return localEditOperations.writeFile(p, content, options);
			},
		};
		await run(createEditTool(tempDir(), { operations }), { path: "same-size.txt", oldText: "aaaa", newText: "AAAA" });
		expect(readFileSync(path, "utf8")).toBe("AAAA cccc\n");
	});
});

describe("write while another process changes the file", () => {
	it("fails and keeps the other process's change when the file changed while being written", async () => {
		const path = join(tempDir(), "config.txt");
		writeFileSync(path, "original\n");
		const operations: WriteOperations = {
			...localWriteOperations,
			writeFile: async (p, content, options) => {
				appendFromAnotherProcess(p, "added meanwhile");
				return localWriteOperations.writeFile(p, content, options);
			},
		};
		const message = await errorOf(
			run(createWriteTool(tempDir(), { operations }), { path: "config.txt", content: "replacement\n" }),
		);
		expect(message).toBe(
			"Cannot write config.txt: another process changed the file while it was being written, so nothing was written and that change is kept. Read the file again, then write or edit it.",
		);
		expect(readFileSync(path, "utf8")).toBe("original\nadded meanwhile\n");
	});

	it("fails when another process creates the file while a new one is being written", async () => {
		const path = join(tempDir(), "new.txt");
		const operations: WriteOperations = {
			...localWriteOperations,
			writeFile: async (p, content, options) => {
				appendFromAnotherProcess(p, "theirs");
				return localWriteOperations.writeFile(p, content, options);
			},
		};
		const message = await errorOf(
			run(createWriteTool(tempDir(), { operations }), { path: "new.txt", content: "ours" }),
		);
		expect(message).toContain("Cannot write new.txt: another process changed the file");
		expect(readFileSync(path, "utf8")).toBe("theirs\n");
	});

	it("writes as before when nothing else touches the file", async () => {
		const path = join(tempDir(), "plain.txt");
		writeFileSync(path, "old");
		const result = await run(createWriteTool(tempDir()), { path: "plain.txt", content: "new" });
		expect(textOf(result)).toBe("Successfully wrote 3 bytes to plain.txt");
		expect(readFileSync(path, "utf8")).toBe("new");
	});
});
