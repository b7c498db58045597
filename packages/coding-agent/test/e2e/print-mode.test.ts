import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox, FAKE_PROVIDER, parseJsonLines, runCli } from "../helpers/cli-sandbox.js";
import {
	errorReply,
	lastUserText,
	startFakeModelServerForFile,
	textReply,
	toolCallReply,
} from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;

afterEach(() => {
	sandbox?.cleanup();
});

function newSandbox(settings?: Record<string, unknown>): CliSandbox {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl, ...(settings ? { settings } : {}) });
	return sandbox;
}

describe("a one-turn answer", () => {
	it("prints the final assistant text to stdout and exits 0", async () => {
		newSandbox();
		server.enqueue(textReply("Hello from the fake model."));
		const result = await runCli(sandbox, ["-p", "Say hello"]);
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("Hello from the fake model.\n");
		expect(result.code).toBe(0);
		expect(lastUserText(server.requests[0]!)).toBe("Say hello");
	});

	it("sends each positional word as its own prompt, in order, and prints only the last answer", async () => {
		newSandbox();
		server.enqueue(textReply("first answer"), textReply("second answer"));
		const result = await runCli(sandbox, ["-p", "one", "two"]);
		expect(result.stdout).toBe("second answer\n");
		expect(server.requests.map(lastUserText)).toEqual(["one", "two"]);
		// The second request carries the first exchange.
		expect(server.requests[1]!.body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
	});
});

describe("piped stdin and @file arguments", () => {
	it("makes piped stdin the first message and implies print mode", async () => {
		newSandbox();
		server.enqueue(textReply("ok"), textReply("answered"));
		const result = await runCli(sandbox, ["question"], { stdin: "  context from a pipe \n" });
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("answered\n");
		expect(server.requests.map(lastUserText)).toEqual(["context from a pipe", "question"]);
	});

	it("prefixes @file contents to the first message", async () => {
		newSandbox();
		writeFileSync(join(sandbox.cwd, "notes.md"), "line one\nline two");
		writeFileSync(join(sandbox.cwd, "empty.txt"), "");
		server.enqueue(textReply("read it"));
		const result = await runCli(sandbox, ["-p", "@notes.md", "@empty.txt", "summarize"]);
		expect(result.code).toBe(0);
		expect(lastUserText(server.requests[0]!)).toBe(
			`<file name="${join(sandbox.cwd, "notes.md")}">\nline one\nline two\n</file>\nsummarize`,
		);
	});

	it("puts stdin after the file text, and sends positional messages afterwards", async () => {
		newSandbox();
		writeFileSync(join(sandbox.cwd, "a.md"), "A");
		server.enqueue(textReply("1"), textReply("2"));
		const result = await runCli(sandbox, ["@a.md", "question"], { stdin: "ctx" });
		expect(result.code).toBe(0);
		expect(server.requests.map(lastUserText)).toEqual([
			`<file name="${join(sandbox.cwd, "a.md")}">\nA\n</file>\nctx`,
			"question",
		]);
	});

	it("attaches an image file as an image block (detected by content, not name)", async () => {
		newSandbox();
		const png = Buffer.from(
			"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
			"base64",
		);
		writeFileSync(join(sandbox.cwd, "shot.dat"), png);
		server.enqueue(textReply("a pixel"));
		const result = await runCli(sandbox, ["-p", "@shot.dat", "what is this?"]);
		expect(result.code).toBe(0);
		const content = server.requests[0]!.body.messages.at(-1)!.content as {
			type: string;
			image_url?: { url: string };
		}[];
		expect(content.map((part) => part.type)).toEqual(["text", "image_url"]);
		expect(content[1]!.image_url!.url).toBe(`data:image/png;base64,${png.toString("base64")}`);
	});

	it("fails with exit 1 and names the absolute path of a missing @file, before any model call", async () => {
		newSandbox();
		const result = await runCli(sandbox, ["-p", "@missing.md", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(`Error: File not found: ${join(sandbox.cwd, "missing.md")}\n`);
		expect(server.requests).toHaveLength(0);
	});
});

describe("tool use over several turns in a git repository", () => {
	it("writes a file, runs bash, edits the file, and reports the result", async () => {
		newSandbox();
		execFileSync("git", ["init", "-q"], { cwd: sandbox.cwd });
		server.enqueue(
			toolCallReply([{ name: "write", arguments: { path: "hello.txt", content: "hello world\n" } }]),
			toolCallReply([{ name: "bash", arguments: { command: "git add hello.txt && git status --short" } }]),
			toolCallReply([{ name: "edit", arguments: { path: "hello.txt", oldText: "world", newText: "agent" } }]),
			textReply("Done: hello.txt now greets the agent."),
		);
		const result = await runCli(sandbox, ["-p", "create hello.txt, stage it, then edit it"]);
		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("Done: hello.txt now greets the agent.\n");
		expect(readFileSync(join(sandbox.cwd, "hello.txt"), "utf8")).toBe("hello agent\n");

		// Each tool's result went back to the model on the next request.
		expect(server.requests).toHaveLength(4);
		const toolResults = server.requests.slice(1).map((request) => {
			const message = request.body.messages.at(-1)!;
			expect(message.role).toBe("tool");
			return typeof message.content === "string" ? message.content : JSON.stringify(message.content);
		});
		expect(toolResults[0]).toContain("hello.txt");
		expect(toolResults[1]).toContain("A  hello.txt");
		expect(toolResults[2]).toContain("Successfully replaced");
	});
});

describe("failures", () => {
	it("exits non-zero with the provider's error after retries of an HTTP 500", async () => {
		newSandbox({ retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 } });
		server.setFallback(errorReply(500, "internal server error from the fake"));
		const result = await runCli(sandbox, ["-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toContain("internal server error from the fake");
		expect(server.requests).toHaveLength(3);
	});

	it("says the server's wait and the cap when a 429 asks for longer than retry.maxDelayMs, without retrying", async () => {
		newSandbox({ retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 60_000 } });
		server.setFallback({
			kind: "error",
			status: 429,
			message: "Rate limit reached for requests",
			headers: { "retry-after": "3600" },
		});
		const result = await runCli(sandbox, ["-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toContain("Rate limit reached for requests");
		expect(result.stderr).toContain(
			"(retry after 3600s) (the server asked to wait 3600s, longer than retry.maxDelayMs 60s)\n",
		);
		expect(server.requests).toHaveLength(1);

		const json = await runCli(sandbox, ["--mode", "json", "hi"]);
		const events = parseJsonLines(json.stdout);
		const end = events.find((event) => event.type === "auto_retry_end");
		expect(end).toEqual({
			type: "auto_retry_end",
			success: false,
			attempt: 0,
			finalError: expect.stringMatching(/\(the server asked to wait 3600s, longer than retry\.maxDelayMs 60s\)$/),
		});
		const failed = events.findLast((event) => event.type === "message_end") as { message: { errorMessage?: string } };
		expect(failed.message.errorMessage).toMatch(/longer than retry\.maxDelayMs 60s\)$/);
	});

	it("warns about an unreadable auth.json, leaves it untouched, and runs with the other credentials", async () => {
		newSandbox();
		const authPath = join(sandbox.agentDir, "auth.json");
		writeFileSync(authPath, '{"anthropic": {"type": "api_key", "key": ');
		server.enqueue(textReply("still works"));
		const result = await runCli(sandbox, ["-p", "hi"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("still works\n");
		expect(result.stderr).toContain(`Warning: Failed to read ${authPath}`);
		expect(result.stderr).toContain("its credentials are ignored and the file is left as it is");
		expect(readFileSync(authPath, "utf8")).toBe('{"anthropic": {"type": "api_key", "key": ');
	});

	it("warns about a broken models.json on stderr and leaves the built-in models (here: none with a key)", async () => {
		newSandbox();
		const modelsPath = join(sandbox.agentDir, "models.json");
		writeFileSync(modelsPath, '{"providers": {');
		const result = await runCli(sandbox, ["-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toMatch(/^Warning: Failed to parse models\.json: /);
		expect(result.stderr).toContain(`File: ${modelsPath}\n`);
		expect(result.stderr).toContain("No models available.");
		expect(server.requests).toHaveLength(0);
	});

	it("points at the auth.json entry when its !command gives no key (it wins over the environment)", async () => {
		newSandbox();
		const authPath = join(sandbox.agentDir, "auth.json");
		writeFileSync(authPath, JSON.stringify({ [FAKE_PROVIDER]: { type: "api_key", key: "!false" } }), { mode: 0o600 });
		const result = await runCli(sandbox, ["-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`No API key found for ${FAKE_PROVIDER}.`);
		expect(result.stderr).toContain(`The "${FAKE_PROVIDER}" entry in ${authPath} gave no key`);
		expect(server.requests).toHaveLength(0);
	});

	it("exits non-zero immediately on HTTP 401 (no retries)", async () => {
		newSandbox();
		server.setFallback(errorReply(401, "invalid api key"));
		const result = await runCli(sandbox, ["-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("invalid api key");
		expect(server.requests).toHaveLength(1);
	});

	it("stops at the first failed message instead of sending the rest", async () => {
		newSandbox();
		server.enqueue(errorReply(400, "bad request"));
		const result = await runCli(sandbox, ["-p", "one", "two"]);
		expect(result.code).toBe(1);
		expect(server.requests).toHaveLength(1);
	});

	it("rejects an unknown model with the reference's message and exit 1", async () => {
		newSandbox();
		const result = await runCli(sandbox, ["-p", "--model", "no-such-model-anywhere", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			'Error: Model "no-such-model-anywhere" not found. Use --list-models to see available models.\n',
		);
		expect(server.requests).toHaveLength(0);
	});

	it("rejects an unknown flag, naming it, with a usage hint and exit 1", async () => {
		newSandbox();
		const result = await runCli(sandbox, ["-p", "--modle", "fake-model", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			"Error: Unknown option: --modle (did you mean --model?)\nRun 'agent --help' for usage.\n",
		);
		expect(server.requests).toHaveLength(0);
	});

	it("says what to do when no prompt was given", async () => {
		newSandbox();
		const result = await runCli(sandbox, ["-p"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("No prompt given");
	});

	it("treats blank messages and an empty @file as no prompt instead of sending them to the model", async () => {
		newSandbox();
		writeFileSync(join(sandbox.cwd, "empty.txt"), "");
		for (const args of [
			["-p", ""],
			["-p", "  \n"],
			["-p", "@empty.txt"],
		]) {
			const result = await runCli(sandbox, args);
			expect(result.code).toBe(1);
			expect(result.stderr).toContain("No prompt given");
		}
		expect(server.requests).toHaveLength(0);

		server.enqueue(textReply("answered"));
		const result = await runCli(sandbox, ["-p", "", "the real question"]);
		expect(result.stdout).toBe("answered\n");
		expect(server.requests.map(lastUserText)).toEqual(["the real question"]);
	});

	it("explains how to configure credentials when there are no models, without a stack trace", async () => {
		sandbox = createCliSandbox();
		const result = await runCli(sandbox, ["-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr.startsWith("No models available.\n\nSet an API key environment variable:\n")).toBe(true);
		expect(result.stderr).toContain(`Or create ${join(sandbox.agentDir, "models.json")}`);
		expect(result.stderr).toContain("--api-key");
		expect(result.stderr).toContain('"baseUrl": "http://localhost:11434/v1"');
		expect(result.stderr).not.toMatch(/\n\s+at /);
	});
});

describe("automatic compaction", () => {
	it("waits for the compaction an overflow starts and prints the retried answer", async () => {
		newSandbox({ compaction: { keepRecentTokens: 1 }, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
		server.enqueue(
			textReply("first answer"),
			errorReply(400, "Your input exceeds the context window of this model."),
			// The summary of the first exchange (history and, when a turn is split, its prefix).
			(request) =>
				JSON.stringify(request.body.messages).includes("first answer")
					? textReply("## Goal\nSummary so far.")
					: textReply("unexpected"),
		);
		server.setFallback((request) =>
			JSON.stringify(request.body.messages).includes("Summary so far.")
				? textReply("answer after compaction")
				: textReply("## Goal\nSummary so far."),
		);
		const result = await runCli(sandbox, ["--mode", "json", "first", "second"]);
		expect(result.code).toBe(0);
		const types = parseJsonLines(result.stdout).map((record) => record.type);
		expect(types).toContain("auto_compaction_start");
		expect(types).toContain("auto_compaction_end");
		expect(types.at(-1)).toBe("agent_end");
		const text = await runCli(sandbox, ["-c", "-p"]);
		expect(text.stdout).toBe("answer after compaction\n");
	});

	it("recovers from an overflow the estimate does not see: a server whose real window is far below models.json's", async () => {
		// models.json says 128k; the server holds 4096 and says so. By our estimate the session is tiny, so the
		// reference found nothing to compact and the run ended with the error.
		newSandbox();
		server.enqueue(
			textReply("answer one"),
			textReply("answer two"),
			errorReply(400, "This model's maximum context length is 4096 tokens. However, you requested 6000 tokens."),
			textReply("## Goal\nThe first two exchanges."),
			textReply("answer three"),
		);
		const result = await runCli(sandbox, ["--mode", "json", "question one", "question two", "question three"]);
		expect(result.code).toBe(0);
		const events = parseJsonLines(result.stdout);
		expect(events.find((event) => event.type === "auto_compaction_end")).toMatchObject({
			aborted: false,
			willRetry: true,
			result: { summary: "## Goal\nThe first two exchanges." },
		});
		const summaryRequest = JSON.stringify(server.requests[3]?.body.messages);
		expect(summaryRequest).toContain("question one");
		expect(summaryRequest).not.toContain("question three");
		expect(server.requests[4]?.body.messages.map((message) => message.role)).toEqual(["system", "user", "user"]);
		expect(lastUserText(server.requests[4]!)).toBe("question three");
		expect(events.at(-1)?.type).toBe("agent_end");
	});

	it("exits 1 with the provider's error when an overflow leaves nothing to compact", async () => {
		newSandbox();
		server.enqueue(errorReply(400, "This model's maximum context length is 128000 tokens."));
		const result = await runCli(sandbox, ["-p", "a prompt too long for the model"]);
		expect(result.stdout).toBe("");
		expect(result.stderr).toContain("maximum context length is 128000 tokens");
		expect(result.code).toBe(1);
	});
});

describe("sessions", () => {
	it("writes the session file and --continue sends the first run's messages again", async () => {
		newSandbox();
		server.enqueue(textReply("The secret is 42."), textReply("You told me 42."));
		const first = await runCli(sandbox, ["-p", "remember 42"]);
		expect(first.code).toBe(0);
		const sessionDirs = readdirSync(join(sandbox.agentDir, "sessions"));
		expect(sessionDirs).toHaveLength(1);
		const files = readdirSync(join(sandbox.agentDir, "sessions", sessionDirs[0]!));
		expect(files.filter((f) => f.endsWith(".jsonl"))).toHaveLength(1);

		const second = await runCli(sandbox, ["-c", "-p", "what was it?"]);
		expect(second.code).toBe(0);
		expect(second.stdout).toBe("You told me 42.\n");
		const [, firstUser, firstAnswer, secondUser] = server.requests[1]!.body.messages;
		expect(JSON.stringify(firstUser!.content)).toContain("remember 42");
		expect(firstAnswer).toMatchObject({ role: "assistant", content: "The secret is 42." });
		expect(JSON.stringify(secondUser!.content)).toContain("what was it?");
	});

	it("--continue names a damaged line it skips and leaves the file as it was", async () => {
		newSandbox();
		server.enqueue(textReply("first answer"), textReply("second answer"));
		await runCli(sandbox, ["-p", "first"]);
		const sessionDir = join(sandbox.agentDir, "sessions", readdirSync(join(sandbox.agentDir, "sessions"))[0]!);
		const file = join(sessionDir, readdirSync(sessionDir).find((f) => f.endsWith(".jsonl"))!);
		const lines = readFileSync(file, "utf8").split("\n");
		lines.splice(2, 0, '{"type":"message","id":"dama');
		const damaged = lines.join("\n");
		writeFileSync(file, damaged);

		const result = await runCli(sandbox, ["-c", "-p", "second"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("second answer\n");
		expect(result.stderr).toContain(`Warning: ${file}:3: not valid JSON`);
		expect(result.stderr).toContain("line skipped");
		expect(readFileSync(file, "utf8").startsWith(damaged)).toBe(true);
	});

	it("--no-session writes nothing", async () => {
		newSandbox();
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, ["--no-session", "-p", "hi"]);
		expect(result.code).toBe(0);
		const sessionsRoot = join(sandbox.agentDir, "sessions");
		const jsonl = existsSync(sessionsRoot)
			? readdirSync(sessionsRoot, { recursive: true }).filter((f) => String(f).endsWith(".jsonl"))
			: [];
		expect(jsonl).toEqual([]);
	});

	it("--no-session keeps no file checkpoints, which nothing could restore; with a session file they are kept", async () => {
		newSandbox();
		const tmp = join(sandbox.root, "tmp");
		mkdirSync(tmp);
		const env = { TMPDIR: tmp };
		const writeAndList = (text: string) => {
			server.enqueue(
				toolCallReply([{ name: "bash", arguments: { command: `echo ${text} > made.txt && ls -a "$TMPDIR"` } }]),
				textReply("done"),
			);
		};
		writeAndList("one");
		expect((await runCli(sandbox, ["--no-session", "-p", "make a file"], { env })).code).toBe(0);
		// Without a session file the store would be a temporary directory, there while the command runs.
		const listing = JSON.stringify(server.requests[1]!.body.messages.at(-1)!.content);
		expect(listing).toContain("agent-launcher-");
		expect(listing).not.toContain("agent-checkpoints-");

		writeAndList("two");
		expect((await runCli(sandbox, ["-p", "make a file"], { env })).code).toBe(0);
		const sessionDir = join(sandbox.agentDir, "sessions", readdirSync(join(sandbox.agentDir, "sessions"))[0]!);
		const file = join(sessionDir, readdirSync(sessionDir).find((f) => f.endsWith(".jsonl"))!);
		expect(readFileSync(file, "utf8")).toContain('"type":"file_checkpoint"');
	});

	it.skipIf(process.platform !== "linux")(
		"a run that made temporary paths sweeps, as it exits, those a killed agent left in $TMPDIR",
		async () => {
			newSandbox();
			const tmp = join(sandbox.root, "tmp");
			mkdirSync(tmp);
			// A pid no process has: a child that has exited and been waited for.
			const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout;
			const left = (name: string, ageDays: number, kind: "directory" | "file") => {
				const path = join(tmp, name);
				if (kind === "directory") mkdirSync(path);
				else writeFileSync(path, "a command's output\n");
				const at = Date.now() / 1000 - ageDays * 24 * 60 * 60;
				utimesSync(path, at, at);
				return name;
			};
			const stale = [
				left(`agent-launcher-${gone}.12345-abcDEF`, 2, "directory"),
				left(`agent-checkpoints-${gone}.12345-ghiJKL`, 2, "directory"),
				left(`agent-bash-${gone}.12345-0123456789abcdef.log`, 2, "file"),
			];
			const recent = left(`agent-bash-${gone}.12345-fedcba9876543210.log`, 0.5, "file");
			server.enqueue(toolCallReply([{ name: "bash", arguments: { command: "true" } }]), textReply("done"));
			expect((await runCli(sandbox, ["--no-session", "-p", "run it"], { env: { TMPDIR: tmp } })).code).toBe(0);
			const remaining = readdirSync(tmp);
			for (const name of stale) expect(remaining).not.toContain(name);
			expect(remaining).toEqual([recent]);
		},
	);
});
