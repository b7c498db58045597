// The reference's SDK entry points to the modes: a program that built a session runs print mode, JSON mode or RPC
// mode on it, as the `agent` command would, and `main(args)` is the command itself. Each program runs in its own
// process against the built package, with a scripted provider.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const CODING_AGENT = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
const AI = fileURLToPath(new URL("../../../ai/dist/index.js", import.meta.url));

let root: string | undefined;
afterEach(() => {
	if (root) rmSync(root, { recursive: true, force: true });
	root = undefined;
});

const SESSION = `
const sdk = await import(process.env.CODING_AGENT);
const { FauxProvider, fauxText, getModel } = await import(process.env.AI);
const faux = new FauxProvider();
faux.enqueue(fauxText("First answer."), fauxText("Second answer."));
const { session } = await sdk.createAgentSession({
	cwd: process.cwd(),
	agentDir: process.env.AGENT_DIR,
	model: getModel("anthropic", "claude-sonnet-4-5"),
	authStorage: sdk.AuthStorage.inMemory({ anthropic: { type: "api_key", key: "sk-test" } }, {}),
	sessionManager: sdk.SessionManager.inMemory(),
	streamFn: faux.stream,
});
`;

interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

function runProgram(body: string, stdin = ""): Promise<Run> {
	root = realpathSync(mkdtempSync(join(tmpdir(), "agent-sdk-modes-")));
	const cwd = join(root, "project");
	const agentDir = join(root, "agent-home");
	mkdirSync(cwd);
	mkdirSync(agentDir);
	writeFileSync(join(root, "program.mjs"), `${SESSION}\n${body}`);
	return new Promise((resolve) => {
		const child = execFile(
			process.execPath,
			[join(root as string, "program.mjs")],
			{ cwd, env: { PATH: process.env.PATH, HOME: root, CODING_AGENT, AI, AGENT_DIR: agentDir } },
			(error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
		);
		child.stdin?.end(stdin);
	});
}

describe("the modes for SDK programs", () => {
	it("runPrintMode sends the first message and the further ones, printing the final answer", async () => {
		const run = await runProgram(
			`await sdk.runPrintMode(session, { mode: "text", initialMessage: "one", messages: ["two"] });
			process.stdout.write("[exitCode " + (process.exitCode ?? 0) + "]");`,
		);
		expect(run.stderr).toBe("");
		expect(run.stdout).toBe("Second answer.\n[exitCode 0]");
	});

	it("runPrintMode in JSON mode writes the session header and every event as JSON Lines", async () => {
		const run = await runProgram(`await sdk.runPrintMode(session, { mode: "json", initialMessage: "one" });`);
		const records = run.stdout
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line) as { type: string });
		expect(records[0]?.type).toBe("session");
		expect(records.map((record) => record.type)).toContain("agent_end");
		expect(run.stdout).toContain("First answer.");
	});

	it("runRpcMode answers commands from stdin and exits when stdin ends", async () => {
		const run = await runProgram(
			`await sdk.runRpcMode(session);
			process.stdout.write("not reached");`,
			`${JSON.stringify({ id: "1", type: "get_state" })}\n`,
		);
		expect(run.code).toBe(0);
		const response = run.stdout
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line) as { type: string; id?: string; command?: string; success?: boolean })
			.find((record) => record.type === "response");
		expect(response).toMatchObject({ id: "1", command: "get_state", success: true });
		expect(run.stdout).not.toContain("not reached");
	});

	it("main(args) is the agent command", async () => {
		const run = await runProgram(
			`await sdk.main(["--version"]);
			await sdk.main(["--no-such-flag"]);
			process.stdout.write("[exitCode " + process.exitCode + "]");`,
		);
		expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n\[exitCode 1\]$/);
		expect(run.stderr).toContain("--no-such-flag");
	});
});
