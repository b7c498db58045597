import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BashOperations, type BashToolDetails, createBashTool, getManagedBinDir } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { errorOf, redirectTmpdir, run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-bash-");
redirectTmpdir(tempDir);
const node = JSON.stringify(process.execPath);

describe("running commands", () => {
	it("returns a simple command's output with no details", async () => {
		const result = await run<BashToolDetails | undefined>(createBashTool(tempDir()), { command: "echo hello" });
		expect(result.content).toEqual([{ type: "text", text: "hello\n" }]);
		expect(result.details).toBeUndefined();
	});

	it("fails with the exit code appended", async () => {
		expect(await errorOf(run(createBashTool(tempDir()), { command: "exit 1" }))).toBe(
			"(no output)\n\nCommand exited with code 1",
		);
		expect(await errorOf(run(createBashTool(tempDir()), { command: "echo oops; exit 3" }))).toBe(
			"oops\n\n\nCommand exited with code 3",
		);
	});

	it("runs the command prefix first", async () => {
		const tool = createBashTool(tempDir(), { commandPrefix: "export TEST_VAR=hello" });
		expect(textOf(await run(tool, { command: "echo $TEST_VAR" }))).toBe("hello\n");
	});

	it("shows the output of both the prefix and the command", async () => {
		const tool = createBashTool(tempDir(), { commandPrefix: "echo prefix_output" });
		expect(textOf(await run(tool, { command: "echo command_output" }))).toBe("prefix_output\ncommand_output\n");
	});

	it("runs in the working directory and says so when there is no output", async () => {
		const tool = createBashTool(tempDir());
		expect(textOf(await run(tool, { command: "pwd" }))).toBe(`${tempDir()}\n`);
		expect(textOf(await run(tool, { command: "true" }))).toBe("(no output)");
	});
});

describe("errors", () => {
	it("kills a command that passes its timeout", async () => {
		const message = await errorOf(run(createBashTool(tempDir()), { command: "echo before; sleep 5", timeout: 1 }));
		expect(message).toBe("before\n\n\nCommand timed out after 1 seconds");
		expect(await errorOf(run(createBashTool(tempDir()), { command: "sleep 5", timeout: 1 }))).toBe(
			"Command timed out after 1 seconds",
		);
	});

	it("reports a working directory that does not exist", async () => {
		const message = await errorOf(run(createBashTool("/this/directory/does/not/exist"), { command: "echo test" }));
		expect(message).toBe(
			"Working directory does not exist: /this/directory/does/not/exist\nCannot execute bash commands.",
		);
	});

	it("passes a spawn failure through unchanged", async () => {
		const brokenShell = join(tempDir(), "broken-shell");
		writeFileSync(brokenShell, "#!/nonexistent/interpreter\n");
		chmodSync(brokenShell, 0o755);
		const message = await errorOf(
			run(createBashTool(tempDir(), { shellPath: brokenShell }), { command: "echo test" }),
		);
		expect(message).toContain("ENOENT");
	});

	it("tells the user to fix a custom shell path that does not exist", async () => {
		const missing = join(tempDir(), "no-such-shell");
		const message = await errorOf(run(createBashTool(tempDir(), { shellPath: missing }), { command: "echo test" }));
		expect(message).toMatch(
			new RegExp(`^Custom shell path not found: ${missing}\\nPlease update shellPath in .*settings\\.json$`),
		);
	});
});

describe("output management", () => {
	it("keeps the tail of output past the 100KB window, numbered against the whole output", async () => {
		const command = `${node} -e "for (let i = 1; i <= 30000; i++) console.log('row ' + i + ' ' + 'x'.repeat(20))"`;
		const result = await run<BashToolDetails>(createBashTool(tempDir()), { command });
		const text = textOf(result);
		const truncation = result.details.truncation!;
		expect(truncation.truncated).toBe(true);
		expect(truncation.totalLines).toBe(30001);
		expect(text).toContain(`row 30000 ${"x".repeat(20)}\n`);
		const first = 30001 - truncation.outputLines + 1;
		expect(
			text.endsWith(
				`[Showing lines ${first}-30001 of 30001 (50.0KB limit). Full output: ${result.details.fullOutputPath}]`,
			),
		).toBe(true);
		expect(text.startsWith(`row ${first} `)).toBe(true);
	});

	it("marks output truncated whatever the chunk sizes, never showing a dropped window as complete", async () => {
		// A 60,000-byte chunk then a 50,000-byte one: dropping the first would leave a window under 50KB.
		const lines = (bytes: number) => Buffer.from(`${"x".repeat(79)}\n`.repeat(bytes / 80));
		const operations: BashOperations = {
			exec: async (_command, _cwd, { onData }) => {
				onData(lines(60_000));
				onData(lines(50_000));
				return { exitCode: 0 };
			},
		};
		const result = await run<BashToolDetails>(createBashTool(tempDir(), { operations }), { command: "x" });
		expect(result.details.truncation).toMatchObject({ truncated: true, totalBytes: 110_000, totalLines: 1376 });
		expect(textOf(result)).toMatch(/\n\n\[Showing lines 736-1376 of 1376 \(50\.0KB limit\)\. Full output: /);
		expect(readFileSync(result.details.fullOutputPath!).length).toBe(110_000);
	});

	it("saves the complete output to a temp file once it passes 50KB", async () => {
		const command = `${node} -e "for (let i = 1; i <= 8000; i++) console.log('line ' + i)"`;
		const result = await run<BashToolDetails>(createBashTool(tempDir()), { command });
		const path = result.details.fullOutputPath!;
		expect(path.startsWith(`${tmpdir()}/`)).toBe(true);
		expect(tmpdir()).toBe(tempDir());
		expect(path).toMatch(/agent-bash-\d+\.\d+-[0-9a-f]{16}\.log$/);
		const expected = `${Array.from({ length: 8000 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
		expect(readFileSync(path, "utf8")).toBe(expected);
		expect(textOf(result)).toContain(`Full output: ${path}]`);
	});

	it("captures both stdout and stderr", async () => {
		const text = textOf(await run(createBashTool(tempDir()), { command: "echo out && echo err >&2" }));
		expect(text).toContain("out\n");
		expect(text).toContain("err\n");
	});

	it("cuts long multi-byte output on a character boundary", async () => {
		const command = `${node} -e "process.stdout.write('中文输出'.repeat(30000))"`;
		const result = await run<BashToolDetails>(createBashTool(tempDir()), { command });
		const text = textOf(result);
		expect(text).not.toContain("\uFFFD");
		expect(result.details.truncation?.lastLinePartial).toBe(true);
		expect(text).toMatch(
			/^(文输出|输出|出)?(中文输出)+\n\n\[Showing last 50\.0KB of line 1 \(line is 351\.6KB\)\. Full output: /,
		);
	});
});

describe("one huge line", () => {
	it("shows the end of a single 200 KB line that ends in a newline, naming that line", async () => {
		const command = `${node} -e "process.stdout.write('x'.repeat(200000) + '\\n')"`;
		const result = await run<BashToolDetails>(createBashTool(tempDir()), { command });
		const text = textOf(result);
		expect(result.details.truncation?.lastLinePartial).toBe(true);
		// The output's own trailing newline, then the notice.
		expect(/^x{50000,}\n\n\n\[Showing last 50\.0KB of line 1 \(line is 195\.3KB\)\. Full output: /.test(text)).toBe(
			true,
		);
	});
});

describe("shell semantics and regressions", () => {
	it("runs bash, not sh, so bash syntax works", async () => {
		// biome-ignore lint/suspicious/noTemplateCurlyInString: bash array syntax, not a template.
		const command = "if [[ -d / ]]; then arr=(a b c); echo yes ${#arr[@]}; fi; cat <(echo substituted)";
		expect(textOf(await run(createBashTool(tempDir()), { command }))).toBe("yes 3\nsubstituted\n");
	});

	it("counts omitted lines exactly and writes the temp file even under 50KB", async () => {
		const result = await run<BashToolDetails>(createBashTool(tempDir()), { command: "seq 1 3000" });
		const path = result.details.fullOutputPath!;
		const text = textOf(result);
		// seq ends with a newline, so the output has 3001 lines, the last one empty.
		expect(text.endsWith(`\n\n[Showing lines 1002-3001 of 3001. Full output: ${path}]`)).toBe(true);
		expect(text.startsWith("1002\n")).toBe(true);
		expect(existsSync(path)).toBe(true);
		expect(readFileSync(path, "utf8").split("\n")).toHaveLength(3001);
	});

	// Wrong argument types: tool-argument-validation.test.ts, with the other tools.

	it("lets a spawn hook refuse a dangerous command before anything runs", async () => {
		const sentinel = join(tempDir(), "keep-me");
		writeFileSync(sentinel, "");
		const tool = createBashTool(tempDir(), {
			spawnHook: (context) => {
				if (/\brm\s+-rf\b/.test(context.command)) throw new Error("Blocked: rm -rf needs the user's confirmation");
				return context;
			},
		});
		expect(await errorOf(run(tool, { command: `rm -rf ${sentinel}` }))).toBe(
			"Blocked: rm -rf needs the user's confirmation",
		);
		expect(existsSync(sentinel)).toBe(true);
	});

	it("lets a spawn hook rewrite command, cwd and environment", async () => {
		const tool = createBashTool("/", {
			spawnHook: (context) => ({
				command: `echo rewritten; ${context.command}`,
				cwd: tempDir(),
				env: { ...context.env, HOOKED: "yes" },
			}),
		});
		expect(textOf(await run(tool, { command: "pwd; echo $HOOKED" }))).toBe(`rewritten\n${tempDir()}\nyes\n`);
	});

	it("puts the managed bin directory on PATH", async () => {
		const text = textOf(await run(createBashTool(tempDir()), { command: 'echo "$PATH"' }));
		expect(text.split(":")[0]).toBe(getManagedBinDir());
	});
});
