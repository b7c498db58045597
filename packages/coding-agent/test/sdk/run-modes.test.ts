// The reference's SDK entry points to the modes: a program that built a session runs print mode, JSON mode or RPC
// mode on it, as the `agent` command would, and `main(args)` is the command itself. Each program runs in its own
// process against the built package, with a scripted provider.
import { afterEach, describe, expect, it } from "vitest";
import { type SdkProgramRun, SdkProgramSandbox, sessionProgram } from "../helpers/sdk-program.js";

let sandbox: SdkProgramSandbox | undefined;
afterEach(() => {
	sandbox?.cleanup();
	sandbox = undefined;
});

const SESSION = sessionProgram({
	before: `const faux = new ai.FauxProvider();
faux.enqueue(ai.fauxText("First answer."), ai.fauxText("Second answer."));`,
	streamFn: "faux.stream",
});

function runProgram(body: string, stdin = ""): Promise<SdkProgramRun> {
	sandbox = new SdkProgramSandbox();
	return sandbox.run(`${SESSION}\n${body}`, { stdin });
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
