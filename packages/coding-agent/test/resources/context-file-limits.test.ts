// AGENTS.md / CLAUDE.md from a repository the user does not control: at most `limits.contextFileBytes` of each
// goes into the system prompt, cut with a notice, and a device or FIFO under that name is skipped unopened.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SettingsManager } from "../../src/core/config/index.js";
import { DefaultResourceLoader, loadContextFiles } from "../../src/core/resources/index.js";
import { useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

/** The context file of `repo/` (ancestors of the temp dir are outside the test's control). */
function load(root: string, cwd: string, maxBytes?: number) {
	const { files, diagnostics } = loadContextFiles({
		cwd,
		agentDir: `${root}/no-agent-dir`,
		...(maxBytes !== undefined ? { maxBytes } : {}),
	});
	return { files: files.filter((file) => file.path.startsWith(`${root}/`)), diagnostics };
}

describe("size limit", () => {
	it("keeps the first 128 KiB by default, cut after a whole line, with a notice and a warning", () => {
		const tree = newTree();
		const line = `${"instruction text ".repeat(5)}\n`; // 86 bytes
		const path = tree.write("repo/AGENTS.md", line.repeat(4000)); // 344,000 bytes
		const { files, diagnostics } = load(tree.root, tree.path("repo"));
		const kept = line.repeat(Math.floor((128 * 1024) / line.length));
		expect(files).toEqual([
			{
				path,
				content: `${kept}\n[Context file truncated: ${path} is 335.9KB; only its first 128.0KB are included here (limits.contextFileBytes). Read the file for the rest.]`,
			},
		]);
		expect(diagnostics).toContainEqual({
			type: "warning",
			message: "context file is 335.9KB; only its first 128.0KB are used (limits.contextFileBytes)",
			path,
		});
	});

	it("takes the limit from the option, and reads the whole file with 0", () => {
		const tree = newTree();
		tree.write("repo/CLAUDE.md", "first line\nsecond line\n");
		expect(load(tree.root, tree.path("repo"), 15).files[0]?.content).toMatch(
			/^first line\n\n\[Context file truncated/,
		);
		expect(load(tree.root, tree.path("repo"), 0).files[0]?.content).toBe("first line\nsecond line\n");
		expect(load(tree.root, tree.path("repo"), 23).files[0]?.content).toBe("first line\nsecond line\n");
	});

	it("applies settings limits.contextFileBytes to the system prompt's context files", async () => {
		const tree = newTree();
		tree.mkdir("project/.git");
		tree.write("project/AGENTS.md", `keep this\n${"x".repeat(5000)}\n`);
		tree.write("home/.agent/settings.json", JSON.stringify({ limits: { contextFileBytes: 100 } }));
		const cwd = tree.path("project");
		const agentDir = tree.path("home/.agent");
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			homeDir: tree.path("home"),
			settingsManager: SettingsManager.create(cwd, agentDir),
		});
		await loader.reload();
		const file = loader.getContextFiles().contextFiles.find((f) => f.path === tree.path("project/AGENTS.md"));
		expect(file?.content).toBe(
			`keep this\n\n[Context file truncated: ${tree.path("project/AGENTS.md")} is 4.9KB; only its first 100B are included here (limits.contextFileBytes). Read the file for the rest.]`,
		);
	});
});

describe("files that are not regular files", () => {
	it("skips an AGENTS.md that links to /dev/zero and takes CLAUDE.md", () => {
		const tree = newTree();
		tree.symlink("/dev/zero", "repo/AGENTS.md");
		const claude = tree.write("repo/CLAUDE.md", "claude");
		expect(load(tree.root, tree.path("repo")).files).toEqual([{ path: claude, content: "claude" }]);
	});

	it("skips a FIFO named AGENTS.md without opening it", () => {
		const tree = newTree();
		tree.mkdir("repo");
		execFileSync("mkfifo", [tree.path("repo/AGENTS.md")]);
		expect(load(tree.root, tree.path("repo"))).toEqual({ files: [], diagnostics: [] });
	});
});
