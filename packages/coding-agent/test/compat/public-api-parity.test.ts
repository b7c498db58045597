// Every name the reference's four packages export (pi-mono v0.58.3; listed in test/fixtures/reference-exports.json
// by scripts/reference-exports.mjs) exists in ours, as the same kind of value, unless
// test/fixtures/reference-exports-differences.json lists it with its reason (docs/compatibility.md). Type names
// are checked at compile time by the generated files in test/compat/reference-types/.
import { readFileSync } from "node:fs";
import * as agentCore from "@agent/agent-core";
import * as ai from "@agent/ai";
import * as codingAgent from "@agent/coding-agent";
import * as tui from "@agent/tui";
import { describe, expect, it } from "vitest";

interface ReferenceExports {
	version: string;
	packages: Record<string, { reference: string; values: Record<string, string>; types: string[] }>;
}

const fixture = (name: string) => new URL(`../fixtures/${name}`, import.meta.url);
const reference = JSON.parse(readFileSync(fixture("reference-exports.json"), "utf8")) as ReferenceExports;
const differences = JSON.parse(readFileSync(fixture("reference-exports-differences.json"), "utf8")) as Record<
	string,
	Record<string, string>
>;

const ours: Record<string, Record<string, unknown>> = {
	"coding-agent": codingAgent,
	ai,
	"agent-core": agentCore,
	tui,
};

function kindOf(value: unknown): string {
	// Classes and functions are both callables; the reference's own split is informative only.
	return typeof value === "function" ? "function" : typeof value;
}

describe.each(Object.keys(ours))("@agent/%s", (name) => {
	const { values, reference: referenceName } = reference.packages[name] as ReferenceExports["packages"][string];
	const allowed = differences[name] ?? {};

	it(`exports every runtime name of ${referenceName} as the same kind of value`, () => {
		const module = ours[name] as Record<string, unknown>;
		const missing = Object.keys(values).filter((key) => !(key in allowed) && !(key in module));
		expect(missing).toEqual([]);
		const wrongKind = Object.entries(values)
			.filter(([key]) => key in module)
			.filter(([key, kind]) => kindOf(module[key]) !== (kind === "class" ? "function" : kind))
			.map(([key, kind]) => `${key}: ${kind} in the reference, ${kindOf(module[key])} here`);
		expect(wrongKind).toEqual([]);
	});

	it("lists only real differences: each documented one is still missing and has a reason", () => {
		const module = ours[name] as Record<string, unknown>;
		const { types } = reference.packages[name] as ReferenceExports["packages"][string];
		for (const [key, reason] of Object.entries(allowed)) {
			expect(key in values || types.includes(key), `${key} is not a name of ${referenceName}`).toBe(true);
			if (key in values) expect(key in module, `${key} exists now: drop it from the differences`).toBe(false);
			expect(reason.length).toBeGreaterThan(0);
		}
	});
});
