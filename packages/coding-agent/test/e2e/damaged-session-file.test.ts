// Resuming a session file with a damaged line in the middle, in the built binary: the model still gets the
// history before the damaged line, stderr names file:line, and the file keeps its bytes.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox, runCli } from "../helpers/cli-sandbox.js";
import { lastUserText, startFakeModelServerForFile, textReply } from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox;
afterEach(() => sandbox?.cleanup());

function onlySessionFile(agentDir: string): string {
	const root = join(agentDir, "sessions");
	const [dir] = readdirSync(root);
	// The session file, not the checkpoint store beside it.
	const [file] = readdirSync(join(root, dir as string)).filter((name) => name.endsWith(".jsonl"));
	return join(root, dir as string, file as string);
}

describe("a session file damaged in the middle", () => {
	it("keeps the history before the damaged line in the model's context and warns with file:line", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		server.enqueue(textReply("answer one"), textReply("answer two"), textReply("answer three"));
		expect((await runCli(sandbox, ["-p", "question one", "question two", "question three"])).code).toBe(0);
		const file = onlySessionFile(sandbox.agentDir);
		const lines = readFileSync(file, "utf8").split("\n");
		const damagedIndex = lines.findIndex((line) => line.includes('"question two"'));
		lines[damagedIndex] = (lines[damagedIndex] as string).slice(0, 30);
		const damaged = lines.join("\n");
		writeFileSync(file, damaged);

		server.enqueue(textReply("answer four"));
		const result = await runCli(sandbox, ["--session", file, "-p", "question four"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("answer four\n");
		expect(result.stderr).toContain(`Warning: ${file}:${damagedIndex + 1}: not valid JSON`);
		expect(result.stderr).toMatch(
			new RegExp(
				`Warning: .*:${damagedIndex + 2}: parent [0-9a-f]{8} was lost with damaged line ${damagedIndex + 1}`,
			),
		);
		const request = server.requests.at(-1);
		expect(lastUserText(request!)).toBe("question four");
		const sent = JSON.stringify(request?.body.messages);
		for (const text of ["question one", "answer one", "answer two", "question three", "answer three"]) {
			expect(sent).toContain(text);
		}
		// The damaged line is still there, as written; the new exchange was appended after it.
		expect(readFileSync(file, "utf8").startsWith(damaged)).toBe(true);
	});
});
