// AgentSession.preloadProvider(): a program (the modes do it while they wait for a first prompt) loads the model's
// provider SDK ahead of the first call, and nothing when the session streams through a function of its own. Each
// program runs in its own process against the built package, its module loads traced.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { SdkProgramSandbox, sessionProgram } from "../helpers/sdk-program.js";

const TRACE_HOOK = fileURLToPath(new URL("../helpers/cli-module-trace.mjs", import.meta.url));

let sandbox: SdkProgramSandbox | undefined;
afterEach(() => {
	sandbox?.cleanup();
	sandbox = undefined;
});

/** Runs a program that makes a session for an Anthropic model and awaits its preload; returns the loaded modules. */
async function preloadIn(options: { ownStreamFn: boolean }): Promise<string[]> {
	sandbox = new SdkProgramSandbox();
	const trace = join(sandbox.root, "modules.txt");
	const run = await sandbox.run(
		`${sessionProgram(options.ownStreamFn ? { streamFn: "new ai.FauxProvider().stream" } : {})}
await session.preloadProvider();
process.stdout.write("preloaded");`,
		{ nodeArgs: ["--import", TRACE_HOOK], env: { AGENT_MODULE_TRACE: trace } },
	);
	expect(run.stdout, run.stderr).toBe("preloaded");
	return readFileSync(trace, "utf8").trim().split("\n");
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
