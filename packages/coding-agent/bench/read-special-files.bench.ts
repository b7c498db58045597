// How fast `read` refuses what is not a regular file (a device that never ends, a link to one, a FIFO with no
// writer): before the safety work it never returned and grew memory without limit (11 GB in 40 s).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BenchFigure, median, reportBenchmark } from "../../../scripts/bench-report.js";
import { createReadTool } from "../src/index.js";

const RUNS = 50;
let root: string;

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), "agent-read-bench-"));
	symlinkSync("/dev/urandom", join(root, "README.md"));
	execFileSync("mkfifo", [join(root, "pipe")]);
});

afterAll(() => {
	rmSync(root, { recursive: true, force: true });
});

async function refusalMs(path: string): Promise<number> {
	const read = createReadTool(root);
	const times: number[] = [];
	for (let run = 0; run < RUNS; run++) {
		const start = performance.now();
		await expect(read.execute("bench", { path })).rejects.toThrow(/not a regular file/);
		times.push(performance.now() - start);
	}
	return median(times);
}

it("refuses devices, links to devices and FIFOs at once", async () => {
	const rssBefore = process.memoryUsage().rss;
	const figures: BenchFigure[] = [
		{ name: "read /dev/zero refused", value: await refusalMs("/dev/zero"), unit: "ms", target: { max: 5 } },
		{
			name: "read README.md -> /dev/urandom refused",
			value: await refusalMs("README.md"),
			unit: "ms",
			target: { max: 5 },
		},
		{ name: "read a FIFO without a writer refused", value: await refusalMs("pipe"), unit: "ms", target: { max: 5 } },
	];
	figures.push({
		name: `RSS growth over ${RUNS * 3} refusals`,
		value: (process.memoryUsage().rss - rssBefore) / (1024 * 1024),
		unit: "MB",
		target: { max: 20 },
	});
	reportBenchmark("read-special-files", figures);
});
