// A command printing far more than anyone reads: what is kept in memory stays bounded (the bash tool's
// collector, the !cmd collector, the interactive !cmd display), the full-output file stops at
// limits.bashOutputFileBytes and says so, and the files go away with their registry.
import { existsSync, readFileSync, statSync } from "node:fs";
import {
	type BashOperations,
	BashOutputCollector,
	BashOutputFiles,
	createBashTool,
	ROLLING_WINDOW_BYTES,
} from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { CommandOutput, runUserBash } from "../../src/core/session-runtime/user-bash.js";
import { BashExecutionComponent } from "../../src/modes/interactive/components/bash-execution.js";
import type { DisplayState } from "../../src/modes/interactive/display-state.js";
import { redirectTmpdir, run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-bash-bounds-");
redirectTmpdir(tempDir);

const MiB = 1024 * 1024;
const line = (n: number) => `${String(n).padStart(9, "0")} ${"output ".repeat(9)}\n`;

/** `total` bytes of numbered lines in chunks of `size`. */
function* chunksOf(total: number, size: number): Generator<Buffer> {
	let text = "";
	let n = 0;
	let sent = 0;
	while (sent < total) {
		while (text.length < size) text += line(++n);
		const piece = Buffer.from(text.slice(0, Math.min(size, total - sent)));
		text = text.slice(piece.length);
		sent += piece.length;
		yield piece;
	}
}

describe("the bash tool's collector", () => {
	it("holds at most the rolling window however much arrives, in pipe-sized or huge chunks", () => {
		const files = new BashOutputFiles();
		for (const size of [64 * 1024, 5 * MiB]) {
			const collector = new BashOutputCollector({ files });
			let retained = 0;
			for (const chunk of chunksOf(20 * MiB, size)) {
				collector.append(chunk);
				retained = Math.max(retained, collector.retainedBytes);
			}
			expect(retained).toBeLessThanOrEqual(ROLLING_WINDOW_BYTES);
			const snapshot = collector.snapshot(false);
			expect(snapshot.totalBytes).toBe(20 * MiB);
			expect(snapshot.truncation.truncated).toBe(true);
			const path = collector.fullOutputPath as string;
			collector.close();
			expect(statSync(path).size).toBe(20 * MiB);
			// The tail shown is the end of the output.
			expect(readFileSync(path, "utf8").endsWith(snapshot.truncation.content)).toBe(true);
		}
		files.dispose();
	});

	it("stops the full-output file at maxFileBytes", () => {
		const collector = new BashOutputCollector({ maxFileBytes: MiB });
		for (const chunk of chunksOf(3 * MiB, 64 * 1024)) collector.append(chunk);
		collector.close();
		expect(collector.fullOutputCapped).toBe(true);
		expect(statSync(collector.fullOutputPath as string).size).toBe(MiB);
	});
});

describe("the bash tool", () => {
	it("says the full-output file stopped at limits.bashOutputFileBytes, after the usual notice", async () => {
		const files = new BashOutputFiles();
		const tool = createBashTool(tempDir(), { output: { maxFileBytes: MiB, files } });
		const result = await run(tool, { command: "seq 1 500000" });
		const text = textOf(result);
		expect(text).toMatch(
			/\n\n\[Showing lines 498002-500001 of 500001\. Full output: \S+agent-bash-\d+\.\d+-[0-9a-f]{16}\.log\]\n\n\[The full output file stopped at 1\.0MB \(limits\.bashOutputFileBytes in settings\.json\); output after that is not in it\.\]$/,
		);
		const [path] = files.list();
		expect(statSync(path as string).size).toBe(MiB);
		files.dispose();
		expect(existsSync(path as string)).toBe(false);
	});
});

describe("!cmd", () => {
	it("holds at most 100K characters of output while a command prints 20 MB", () => {
		const output = new CommandOutput(undefined, { files: new BashOutputFiles() });
		let retained = 0;
		for (const chunk of chunksOf(20 * MiB, 64 * 1024)) {
			output.append(chunk);
			retained = Math.max(retained, output.retainedChars);
		}
		expect(retained).toBeLessThanOrEqual(ROLLING_WINDOW_BYTES);
		expect(output.finish().truncated).toBe(true);
	});

	it("stops the full-output file at its limit and says so in the output", async () => {
		const files = new BashOutputFiles();
		const operations: BashOperations = {
			exec: async (_command, _cwd, { onData }) => {
				for (const chunk of chunksOf(3 * MiB, 64 * 1024)) onData(chunk);
				return { exitCode: 0 };
			},
		};
		const result = await runUserBash("print a lot", {
			cwd: tempDir(),
			operations,
			output: { files, maxFileBytes: MiB },
		});
		expect(result.output).toMatch(
			/\n\n\[The full output file stopped at 1\.0MB \(limits\.bashOutputFileBytes in settings\.json\); output after that is not in it\.\]$/,
		);
		expect(statSync(result.fullOutputPath as string).size).toBe(MiB);
		files.dispose();
	});

	it("keeps at most limits.bashMemoryBytes for the interactive display while it runs", () => {
		const component = new BashExecutionComponent({} as DisplayState, "yes", false, 256 * 1024);
		let retained = 0;
		for (const chunk of chunksOf(20 * MiB, 64 * 1024)) {
			component.appendOutput(chunk.toString("utf8"));
			retained = Math.max(retained, component.retainedChars);
		}
		expect(retained).toBe(256 * 1024);
	});
});
