// An SDK program that never disposes its session and ends with process.exit leaves no temporary file or directory
// behind: the bash tool's full-output file, the checkpoint store of a session kept in memory and the checkpoint
// watch barrier are all removed when the process exits.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";

const CODING_AGENT = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
const AI = fileURLToPath(new URL("../../../ai/dist/index.js", import.meta.url));

let root: string | undefined;
afterEach(() => {
	if (root) rmSync(root, { recursive: true, force: true });
	root = undefined;
});

const PROGRAM = `
const { AuthStorage, createAgentSession, SessionManager } = await import(process.env.CODING_AGENT);
const { FauxProvider, fauxText, fauxToolCall, getModel } = await import(process.env.AI);
const faux = new FauxProvider();
faux.enqueue(fauxToolCall("bash", { command: "seq 1 30000 > numbers.txt; seq 1 30000" }), fauxText("done"));
const { session } = await createAgentSession({
	cwd: process.cwd(),
	agentDir: process.env.AGENT_DIR,
	model: getModel("anthropic", "claude-sonnet-4-5"),
	authStorage: AuthStorage.inMemory({ anthropic: { type: "api_key", key: "sk-test" } }, {}),
	sessionManager: SessionManager.inMemory(),
	streamFn: faux.stream,
});
await session.prompt("count");
const made = (await import("node:fs")).readdirSync(process.env.TMPDIR);
process.stdout.write(JSON.stringify(made));
process.exit(0);
`;

it("removes what the session made in the temporary directory when the program exits without disposing", async () => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "agent-sdk-exit-")));
	const tmp = join(root, "tmp");
	const cwd = join(root, "project");
	const agentDir = join(root, "agent-home");
	for (const dir of [tmp, cwd, agentDir]) mkdirSync(dir);
	writeFileSync(join(root, "program.mjs"), PROGRAM);
	const stdout = await new Promise<string>((resolve, reject) => {
		execFile(
			process.execPath,
			[join(root as string, "program.mjs")],
			{ cwd, env: { PATH: process.env.PATH, HOME: root, TMPDIR: tmp, CODING_AGENT, AI, AGENT_DIR: agentDir } },
			(error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
		);
	});
	// While the session lived, it had made temporary files (else this test would prove nothing).
	expect((JSON.parse(stdout) as string[]).length).toBeGreaterThan(0);
	expect(readdirSync(tmp)).toEqual([]);
});
