// An SDK program that never disposes its session and ends with process.exit leaves no temporary file or directory
// behind: the bash tool's full-output file, the checkpoint store of a session kept in memory and the checkpoint
// watch barrier are all removed when the process exits.
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { SdkProgramSandbox, sessionProgram } from "../helpers/sdk-program.js";

let sandbox: SdkProgramSandbox | undefined;
afterEach(() => {
	sandbox?.cleanup();
	sandbox = undefined;
});

const PROGRAM = `${sessionProgram({
	before: `const faux = new ai.FauxProvider();
faux.enqueue(ai.fauxToolCall("bash", { command: "seq 1 30000 > numbers.txt; seq 1 30000" }), ai.fauxText("done"));`,
	streamFn: "faux.stream",
})}
await session.prompt("count");
const made = (await import("node:fs")).readdirSync(process.env.TMPDIR);
process.stdout.write(JSON.stringify(made));
process.exit(0);
`;

it("removes what the session made in the temporary directory when the program exits without disposing", async () => {
	sandbox = new SdkProgramSandbox();
	const tmp = join(sandbox.root, "tmp");
	mkdirSync(tmp);
	const run = await sandbox.run(PROGRAM, { env: { TMPDIR: tmp } });
	expect(run.code, run.stderr).toBe(0);
	// While the session lived, it had made temporary files (else this test would prove nothing).
	expect((JSON.parse(run.stdout) as string[]).length).toBeGreaterThan(0);
	expect(readdirSync(tmp)).toEqual([]);
});
