// Startup loads only what the chosen mode needs (no terminal UI in print or RPC runs, nothing of the command line
// for --version alone), checked by tracing every module the `agent` bin loads.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient } from "../../src/modes/rpc/rpc-client.js";
import { AcpTestClient } from "../acp/acp-test-client.js";
import { CLI_PATH, type CliSandbox, createCliSandbox, runCli } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply } from "../helpers/fake-model-server.js";
import { waitFor } from "../helpers/interactive-terminal.js";

const TRACE_HOOK = fileURLToPath(new URL("../helpers/cli-module-trace.mjs", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The `agent` bin is a bundle: a loaded chunk stands for the source modules inside it (dist/agent.meta.json,
 * written by scripts/bundle.mjs), so each loaded bundle file is replaced by those modules' paths.
 */
function expandBundleChunks(modules: string[]): string[] {
	const metaPath = join(PACKAGE_DIR, "dist", "agent.meta.json");
	if (!existsSync(metaPath)) return modules;
	const meta = JSON.parse(readFileSync(metaPath, "utf8")) as Record<string, string[]>;
	const byOutput = new Map(Object.entries(meta).map(([output, inputs]) => [resolve(PACKAGE_DIR, output), inputs]));
	return modules.flatMap((url) => {
		const inputs = url.startsWith("file://") ? byOutput.get(fileURLToPath(url)) : undefined;
		return inputs ? inputs.map((input) => `file://${resolve(PACKAGE_DIR, input)}`) : [url];
	});
}

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;

afterEach(() => {
	sandbox?.cleanup();
});

async function tracedRun(args: string[], stdin?: string, prepare?: (sandbox: CliSandbox) => void): Promise<string[]> {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	prepare?.(sandbox);
	const traceFile = join(sandbox.root, "modules.txt");
	const result = await runCli(sandbox, args, {
		nodeArgs: ["--import", TRACE_HOOK],
		env: { AGENT_MODULE_TRACE: traceFile },
		...(stdin !== undefined ? { stdin } : {}),
	});
	expect(result.code, result.stderr).toBe(0);
	// A CommonJS file loaded through the loader hooks (the bin) is recorded by both hooks.
	return expandBundleChunks([...new Set(readFileSync(traceFile, "utf8").trim().split("\n"))]);
}

const ofPackage = (modules: string[], dir: string) => modules.filter((url) => url.includes(`/packages/${dir}/`));
/** A module of this package by its path in dist/ (`cli/main.js`), or in the package for the bin (`bin/agent.cjs`). */
const packagePath = (url: string) => url.replace(/^.*\/packages\/coding-agent\/(dist\/)?/, "");
/** Modules of the npm package `name` (bundled into a chunk, or required from node_modules). */
const ofDependency = (modules: string[], name: string) =>
	modules.filter((url) => url.includes(`/node_modules/${name}/`));

function writeFiles(root: string, files: Record<string, string>): void {
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), content);
	}
}

describe("what each start loads", () => {
	it("--version alone is answered by the bin itself: no module of the command line loads", async () => {
		const modules = await tracedRun(["--version"]);
		expect(ofPackage(modules, "coding-agent").map(packagePath)).toEqual(["bin/agent.cjs"]);
		expect(modules.filter((url) => url.includes("node_modules"))).toEqual([]);
	});

	it("--version among other flags loads the command-line front only", async () => {
		const modules = await tracedRun(["--offline", "--version"]);
		const ours = ofPackage(modules, "coding-agent").map(packagePath);
		expect(ours.sort()).toEqual([
			"bin/agent.cjs",
			"cli.js",
			"cli/args.js",
			// Imported, not run: --version writes no compile cache.
			"cli/compile-cache.js",
			"cli/help.js",
			"cli/main.js",
			// Holds the request that the young generation stop growing after the first turn; node:v8 loads then.
			"cli/young-generation.js",
			"config.js",
			"core/config/paths.js",
			// The names of the permission modes (`--permission-mode`), nothing else of the permissions.
			"core/permissions/modes.js",
			"package-root.js",
		]);
		expect(ofPackage(modules, "ai")).toEqual([]);
		expect(modules.filter((url) => url.includes("node_modules"))).toEqual([]);
	});

	it("print mode loads no terminal UI, no extension loader and no image library", async () => {
		server.enqueue(textReply("ok"));
		const modules = await tracedRun(["-p", "hi"]);
		expect(modules.some((url) => url.includes("/modes/print/"))).toBe(true);
		expect(ofPackage(modules, "tui")).toEqual([]);
		expect(modules.filter((url) => url.includes("/modes/interactive/"))).toEqual([]);
		expect(modules.filter((url) => /node_modules\/(\.pnpm\/)?(jiti|sharp)/.test(url))).toEqual([]);
	});

	it("takes Node's built-in modules without their ES-module facades", async () => {
		server.enqueue(textReply("ok"));
		const modules = await tracedRun(["-p", "hi"]);
		// A built-in imported as an ES module passes the loader, and its facade reads every export: the lazy ones
		// load what nothing here uses (node:crypto's webcrypto, node:util's parseArgs). The bundle takes each with
		// `process.getBuiltinModule`, which does neither (scripts/bundle.mjs).
		expect(modules.filter((url) => url.startsWith("node:"))).toEqual([]);
	});

	it("loads no MCP SDK when no MCP server is configured", async () => {
		server.enqueue(textReply("ok"));
		const modules = await tracedRun(["-p", "hi"]);
		expect(modules.filter((url) => url.includes("@modelcontextprotocol"))).toEqual([]);
		expect(modules.filter((url) => url.includes("/core/mcp/client.js"))).toEqual([]);
	});

	it("print mode loads no TypeBox: the built-in tools' schemas are built without it", async () => {
		server.enqueue(textReply("ok"));
		const modules = await tracedRun(["-p", "hi"]);
		expect(modules.some((url) => url.includes("/core/tools/bash.js"))).toBe(true);
		expect(ofDependency(modules, "@sinclair/typebox")).toEqual([]);
	});

	it("a plain print run loads no YAML parser, glob matcher or ignore-file matcher", async () => {
		server.enqueue(textReply("ok"));
		// An ignore file of names only (the common kind) needs no ignore-file matcher either.
		const modules = await tracedRun(["-p", "hi"], undefined, (box) =>
			writeFiles(box.cwd, { ".gitignore": "node_modules\n*.log\ndist/\n", "README.md": "# hi\n" }),
		);
		expect(ofDependency(modules, "yaml")).toEqual([]);
		expect(ofDependency(modules, "picomatch")).toEqual([]);
		expect(ofDependency(modules, "ignore")).toEqual([]);
	});

	it("loads the YAML parser once a skill or prompt file is found, and the skill reaches the model", async () => {
		server.enqueue(textReply("ok"));
		const modules = await tracedRun(["-p", "hi"], undefined, (box) =>
			writeFiles(box.agentDir, {
				"skills/pdf-tools/SKILL.md": "---\nname: pdf-tools\ndescription: Fills PDF forms.\n---\nSteps.\n",
			}),
		);
		expect(ofDependency(modules, "yaml")).not.toEqual([]);
		expect(JSON.stringify(server.requests[0]?.body.messages[0])).toContain("Fills PDF forms.");
	});

	it("RPC mode loads no terminal UI", async () => {
		const modules = await tracedRun(["--mode", "rpc"], '{"type":"get_state"}\n');
		expect(modules.some((url) => url.includes("/modes/rpc/rpc-mode.js"))).toBe(true);
		expect(ofPackage(modules, "tui")).toEqual([]);
		expect(modules.filter((url) => url.includes("/modes/interactive/"))).toEqual([]);
	});

	it("ACP mode loads the model's provider SDK once a session is made, before its first prompt", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const traceFile = join(sandbox.root, "modules.txt");
		Object.assign(sandbox.env, { NODE_OPTIONS: `--import ${TRACE_HOOK}`, AGENT_MODULE_TRACE: traceFile });
		const agent = await AcpTestClient.start(sandbox);
		try {
			await agent.initialize();
			const traced = () =>
				existsSync(traceFile) ? expandBundleChunks(readFileSync(traceFile, "utf8").trim().split("\n")) : [];
			expect(ofDependency(traced(), "openai")).toEqual([]);
			await agent.agent.request("session/new", { cwd: sandbox.cwd, mcpServers: [] });
			await waitFor(() => ofDependency(traced(), "openai").length > 0, "the OpenAI SDK to load", 15_000);
			expect(server.requests).toEqual([]);
		} finally {
			agent.kill();
		}
	});

	it("RPC mode loads the model's provider SDK while it waits for a first prompt", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		const traceFile = join(sandbox.root, "modules.txt");
		const agent = new RpcClient({
			cliPath: CLI_PATH,
			cwd: sandbox.cwd,
			env: { ...sandbox.env, NODE_OPTIONS: `--import ${TRACE_HOOK}`, AGENT_MODULE_TRACE: traceFile },
		});
		await agent.start();
		try {
			await agent.getState();
			const traced = () =>
				existsSync(traceFile) ? expandBundleChunks(readFileSync(traceFile, "utf8").trim().split("\n")) : [];
			// The sandbox's model speaks Chat Completions, through the OpenAI SDK.
			await waitFor(() => ofDependency(traced(), "openai").length > 0, "the OpenAI SDK to load", 15_000);
			expect(server.requests).toEqual([]);
		} finally {
			await agent.stop();
		}
	});
});

describe("the bundle", () => {
	it("is ASCII: V8 keeps a source file with one other character as a two-byte string, slower to read and compile", () => {
		const outputs = Object.keys(
			JSON.parse(readFileSync(join(PACKAGE_DIR, "dist", "agent.meta.json"), "utf8")) as Record<string, string[]>,
		);
		expect(outputs.length).toBeGreaterThan(10);
		const aiBundle = join(PACKAGE_DIR, "..", "ai", "dist", "bundle");
		const files = [
			join(PACKAGE_DIR, "bin", "agent.cjs"),
			...outputs.map((output) => join(PACKAGE_DIR, output)),
			...readdirSync(aiBundle, { recursive: true, encoding: "utf8" })
				.filter((file) => file.endsWith(".js"))
				.map((file) => join(aiBundle, file)),
		];
		expect(files.filter((file) => readFileSync(file).some((byte) => byte > 0x7f))).toEqual([]);
	});
});
