// Start-up with installed packages (issue 15): the built binary in a pseudo terminal, from spawn to the first
// frame with the footer. Four worlds, measured in alternation so a busy machine slows them alike:
//   none        no packages, no extensions
//   resources   10 npm packages installed by `agent install` from a local registry, a skill and a prompt each
//   extensions  the same 10 packages with a TypeScript extension each (compile cache warm)
//   loose       those 10 extensions, skills and prompts as files in AGENT_DIR, without packages
// "extensions − loose" is what being in packages costs; "loose − none" is the extensions' own cost.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { median, reportBenchmark } from "../../../scripts/bench-report.js";
import { BUNDLE_PATH, type CliSandbox, createCliSandbox, runCli } from "../test/helpers/cli-sandbox.js";
import { FakeModelServer, textReply } from "../test/helpers/fake-model-server.js";
import { NpmRegistry } from "../test/helpers/npm-registry.js";
import { createPackageSandbox, type PackageSandbox } from "../test/helpers/package-sandbox.js";
import { cpuTicks, findAgentPid, startInPty } from "./helpers/pty.js";

const PACKAGES = 10;
const RUNS = 9;
const CLOCK_TICKS_PER_SECOND = 100;

type World = "none" | "resources" | "extensions" | "loose";

let server: FakeModelServer;
let registry: NpmRegistry;
const worlds = {} as Record<World, CliSandbox>;
const packageSandboxes: PackageSandbox[] = [];
const canUsePty = existsSync("/usr/bin/script") && existsSync("/proc/self/stat");

function packageFiles(index: number, withExtension: boolean): Record<string, string> {
	const files: Record<string, string> = {
		[`skills/skill-${index}/SKILL.md`]: `---\nname: skill-${index}\ndescription: Skill of package ${index}\n---\nBody\n`,
		[`prompts/prompt-${index}.md`]: `---\ndescription: Prompt of package ${index}\n---\nDo ${index}\n`,
	};
	if (withExtension) {
		files[`extensions/pack-${index}.ts`] = [
			'import type { ExtensionAPI } from "@agent/coding-agent";',
			"",
			"export default function (agent: ExtensionAPI) {",
			`\tagent.registerCommand("pack-${index}", {`,
			`\t\tdescription: "Command of package ${index}",`,
			`\t\thandler: async (_args, ctx) => ctx.ui.notify("package ${index}", "info"),`,
			"\t});",
			'\tagent.on("session_start", () => {});',
			"}",
			"",
		].join("\n");
	}
	return files;
}

async function installPackages(world: "resources" | "extensions"): Promise<CliSandbox> {
	const sandbox = createPackageSandbox(registry, { modelServerUrl: server.baseUrl });
	packageSandboxes.push(sandbox);
	for (let i = 0; i < PACKAGES; i++) {
		const name = `@bench-${world}/pack-${i}`;
		registry.publish({ name, version: "1.0.0", files: packageFiles(i, world === "extensions") });
		const result = await sandbox.agent(["install", `npm:${name}`]);
		if (result.code !== 0) throw new Error(result.stderr);
	}
	// Start-up with everything installed spawns nothing: no npm, no registry check.
	sandbox.env.AGENT_OFFLINE = "1";
	return sandbox;
}

function looseFiles(): CliSandbox {
	const sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	for (let i = 0; i < PACKAGES; i++) {
		for (const [path, content] of Object.entries(packageFiles(i, true))) {
			mkdirSync(join(sandbox.agentDir, path, ".."), { recursive: true });
			writeFileSync(join(sandbox.agentDir, path), content);
		}
	}
	return sandbox;
}

async function startOnce(sandbox: CliSandbox): Promise<{ ms: number; cpuMs: number }> {
	const started = performance.now();
	const pty = startInPty([], sandbox);
	const ready = await pty.waitFor("fake-model");
	const pid = findAgentPid(pty.child.pid as number);
	const cpuMs = pid === undefined ? Number.NaN : (cpuTicks(pid) / CLOCK_TICKS_PER_SECOND) * 1000;
	pty.close();
	await new Promise((resolve) => pty.child.once("close", resolve));
	return { ms: ready - started, cpuMs };
}

/** A print run that must show every package's skill and no warning: the worlds are what they claim. */
async function checkLoads(sandbox: CliSandbox): Promise<void> {
	const result = await runCli(sandbox, ["-p", "hi"], { timeoutMs: 60_000 });
	const system = JSON.stringify(server.requests.at(-1)?.body.messages[0] ?? "");
	if (result.code !== 0 || result.stderr !== "" || !system.includes(`skill-${PACKAGES - 1}`)) {
		throw new Error(`the resources did not load cleanly: ${result.stderr}`);
	}
}

beforeAll(async () => {
	if (!existsSync(BUNDLE_PATH)) throw new Error(`${BUNDLE_PATH} is missing: build first (pnpm build)`);
	registry = await NpmRegistry.start();
	server = await FakeModelServer.start();
	server.setFallback(textReply("ok"));
	worlds.none = createCliSandbox({ modelServerUrl: server.baseUrl });
	worlds.resources = await installPackages("resources");
	worlds.extensions = await installPackages("extensions");
	worlds.loose = looseFiles();
	for (const world of ["resources", "extensions", "loose"] as const) await checkLoads(worlds[world]);
	for (const world of Object.values(worlds)) await startOnce(world); // warm caches (compiled extensions, disk)
}, 600_000);

afterAll(async () => {
	for (const sandbox of [...Object.values(worlds), ...packageSandboxes]) sandbox?.cleanup();
	await server?.close();
	await registry?.close();
});

describe("start-up with installed packages", () => {
	it.skipIf(!canUsePty)("reaches the editor in under 150 ms with 10 installed packages", async () => {
		const order: World[] = ["none", "resources", "extensions", "loose"];
		const wall = Object.fromEntries(order.map((world) => [world, [] as number[]])) as Record<World, number[]>;
		const cpu = Object.fromEntries(order.map((world) => [world, [] as number[]])) as Record<World, number[]>;
		for (let run = 0; run < RUNS; run++) {
			for (const world of order) {
				const { ms, cpuMs } = await startOnce(worlds[world]);
				wall[world].push(ms);
				cpu[world].push(cpuMs);
			}
		}
		const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
		const note = `${RUNS} runs per world, alternating; load average ${load}`;
		reportBenchmark("packages-startup", [
			{ name: "editor ready, no packages (median)", value: median(wall.none), unit: "ms", note },
			{
				name: `editor ready, ${PACKAGES} packages with a skill and a prompt each (median)`,
				value: median(wall.resources),
				unit: "ms",
				target: { max: 150 },
			},
			{
				name: `editor ready, ${PACKAGES} packages with a TypeScript extension, a skill and a prompt each (median)`,
				value: median(wall.extensions),
				unit: "ms",
				target: { max: 150 },
			},
			{
				name: `editor ready, the same ${PACKAGES} extensions, skills and prompts as loose files (median)`,
				value: median(wall.loose),
				unit: "ms",
			},
			{ name: "CPU to editor ready, no packages (median)", value: median(cpu.none), unit: "ms" },
			{ name: "CPU to editor ready, packages with skills and prompts", value: median(cpu.resources), unit: "ms" },
			{ name: "CPU to editor ready, packages with extensions", value: median(cpu.extensions), unit: "ms" },
			{ name: "CPU to editor ready, loose files", value: median(cpu.loose), unit: "ms" },
		]);
		expect(wall.extensions.length).toBe(RUNS);
	});
});
