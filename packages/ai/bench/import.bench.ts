// Cost of `import("@agent/ai")` for a program that starts up and maybe never calls a provider: the
// built package is imported in fresh Node processes, timed inside each process, and traced to show that
// no provider SDK is loaded. Run with `pnpm bench` (which builds first).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { median, reportBenchmark } from "../../../scripts/bench-report.js";
import { AI_BUILT_ENTRY, loadedSdkPackages, traceModuleLoads } from "../test/helpers/module-trace.js";

const run = promisify(execFile);
const RUNS = 11;
const packageDir = fileURLToPath(new URL("..", import.meta.url));

const builtEntryUrl = pathToFileURL(AI_BUILT_ENTRY).href;
const timeImport = `const start = performance.now();
await import(${JSON.stringify(builtEntryUrl)});
process.stdout.write(String(performance.now() - start));`;
// The bundled entry inlines TypeBox (re-exported as \`Type\`); timing the import after loading TypeBox's own
// ~200-module build shows what a consumer that also imports TypeBox directly pays on top.
const timeImportAfterTypebox = `await import("@sinclair/typebox");
${timeImport}`;

async function timeInFreshProcesses(script: string): Promise<number[]> {
	const times: number[] = [];
	// One process at a time, so runs do not compete for the cores; the first warms the file cache.
	await run(process.execPath, ["--input-type=module", "-e", script], { cwd: packageDir });
	for (let i = 0; i < RUNS; i++) {
		const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: packageDir });
		times.push(Number(stdout));
	}
	return times;
}

it("imports @agent/ai quickly and without any provider SDK", async () => {
	expect(existsSync(AI_BUILT_ENTRY), `${AI_BUILT_ENTRY} is missing; run pnpm build`).toBe(true);
	const importMs = await timeInFreshProcesses(timeImport);
	const ownMs = await timeInFreshProcesses(timeImportAfterTypebox);
	const loaded = await traceModuleLoads([AI_BUILT_ENTRY]);
	const sdks = loadedSdkPackages(loaded);
	const modules = loaded.filter((url) => url.startsWith("file:")).length;

	reportBenchmark("ai-import", [
		{
			name: "median import time",
			value: median(importMs),
			unit: "ms",
			target: { max: 30 },
			note: `${RUNS} fresh processes`,
		},
		{ name: "fastest import time", value: Math.min(...importMs), unit: "ms" },
		{ name: "median import time with TypeBox already loaded", value: median(ownMs), unit: "ms" },
		{ name: "modules loaded", value: modules, unit: "modules" },
		{
			name: "provider SDKs loaded",
			value: sdks.length,
			unit: "packages",
			target: { max: 0 },
			note: sdks.join(", ") || "none",
		},
	]);
	expect(sdks).toEqual([]);
});
