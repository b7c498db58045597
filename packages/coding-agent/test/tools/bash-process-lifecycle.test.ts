import { execFileSync } from "node:child_process";
import { createReadStream, readFileSync } from "node:fs";
import { join } from "node:path";
import { type BashOperations, type BashToolDetails, createBashTool } from "@agent/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { errorOf, redirectTmpdir, run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-bash-life-");
redirectTmpdir(tempDir);
const node = JSON.stringify(process.execPath);

/**
 * A FIFO the command's processes hold open for writing: it reaches end-of-file exactly when the last of
 * them has exited, so a test can wait for "the whole tree is gone" without polling or sleeping.
 */
function processTreeWitness(): { path: string; allExited: Promise<void> } {
	const path = join(tempDir(), "witness.fifo");
	execFileSync("mkfifo", [path]);
	const reader = createReadStream(path);
	const allExited = new Promise<void>((resolve, reject) => {
		reader.on("end", () => resolve());
		reader.on("error", reject);
	});
	reader.resume();
	return { path, allExited };
}

const leftoverPids: number[] = [];
afterEach(() => {
	for (const pid of leftoverPids.splice(0)) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {
			// already gone
		}
	}
});

describe("process management", () => {
	it("kills nested children when the call is aborted", async () => {
		const witness = processTreeWitness();
		const controller = new AbortController();
		const command = `exec 3>"${witness.path}"; echo started; bash -c "sleep 100 & sleep 100 & wait" & wait`;
		const pending = run(createBashTool(tempDir()), { command }, controller.signal, (update) => {
			if (textOf(update).includes("started")) controller.abort();
		});
		expect(await errorOf(pending)).toBe("started\n\n\nCommand aborted");
		await witness.allExited;
	});

	it("finishes a pipeline whose reader exits early without an error", async () => {
		expect(textOf(await run(createBashTool(tempDir()), { command: "yes | head -5" }))).toBe("y\ny\ny\ny\ny\n");
	});

	it("passes the parent's environment to commands", async () => {
		process.env.AGENT_TEST_INHERITED = "inherited-value";
		try {
			const text = textOf(await run(createBashTool(tempDir()), { command: 'echo "$HOME|$AGENT_TEST_INHERITED"' }));
			expect(text).toBe(`${process.env.HOME}|inherited-value\n`);
		} finally {
			delete process.env.AGENT_TEST_INHERITED;
		}
	});
});

describe("regressions from the reference", () => {
	it("decodes multi-byte characters split across chunks, in updates and in the result", async () => {
		// 4097-byte writes never end on a character boundary (each character is 3 bytes).
		const script =
			"const b = Buffer.from('你好'.repeat(20000)); for (let i = 0; i < b.length; i += 4097) require('fs').writeSync(1, b.subarray(i, i + 4097))";
		const updates: string[] = [];
		const result = await run<BashToolDetails>(
			createBashTool(tempDir()),
			{ command: `${node} -e "${script}"` },
			undefined,
			(update) => updates.push(textOf(update)),
		);
		expect(updates.length).toBeGreaterThan(1);
		for (const text of updates) expect(text).not.toContain("\uFFFD");
		expect(textOf(result)).not.toContain("\uFFFD");
		expect(readFileSync(result.details.fullOutputPath!, "utf8")).toBe("你好".repeat(20000));
	});

	it("does not hang on commands that read input: stdin is closed", async () => {
		const tool = createBashTool(tempDir());
		expect(textOf(await run(tool, { command: 'read -r line; echo "read status $?"' }))).toBe("read status 1\n");
		expect(textOf(await run(tool, { command: "cat; echo cat-done" }))).toBe("cat-done\n");
	});

	it("returns from an interactive git commit: it fails or times out, never waits for a user", async () => {
		const repo = tempDir();
		execFileSync("git", ["init", "-q", repo]);
		const command = "git -c user.name=t -c user.email=t@t -c commit.gpgsign=false commit --allow-empty; echo exit=$?";
		const outcome = await run(createBashTool(repo), { command, timeout: 5 }).then(
			textOf,
			(error: Error) => error.message,
		);
		expect(outcome).toMatch(/exit=\d+\n|Command timed out after 5 seconds/);
	});

	it("kills the whole process group on timeout", async () => {
		const witness = processTreeWitness();
		const command = `exec 3>"${witness.path}"; sleep 100 & sleep 100 & wait`;
		expect(await errorOf(run(createBashTool(tempDir()), { command, timeout: 1 }))).toBe(
			"Command timed out after 1 seconds",
		);
		await witness.allExited;
	});
});

describe("background processes and streaming", () => {
	it("returns when the shell exits even though a background process keeps stdout open", async () => {
		const result = await run(createBashTool(tempDir()), { command: "sleep 60 & echo started $!" });
		const text = textOf(result);
		expect(text).toMatch(/^started \d+\n$/);
		leftoverPids.push(Number(text.split(" ")[1]));
	});

	it("keeps output the shell wrote just before exiting", async () => {
		const script = `${node} -e "process.stdout.write('z'.repeat(200000))"; sleep 60 & echo; echo "tail-marker $!"`;
		const result = await run<BashToolDetails>(createBashTool(tempDir()), { command: script });
		const tail = textOf(result).match(/tail-marker (\d+)\n/);
		expect(tail).not.toBeNull();
		leftoverPids.push(Number(tail![1]));
		expect(readFileSync(result.details.fullOutputPath!, "utf8")).toBe(`${"z".repeat(200000)}\n${tail![0]}`);
	});

	it("streams partial output to onUpdate as it arrives, each update extending the last", async () => {
		const updates: string[] = [];
		await run(createBashTool(tempDir()), { command: "echo one; echo two; echo three" }, undefined, (update) =>
			updates.push(textOf(update)),
		);
		expect(updates.at(-1)).toBe("one\ntwo\nthree\n");
		for (let i = 1; i < updates.length; i++) expect(updates[i].startsWith(updates[i - 1])).toBe(true);
	});

	it("reports an abort before the command started", async () => {
		const controller = new AbortController();
		controller.abort();
		expect(await errorOf(run(createBashTool(tempDir()), { command: "echo never" }, controller.signal))).toBe(
			"Command aborted",
		);
	});

	it("uses injected operations for remote or container execution", async () => {
		const calls: { command: string; cwd: string }[] = [];
		const operations: BashOperations = {
			exec: async (command, cwd, { onData }) => {
				calls.push({ command, cwd });
				onData(Buffer.from("remote output\n"));
				return { exitCode: 0 };
			},
		};
		const result = await run(createBashTool("/remote/project", { operations, commandPrefix: "set -e" }), {
			command: "make",
		});
		expect(textOf(result)).toBe("remote output\n");
		expect(calls).toEqual([{ command: "set -e\nmake", cwd: "/remote/project" }]);
	});
});
