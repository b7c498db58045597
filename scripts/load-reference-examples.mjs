#!/usr/bin/env node
// Loads each of the reference's example extensions (pi-mono v0.58.3, `examples/extensions/`) into the built
// `agent` with `-e`, from a temporary copy, and reports which load. Needs the reference installed by
// `node scripts/reference-exports.mjs [cacheDir]` (same cache directory) and `pnpm build`. Offline: no model
// is called (RPC mode, `get_commands` only); examples with their own npm dependencies are installed into the
// temporary copy only with --install. Run: node scripts/load-reference-examples.mjs [cacheDir] [--install]
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const install = args.includes("--install");
const cache = args.find((arg) => !arg.startsWith("--")) ?? join(tmpdir(), "agent-reference-0.58.3");
const examples = join(cache, "node_modules", "@mariozechner", "pi-coding-agent", "examples", "extensions");
if (!existsSync(examples)) {
	console.error(`No reference examples at ${examples}: run node scripts/reference-exports.mjs first.`);
	process.exit(2);
}
const cli = join(root, "packages", "coding-agent", "bin", "agent.cjs");
const work = mkdtempSync(join(tmpdir(), "agent-examples-"));
const copy = join(work, "extensions");
cpSync(examples, copy, { recursive: true });
const agentDir = join(work, "agent-dir");
const project = join(work, "project");
mkdirSync(agentDir, { recursive: true });
mkdirSync(project, { recursive: true });
writeFileSync(
	join(agentDir, "models.json"),
	JSON.stringify({
		providers: {
			fake: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "k", models: [{ id: "m" }] },
		},
	}),
);

const entries = readdirSync(copy)
	.filter((name) => name.endsWith(".ts") || statSync(join(copy, name)).isDirectory())
	.sort();
let loaded = 0;
const failures = [];
for (const name of entries) {
	const path = join(copy, name);
	if (install && existsSync(join(path, "package.json"))) {
		execFileSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: path, stdio: "ignore" });
	}
	const { stdout, stderr } = await runRpc(["-e", path, "--no-session"], '{"id":"1","type":"get_commands"}\n');
	const response = stdout
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line))
		.find((record) => record.id === "1");
	const failed = /Failed to load extension|does not export a valid factory/.test(stderr) || !response?.success;
	if (failed) failures.push({ name, stderr: stderr.trim().split("\n").slice(0, 3).join(" | ") });
	else loaded++;
	console.log(`${failed ? "FAIL" : "ok  "} ${name}`);
}
console.log(`\n${loaded} of ${entries.length} examples load`);
for (const { name, stderr } of failures) console.log(`- ${name}: ${stderr}`);
rmSync(work, { recursive: true, force: true });

function runRpc(extra, input) {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [cli, "--mode", "rpc", ...extra], {
			cwd: project,
			env: { PATH: process.env.PATH, HOME: work, AGENT_DIR: agentDir, AGENT_OFFLINE: "1" },
		});
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk) => {
			stdout += chunk;
			// One response is all we ask for: close stdin once it arrived.
			if (stdout.includes('"id":"1"')) child.stdin.end();
		});
		child.stderr.on("data", (chunk) => {
			stderr += chunk;
		});
		child.stdin.write(input);
		const timer = setTimeout(() => child.kill("SIGKILL"), 30000);
		child.on("close", () => {
			clearTimeout(timer);
			resolve({ stdout, stderr });
		});
	});
}
