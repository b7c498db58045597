import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

const jitiCli = join(dirname(createRequire(import.meta.url).resolve("jiti/package.json")), "lib", "jiti-cli.mjs");
const writerScript = fileURLToPath(new URL("../helpers/resources-settings-writer.ts", import.meta.url));

interface Writer {
	child: ChildProcess;
	ready: Promise<void>;
	exit: Promise<{ code: number | null; stderr: string }>;
}

function startWriter(cwd: string, agentDir: string, role: "a" | "b"): Writer {
	const child = spawn(process.execPath, [jitiCli, writerScript, cwd, agentDir, role], {
		stdio: ["pipe", "pipe", "pipe"],
	});
	let stderr = "";
	child.stderr?.on("data", (chunk) => {
		stderr += String(chunk);
	});
	const ready = new Promise<void>((resolve, reject) => {
		const lines = createInterface({ input: child.stdout! });
		lines.on("line", (line) => {
			if (line === "ready") resolve();
		});
		child.once("exit", () => reject(new Error(`writer ${role} exited before it was ready: ${stderr}`)));
	});
	const exit = new Promise<{ code: number | null; stderr: string }>((resolve) => {
		child.once("exit", (code) => resolve({ code, stderr }));
	});
	return { child, ready, exit };
}

describe("two processes writing different keys at once", () => {
	it("lose nothing: every key of both writers and every key already in the file is there at the end", async () => {
		const tree = newTree();
		const cwd = tree.mkdir("project");
		const agentDir = tree.path("agent");
		tree.write(
			"agent/settings.json",
			JSON.stringify({ futureFeature: { level: 3 }, terminal: { futureFlag: true }, defaultModel: "old" }, null, 2),
		);

		const writers = [startWriter(cwd, agentDir, "a"), startWriter(cwd, agentDir, "b")];
		await Promise.all(writers.map((writer) => writer.ready));
		for (const writer of writers) writer.child.stdin?.write("go\n");
		const results = await Promise.all(writers.map((writer) => writer.exit));
		expect(results).toEqual([
			{ code: 0, stderr: "" },
			{ code: 0, stderr: "" },
		]);

		const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8"));
		expect(settings).toEqual({
			futureFeature: { level: 3 },
			defaultProvider: "provider-a",
			defaultModel: "model-a",
			defaultThinkingLevel: "high",
			steeringMode: "all",
			followUpMode: "all",
			hideThinkingBlock: true,
			quietStartup: true,
			collapseChangelog: true,
			lastChangelogVersion: "9.9.9",
			compaction: { enabled: false },
			terminal: { futureFlag: true, showImages: false, clearOnShrink: true },
			images: { autoResize: false, blockImages: true },
			enabledModels: ["model-a*"],
			packages: ["npm:package-a"],
			theme: "light",
			transport: "websocket",
			doubleEscapeAction: "fork",
			treeFilterMode: "all",
			editorPaddingX: 2,
			autocompleteMaxVisible: 10,
			showHardwareCursor: true,
			enableSkillCommands: false,
			retry: { enabled: false },
			skills: ["skills-b"],
		});
		expect(readdirSync(agentDir).sort()).toEqual(["settings.json"]);
	}, 60_000);
});
