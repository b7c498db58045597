import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	allTools,
	codingTools,
	createAllTools,
	createCodingTools,
	createReadOnlyTools,
	readOnlyTools,
} from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { errorOf, run, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-sets-");
const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);

describe("tool sets and factories", () => {
	it("groups the tools as the reference does", () => {
		expect(names(codingTools)).toEqual(["read", "bash", "edit", "write"]);
		expect(names(readOnlyTools)).toEqual(["read", "grep", "find", "ls"]);
		expect(Object.keys(allTools)).toEqual(["read", "bash", "edit", "write", "grep", "find", "ls"]);
		expect(names(createCodingTools(tempDir()))).toEqual(["read", "bash", "edit", "write"]);
		expect(names(createReadOnlyTools(tempDir()))).toEqual(["read", "grep", "find", "ls"]);
	});

	it("gives every tool a label equal to its name and a description", () => {
		for (const [name, tool] of Object.entries(createAllTools(tempDir()))) {
			expect(tool.name).toBe(name);
			expect(tool.label).toBe(name);
			expect(tool.description.length).toBeGreaterThan(40);
		}
	});

	it("binds the tools to the working directory they were created for", async () => {
		writeFileSync(join(tempDir(), "here.txt"), "bound");
		const tools = createAllTools(tempDir());
		expect((await run(tools.read, { path: "here.txt" })).content).toEqual([{ type: "text", text: "bound" }]);
	});

	it("confines file tools to the working directory when asked, bash excepted", async () => {
		mkdirSync(join(tempDir(), "work"));
		writeFileSync(join(tempDir(), "outside.txt"), "x");
		const tools = createAllTools(join(tempDir(), "work"), { confineToCwd: true });
		for (const [name, args] of [
			["read", { path: "../outside.txt" }],
			["write", { path: "../outside.txt", content: "y" }],
			["edit", { path: "../outside.txt", oldText: "x", newText: "y" }],
			["ls", { path: ".." }],
			["grep", { pattern: "x", path: ".." }],
			["find", { pattern: "*", path: ".." }],
		] as const) {
			expect(await errorOf(run(tools[name], args)), name).toContain("Path is outside the working directory");
		}
		const unconfined = createAllTools(join(tempDir(), "work"));
		expect((await run(unconfined.read, { path: "../outside.txt" })).content).toEqual([{ type: "text", text: "x" }]);
	});

	it("passes per-tool options through", () => {
		const tools = createAllTools(tempDir(), { read: { autoResizeImages: false }, bash: { commandPrefix: "set -e" } });
		expect(tools.read.name).toBe("read");
		expect(tools.bash.name).toBe("bash");
	});
});
