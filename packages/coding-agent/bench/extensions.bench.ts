// Start-up cost of extensions: ten small TypeScript extensions (a tool with a TypeBox schema, a command, an
// event handler each), loaded by the built loader in a fresh Node process — the first time (compiling into an
// empty cache) and on later starts (compiled code from the cache). Also the whole CLI: `--list-models` runs the
// complete startup, extension loading included, and exits before any model call.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const CLI = join(DIST, "cli.js");
const EXTENSION_COUNT = 10;
const CACHED_RUNS = 7;
const CLI_PAIRS = 10;

function extensionSource(index: number): string {
	return `import type { ExtensionAPI } from "@agent/coding-agent";
import { Type } from "@sinclair/typebox";

interface Counter { calls: number }

export default function extension${index}(pi: ExtensionAPI): void {
	const counter: Counter = { calls: 0 };
	pi.registerTool({
		name: "tool_${index}",
		label: "Tool ${index}",
		description: "Example tool number ${index}",
		parameters: Type.Object({ value: Type.String({ description: "Any text" }) }),
		async execute(_id, params) {
			counter.calls++;
			return { content: [{ type: "text", text: params.value }], details: { calls: counter.calls } };
		},
	});
	pi.registerCommand("command-${index}", { description: "Command ${index}", handler: async () => {} });
	pi.on("tool_call", (event) => (event.toolName === "never-${index}" ? { block: true } : undefined));
}
`;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Runs the loader in a fresh process; milliseconds spent in `loadExtensions` (host packages included). */
function loadInFreshProcess(root: string, paths: string[], cacheDir: string, preloadIndex: boolean): number {
	const script = join(root, "load.mjs");
	writeFileSync(
		script,
		`const { loadExtensions } = await import(${JSON.stringify(join(DIST, "core/extensions/loader.js"))});
${preloadIndex ? `await import(${JSON.stringify(join(DIST, "index.js"))});` : ""}
const start = performance.now();
const result = await loadExtensions(${JSON.stringify(paths)}, { cwd: ${JSON.stringify(root)}, cacheDir: ${JSON.stringify(cacheDir)} });
const ms = performance.now() - start;
if (result.errors.length > 0 || result.extensions.length !== ${paths.length}) throw new Error(JSON.stringify(result.errors));
process.stdout.write(JSON.stringify({ ms }));
`,
	);
	const output = execFileSync(process.execPath, [script], { encoding: "utf8" });
	return (JSON.parse(output) as { ms: number }).ms;
}

/** Wall time of `agent --list-models` with the given extra arguments. */
function timeCli(root: string, args: string[], env: NodeJS.ProcessEnv): number {
	const start = performance.now();
	const result = spawnSync(process.execPath, [CLI, ...args, "--list-models"], { cwd: root, env, encoding: "utf8" });
	const ms = performance.now() - start;
	if (result.status !== 0) throw new Error(result.stderr);
	return ms;
}

it("loads ten TypeScript extensions: first start and cached starts", () => {
	const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-ext-bench-")));
	try {
		const paths: string[] = [];
		for (let i = 0; i < EXTENSION_COUNT; i++) {
			const path = join(root, "extensions", `extension-${i}.ts`);
			mkdirSync(join(root, "extensions"), { recursive: true });
			writeFileSync(path, extensionSource(i));
			paths.push(path);
		}
		const cacheDir = join(root, "cache");
		const first = loadInFreshProcess(root, paths, cacheDir, false);
		const cached = median(
			Array.from({ length: CACHED_RUNS }, () => loadInFreshProcess(root, paths, cacheDir, false)),
		);
		const cachedWarmHost = median(
			Array.from({ length: CACHED_RUNS }, () => loadInFreshProcess(root, paths, cacheDir, true)),
		);

		const agentDir = join(root, "agent-home");
		mkdirSync(agentDir, { recursive: true });
		const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: root, AGENT_DIR: agentDir, AGENT_OFFLINE: "1" };
		const extensionArgs = paths.flatMap((path) => ["-e", path]);
		timeCli(root, extensionArgs, env); // fills <agentDir>/cache/extensions
		// Runs alternate in ABBA order, so drift in the machine's load falls on both sides alike.
		const without: number[] = [];
		const withExtensions: number[] = [];
		for (let run = 0; run < CLI_PAIRS; run++) {
			if (run % 2 === 0) {
				without.push(timeCli(root, [], env));
				withExtensions.push(timeCli(root, extensionArgs, env));
			} else {
				withExtensions.push(timeCli(root, extensionArgs, env));
				without.push(timeCli(root, [], env));
			}
		}
		const added = median(withExtensions) - median(without);
		const load = `load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`;

		reportBenchmark("extensions-startup", [
			{
				name: "10 extensions, first start (compile into an empty cache)",
				value: first,
				unit: "ms",
				note: "fresh process, host packages loaded by the loader",
			},
			{
				name: "10 extensions, cached start",
				value: cached,
				unit: "ms",
				note: `median of ${CACHED_RUNS} fresh processes, host packages (TypeBox) loaded by the loader`,
			},
			{
				name: "10 extensions, cached start, host packages already loaded",
				value: cachedWarmHost,
				unit: "ms",
				target: { max: 100 },
				note: "the loader's own cost, as in the CLI (which has loaded the host packages): jiti, cached modules, factories",
			},
			{ name: "agent --list-models, no extensions", value: median(without), unit: "ms", note: load },
			{ name: "agent --list-models, 10 extensions (cached)", value: median(withExtensions), unit: "ms", note: load },
			{
				name: "CLI start-up added by 10 extensions (cached)",
				value: added,
				unit: "ms",
				target: { max: 100 },
				note: `difference of the medians of ${CLI_PAIRS} alternating runs each; ${load}`,
			},
		]);
		expect(cached).toBeLessThan(first);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
});
