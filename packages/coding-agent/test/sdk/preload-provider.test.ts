// AgentSession.preloadProvider(): a program (the modes do it while they wait for a first prompt) loads the model's
// provider SDK ahead of the first call, and nothing when the session streams through a function of its own. Each
// program runs in its own process against the built package, its module loads traced.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const CODING_AGENT = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
const AI = fileURLToPath(new URL("../../../ai/dist/index.js", import.meta.url));
const TRACE_HOOK = fileURLToPath(new URL("../helpers/cli-module-trace.mjs", import.meta.url));

let root: string | undefined;
afterEach(() => {
	if (root) rmSync(root, { recursive: true, force: true });
	root = undefined;
});

/** Runs a program that makes a session for an Anthropic model and awaits its preload; returns the loaded modules. */
function preloadIn(options: { ownStreamFn: boolean }): Promise<string[]> {
	root = realpathSync(mkdtempSync(join(tmpdir(), "agent-preload-")));
	const cwd = join(root, "project");
	const agentDir = join(root, "agent-home");
	const trace = join(root, "modules.txt");
	mkdirSync(cwd);
	mkdirSync(agentDir);
	writeFileSync(
		join(root, "program.mjs"),
		`const sdk = await import(process.env.CODING_AGENT);
const { FauxProvider, getModel } = await import(process.env.AI);
const { session } = await sdk.createAgentSession({
	cwd: process.cwd(),
	agentDir: process.env.AGENT_DIR,
	model: getModel("anthropic", "claude-sonnet-4-5"),
	authStorage: sdk.AuthStorage.inMemory({ anthropic: { type: "api_key", key: "sk-test" } }, {}),
	sessionManager: sdk.SessionManager.inMemory(),
	${options.ownStreamFn ? "streamFn: new FauxProvider().stream," : ""}
});
await session.preloadProvider();
process.stdout.write("preloaded");
`,
	);
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			["--import", TRACE_HOOK, join(root as string, "program.mjs")],
			{
				cwd,
				env: {
					PATH: process.env.PATH,
					HOME: root,
					CODING_AGENT,
					AI,
					AGENT_DIR: agentDir,
					AGENT_MODULE_TRACE: trace,
				},
			},
			(error, stdout, stderr) => {
				if (error || stdout !== "preloaded") return reject(new Error(`program failed: ${stderr}`));
				resolve(readFileSync(trace, "utf8").trim().split("\n"));
			},
		);
	});
}

const anthropicSdk = (modules: string[]) => modules.filter((url) => url.includes("/node_modules/@anthropic-ai/sdk/"));

describe("preloading the session's provider", () => {
	it("loads the model's SDK before any call", async () => {
		expect(anthropicSdk(await preloadIn({ ownStreamFn: false }))).not.toEqual([]);
	});

	it("loads nothing for a session given a stream function of its own", async () => {
		expect(anthropicSdk(await preloadIn({ ownStreamFn: true }))).toEqual([]);
	});
});
