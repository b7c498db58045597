#!/usr/bin/env node
// Lists every name the reference's four packages export (pi-mono v0.58.3) into
// packages/coding-agent/test/fixtures/reference-exports.json, which the public API parity test reads
// (tests never reach the network). Installs the reference into a temporary cache directory, never as a
// dependency of ours. Run: node scripts/reference-exports.mjs [cacheDir]
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const VERSION = "0.58.3";
const PACKAGES = {
	"coding-agent": "@mariozechner/pi-coding-agent",
	ai: "@mariozechner/pi-ai",
	"agent-core": "@mariozechner/pi-agent-core",
	tui: "@mariozechner/pi-tui",
};

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cache = process.argv[2] ?? join(tmpdir(), `agent-reference-${VERSION}`);
mkdirSync(cache, { recursive: true });
// Exact versions everywhere: the reference's ranges (^0.58.3) would otherwise pull a newer sibling.
const pins = Object.fromEntries(Object.values(PACKAGES).map((name) => [name, VERSION]));
writeFileSync(join(cache, "package.json"), JSON.stringify({ name: "reference-cache", private: true, overrides: pins }));
execFileSync(
	"npm",
	["install", "--ignore-scripts", "--no-audit", "--no-fund", ...Object.values(PACKAGES).map((n) => `${n}@${VERSION}`)],
	{ cwd: cache, stdio: "inherit" },
);

const result = { version: VERSION, packages: {} };
for (const [ours, name] of Object.entries(PACKAGES)) {
	const dir = join(cache, "node_modules", name);
	const entry = join(dir, "dist", "index.d.ts");
	const program = ts.createProgram([entry], {
		module: ts.ModuleKind.NodeNext,
		moduleResolution: ts.ModuleResolutionKind.NodeNext,
		skipLibCheck: true,
	});
	const checker = program.getTypeChecker();
	const source = program.getSourceFile(entry);
	const moduleSymbol = checker.getSymbolAtLocation(source);
	const runtime = await import(join(dir, "dist", "index.js"));
	const values = {};
	const types = [];
	for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
		const name = symbol.getName();
		if (name in runtime) {
			const value = runtime[name];
			values[name] =
				typeof value === "function"
					? /^class\b/.test(Function.prototype.toString.call(value))
						? "class"
						: "function"
					: typeof value;
		} else {
			types.push(name);
		}
	}
	result.packages[ours] = { reference: name, values: sortKeys(values), types: types.sort() };
}
const out = join(root, "packages", "coding-agent", "test", "fixtures", "reference-exports.json");
writeFileSync(out, `${JSON.stringify(result, null, "\t")}\n`);
console.log(`wrote ${out}`);

function sortKeys(object) {
	return Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
}
