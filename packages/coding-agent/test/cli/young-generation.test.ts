// After its first turn, the `agent` process no longer lets V8's young generation grow past the size it has then
// (src/cli/young-generation.ts): later turns would otherwise double it, two or three times, for good. A preload
// records its size at the second model request (the first turn done) and at exit.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox, runCli } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";

const TURNS = 300;

const PROBE = `
const { subscribe } = require("node:diagnostics_channel");
const { writeFileSync } = require("node:fs");
const { getHeapSpaceStatistics } = require("node:v8");
const youngBytes = () => getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size;
let requests = 0;
let atSecondRequest;
subscribe("http.client.request.start", () => { if (++requests === 2) atSecondRequest = youngBytes(); });
process.on("exit", () => {
	writeFileSync(process.env.YOUNG_GENERATION_OUT, JSON.stringify({ atSecondRequest, atExit: youngBytes() }));
});
`;

const server = startFakeModelServerForFile();
let sandbox: CliSandbox | undefined;

afterEach(() => {
	sandbox?.cleanup();
	sandbox = undefined;
});

it(`keeps the young generation at its size after the first turn over ${TURNS} turns`, async () => {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	writeFileSync(join(sandbox.cwd, "note.txt"), "a small file\n");
	const probe = join(sandbox.root, "probe.cjs");
	writeFileSync(probe, PROBE);
	const out = join(sandbox.root, "young.json");
	let turn = 0;
	server.setFallback(() =>
		++turn < TURNS ? toolCallReply([{ name: "read", arguments: { path: "note.txt" } }]) : textReply("done"),
	);
	try {
		const result = await runCli(sandbox, ["--no-session", "-p", "read note.txt, again and again"], {
			nodeArgs: ["--require", probe],
			env: { YOUNG_GENERATION_OUT: out },
			timeoutMs: 120_000,
		});
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("done\n");
	} finally {
		server.setFallback(undefined);
	}
	expect(turn).toBe(TURNS);
	const { atSecondRequest, atExit } = JSON.parse(readFileSync(out, "utf8")) as Record<string, number>;
	expect(atSecondRequest).toBeGreaterThan(0);
	// V8 may still shrink it (its memory reducer, when allocation slows down).
	expect(atExit).toBeLessThanOrEqual(atSecondRequest);
});
