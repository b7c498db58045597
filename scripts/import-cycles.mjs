#!/usr/bin/env node
// Lists import cycles between the .ts files of a folder: value imports, re-exports and dynamic imports with a
// literal specifier (`import type` is ignored unless --types; dynamic imports with --no-dynamic). Exits 1 when
// there is one. Run: node scripts/import-cycles.mjs packages/coding-agent/src
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(process.argv[2]);
const withTypes = process.argv.includes("--types");
const noDynamic = process.argv.includes("--no-dynamic");
const files = readdirSync(root, { recursive: true })
	.filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
	.map((name) => join(root, name));
const graph = new Map();
const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'"]*?from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
for (const f of files) {
	const src = readFileSync(f, "utf8");
	const deps = new Set();
	for (const m of src.matchAll(re)) {
		const spec = m[4] ?? m[5];
		if (m[5] && noDynamic) continue;
		if (m[2] && !withTypes) continue;
		if (m[3] && /^\{[^}]*\}\s*from\s+$/.test(m[3]) && !withTypes) {
			const names = m[3]
				.slice(1, m[3].indexOf("}"))
				.split(",")
				.map((s) => s.trim())
				.filter(Boolean);
			if (names.length && names.every((n) => n.startsWith("type "))) continue;
		}
		if (!spec.startsWith(".")) continue;
		const t = resolve(dirname(f), spec.replace(/\.js$/, ".ts"));
		if (existsSync(t)) deps.add(t);
	}
	graph.set(f, deps);
}
// Tarjan SCC
let index = 0;
const stack = [];
const idx = new Map();
const low = new Map();
const on = new Set();
const sccs = [];
const strong = (v) => {
	idx.set(v, index);
	low.set(v, index);
	index++;
	stack.push(v);
	on.add(v);
	for (const w of graph.get(v) ?? []) {
		if (!idx.has(w)) {
			strong(w);
			low.set(v, Math.min(low.get(v), low.get(w)));
		} else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
	}
	if (low.get(v) === idx.get(v)) {
		const c = [];
		let w;
		do {
			w = stack.pop();
			on.delete(w);
			c.push(w);
		} while (w !== v);
		if (c.length > 1 || graph.get(v).has(v)) sccs.push(c);
	}
};
for (const f of files) if (!idx.has(f)) strong(f);
for (const c of sccs)
	console.log(
		`cycle of ${c.length} files:\n  ${c
			.map((f) => relative(root, f))
			.sort()
			.join("\n  ")}`,
	);
if (sccs.length === 0) console.log("no import cycles");
process.exit(sccs.length ? 1 : 0);
