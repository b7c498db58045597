// The built `agent` binary's flags (docs/cli.md), against a local fake model server.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox, FAKE_PROVIDER, parseJsonLines, runCli } from "../helpers/cli-sandbox.js";
import { lastUserText, startFakeModelServerForFile, textReply } from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;

afterEach(() => {
	sandbox?.cleanup();
});

function newSandbox(): CliSandbox {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	return sandbox;
}

function systemPromptOf(index = 0): string {
	const system = server.requests[index]!.body.messages.find((m) => m.role === "system");
	return String(system?.content ?? "");
}

function sessionFiles(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { recursive: true })
		.map(String)
		.filter((name) => name.endsWith(".jsonl"))
		.map((name) => join(dir, name));
}

describe("answers that need no configuration", () => {
	it("--version prints the version and creates nothing on disk", async () => {
		sandbox = createCliSandbox();
		const agentDir = join(sandbox.root, "never-created");
		const result = await runCli(sandbox, ["--version"], { env: { AGENT_DIR: agentDir } });
		expect(result).toMatchObject({ code: 0, stderr: "" });
		expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
		expect(existsSync(agentDir)).toBe(false);
	});

	it("--help prints usage, the exit codes, and creates nothing on disk", async () => {
		sandbox = createCliSandbox();
		const agentDir = join(sandbox.root, "never-created");
		const result = await runCli(sandbox, ["-h"], { env: { AGENT_DIR: agentDir } });
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("Usage:\n  agent [options] [@files...] [messages...]");
		expect(result.stdout).toContain("Exit codes:");
		expect(result.stdout).toContain("--list-models [search]");
		expect(existsSync(agentDir)).toBe(false);
	});

	it("a run keeps V8's compiled code in <agentDir>/cache/compile, from the first", async () => {
		newSandbox();
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, ["--no-session", "-p", "hi"]);
		expect(result).toMatchObject({ code: 0, stdout: "ok\n" });
		const cacheDir = join(sandbox.agentDir, "cache", "compile");
		// Node's compile cache (≥ 22.1) or the bundle's own (older Nodes): entries in a directory per Node version,
		// written as the process exits.
		const entries = readdirSync(cacheDir, { withFileTypes: true })
			.filter((entry) => entry.isDirectory())
			.flatMap((entry) => readdirSync(join(cacheDir, entry.name)));
		expect(entries.length).toBeGreaterThan(5);
	});

	it("rejects bad values with exit 1 and a usage hint", async () => {
		sandbox = createCliSandbox();
		const result = await runCli(sandbox, ["--mode", "yaml"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			"Error: Invalid value for --mode: \"yaml\". Valid values: text, json, rpc, acp\nRun 'agent --help' for usage.\n",
		);
	});

	it("runs a package command when it is the first word", async () => {
		sandbox = createCliSandbox();
		const result = await runCli(sandbox, ["list"]);
		expect(result).toMatchObject({ code: 0, stdout: "No packages installed.\n", stderr: "" });
	});
});

describe("--list-models", () => {
	it("lists the models with credentials as a table and exits 0", async () => {
		newSandbox();
		const result = await runCli(sandbox, ["--list-models"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(
			[
				"provider  model          context  max-out  thinking  images",
				"fake      fake-model     128K     4.1K     no        yes   ",
				"fake      fake-reasoner  200K     8.2K     yes       no    ",
				"",
			].join("\n"),
		);
	});

	it("filters by a search and says when nothing matches", async () => {
		newSandbox();
		expect((await runCli(sandbox, ["--list-models", "rsnr"])).stdout.split("\n")).toHaveLength(3);
		const none = await runCli(sandbox, ["--list-models", "zzz"]);
		expect(none).toMatchObject({ code: 0, stdout: 'No models matching "zzz"\n' });
	});
});

describe("model flags", () => {
	it("--model provider/id:level selects the model and records the thinking level", async () => {
		newSandbox();
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, ["-p", "--model", "fake/fake-reasoner:high", "hi"]);
		expect(result.code).toBe(0);
		expect(server.requests[0]!.body.model).toBe("fake-reasoner");
		const [file] = sessionFiles(join(sandbox.agentDir, "sessions"));
		const entries = readFileSync(file!, "utf8")
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(entries.find((e) => e.type === "thinking_level_change")).toMatchObject({ thinkingLevel: "high" });
		expect(entries.find((e) => e.type === "model_change")).toMatchObject({
			provider: FAKE_PROVIDER,
			modelId: "fake-reasoner",
		});
	});

	it("--provider with an unknown name fails and points to --list-models", async () => {
		newSandbox();
		const result = await runCli(sandbox, ["-p", "--provider", "nope", "--model", "x", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			'Error: Unknown provider "nope". Use --list-models to see available providers/models.\n',
		);
	});

	it("--api-key without a model is refused", async () => {
		newSandbox();
		const result = await runCli(sandbox, ["-p", "--api-key", "sk-x", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			"Error: --api-key requires a model to be specified via --model, --provider/--model, or --models\n",
		);
	});

	it("--api-key is sent for this run and never saved", async () => {
		newSandbox();
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, ["-p", "--model", "fake-model", "--api-key", "sk-runtime", "hi"]);
		expect(result.code).toBe(0);
		expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-runtime");
		expect(readFileSync(join(sandbox.agentDir, "auth.json"), "utf8")).not.toContain("sk-runtime");
	});
});

describe("tools and prompts", () => {
	it("--tools enables exactly the listed tools; --no-tools none", async () => {
		newSandbox();
		server.enqueue(textReply("a"), textReply("b"));
		await runCli(sandbox, ["-p", "--tools", "read,ls", "hi"]);
		await runCli(sandbox, ["-p", "--no-tools", "hi"]);
		expect(server.requests[0]!.body.tools?.map((t) => t.function.name)).toEqual(["read", "ls"]);
		expect(server.requests[1]!.body.tools ?? []).toEqual([]);
	});

	it("--system-prompt replaces the prompt; --append-system-prompt adds a file's text", async () => {
		newSandbox();
		writeFileSync(join(sandbox.cwd, "extra.md"), "Always answer in French.");
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, [
			"-p",
			"--system-prompt",
			"You are a test double.",
			"--append-system-prompt",
			"extra.md",
			"hi",
		]);
		expect(result.code).toBe(0);
		expect(systemPromptOf().startsWith("You are a test double.")).toBe(true);
		expect(systemPromptOf()).toContain("Always answer in French.");
	});
});

describe("session flags", () => {
	it("--session <path> writes to that file and continues it on the next run", async () => {
		newSandbox();
		server.enqueue(textReply("first"), textReply("second"));
		const file = join(sandbox.cwd, "my-session.jsonl");
		await runCli(sandbox, ["-p", "--session", file, "one"]);
		await runCli(sandbox, ["-p", "--session", file, "two"]);
		expect(server.requests[1]!.body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
		expect(readFileSync(file, "utf8")).toContain('"text":"two"');
	});

	it("--session <id prefix> opens the project's session with that id", async () => {
		newSandbox();
		server.enqueue(textReply("first"), textReply("second"));
		await runCli(sandbox, ["-p", "one"]);
		const [file] = sessionFiles(join(sandbox.agentDir, "sessions"));
		const id = JSON.parse(readFileSync(file!, "utf8").split("\n")[0]!).id as string;
		const result = await runCli(sandbox, ["-p", "--session", id.slice(0, 8), "two"]);
		expect(result.code).toBe(0);
		expect(sessionFiles(join(sandbox.agentDir, "sessions"))).toEqual([file]);
		expect(server.requests[1]!.body.messages).toHaveLength(4);
	});

	it("--session with an unknown id fails", async () => {
		newSandbox();
		const result = await runCli(sandbox, ["-p", "--session", "deadbeef", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe("No session found matching 'deadbeef'\n");
	});

	it("--session-dir stores sessions in that directory", async () => {
		newSandbox();
		server.enqueue(textReply("ok"));
		const dir = join(sandbox.root, "elsewhere");
		mkdirSync(dir);
		await runCli(sandbox, ["-p", "--session-dir", dir, "hi"]);
		const files = sessionFiles(dir);
		expect(files).toHaveLength(1);
		expect(basename(files[0] as string)).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z_[0-9a-f-]{36}\.jsonl$/);
	});

	it("-c -p without a message prints the last answer of the continued session", async () => {
		newSandbox();
		server.enqueue(textReply("remembered answer"));
		await runCli(sandbox, ["-p", "question"]);
		const result = await runCli(sandbox, ["-c", "-p"]);
		expect(result).toMatchObject({ code: 0, stdout: "remembered answer\n" });
		expect(server.requests).toHaveLength(1);
	});

	it("--resume needs the interactive picker", async () => {
		newSandbox();
		const result = await runCli(sandbox, ["-r", "-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("--resume needs the interactive session picker");
	});
});

describe("--export", () => {
	it("exports a session file to HTML and says where", async () => {
		newSandbox();
		server.enqueue(textReply("exported answer"));
		await runCli(sandbox, ["-p", "question"]);
		const [file] = sessionFiles(join(sandbox.agentDir, "sessions"));
		const result = await runCli(sandbox, ["--export", file!, "out.html"]);
		expect(result).toMatchObject({ code: 0, stdout: "Exported to: out.html\n" });
		expect(readFileSync(join(sandbox.cwd, "out.html"), "utf8")).toContain("exported answer");
	});

	it("fails with exit 1 for a missing file", async () => {
		newSandbox();
		const result = await runCli(sandbox, ["--export", "missing.jsonl"]);
		expect(result).toMatchObject({ code: 1, stdout: "", stderr: "Error: File not found: missing.jsonl\n" });
	});
});

describe("output not to a terminal", () => {
	it("runs the messages in print mode without -p", async () => {
		newSandbox();
		server.enqueue(textReply("printed"));
		const result = await runCli(sandbox, ["hello"]);
		expect(result).toMatchObject({ code: 0, stdout: "printed\n" });
	});

	it("a lone '-' reads the prompt from stdin", async () => {
		newSandbox();
		server.enqueue(textReply("from stdin"));
		const result = await runCli(sandbox, ["--mode", "json", "-"], { stdin: "piped prompt" });
		expect(result.code).toBe(0);
		expect(lastUserText(server.requests[0]!)).toBe("piped prompt");
		expect(parseJsonLines(result.stdout)[0]!.type).toBe("session");
	});
});
