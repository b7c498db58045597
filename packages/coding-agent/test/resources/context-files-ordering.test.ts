import { chmodSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadContextFiles } from "../../src/core/resources/index.js";
import { useTempTrees } from "../helpers/resources-temp-tree.js";

const newTree = useTempTrees();

/** Context files found below the temp root (ancestors of the temp dir are outside the test's control). */
function loadWithin(root: string, cwd: string, agentDir: string) {
	const { files, diagnostics } = loadContextFiles({ cwd, agentDir });
	return {
		paths: files.filter((file) => file.path.startsWith(`${root}/`)).map((file) => file.path.slice(root.length + 1)),
		files,
		diagnostics,
	};
}

describe("ordering through nested directories", () => {
	it("puts the user file first, then one file per directory from the outermost ancestor down to the cwd", () => {
		const tree = newTree();
		tree.writeAll({
			"home/.agent/AGENTS.md": "global",
			"repo/AGENTS.md": "repo",
			"repo/packages/CLAUDE.md": "packages",
			"repo/packages/app/src/AGENTS.md": "src",
		});
		tree.mkdir("repo/packages/app/src/deep");
		const { paths, files } = loadWithin(tree.root, tree.path("repo/packages/app/src/deep"), tree.path("home/.agent"));
		expect(paths).toEqual([
			"home/.agent/AGENTS.md",
			"repo/AGENTS.md",
			"repo/packages/CLAUDE.md",
			"repo/packages/app/src/AGENTS.md",
		]);
		expect(files.at(-1)).toEqual({ path: tree.path("repo/packages/app/src/AGENTS.md"), content: "src" });
	});

	it("takes AGENTS.md over CLAUDE.md in the same directory, and only one of them", () => {
		const tree = newTree();
		tree.writeAll({ "repo/AGENTS.md": "agents", "repo/CLAUDE.md": "claude" });
		const { paths } = loadWithin(tree.root, tree.path("repo"), tree.path("no-agent-dir"));
		expect(paths).toEqual(["repo/AGENTS.md"]);
	});

	it("falls back to CLAUDE.md when AGENTS.md is not a file", () => {
		const tree = newTree();
		tree.mkdir("repo/AGENTS.md");
		tree.write("repo/CLAUDE.md", "claude");
		const { paths } = loadWithin(tree.root, tree.path("repo"), tree.path("no-agent-dir"));
		expect(paths).toEqual(["repo/CLAUDE.md"]);
	});

	it("includes the user directory's file once when the user directory is an ancestor of the cwd", () => {
		const tree = newTree();
		tree.write("agent/AGENTS.md", "global");
		tree.mkdir("agent/work/project");
		const { paths } = loadWithin(tree.root, tree.path("agent/work/project"), tree.path("agent"));
		expect(paths).toEqual(["agent/AGENTS.md"]);
	});

	it("includes a file reached through a symbolic link once", () => {
		const tree = newTree();
		tree.write("dotfiles/AGENTS.md", "shared");
		tree.symlink("dotfiles/AGENTS.md", "agent/AGENTS.md");
		tree.symlink("dotfiles/AGENTS.md", "repo/AGENTS.md");
		const { paths } = loadWithin(tree.root, tree.path("repo"), tree.path("agent"));
		expect(paths).toEqual(["agent/AGENTS.md"]);
	});

	it("returns the raw content, untrimmed", () => {
		const tree = newTree();
		tree.write("repo/AGENTS.md", "\n  # Rules\n\n- one\n");
		const { files } = loadWithin(tree.root, tree.path("repo"), tree.path("none"));
		expect(files.find((file) => file.path === tree.path("repo/AGENTS.md"))?.content).toBe("\n  # Rules\n\n- one\n");
	});
});

describe("unreadable files", () => {
	it.skipIf(process.getuid?.() === 0)("reports an unreadable AGENTS.md and falls back to CLAUDE.md", () => {
		const tree = newTree();
		const agents = tree.write("repo/AGENTS.md", "secret");
		tree.write("repo/CLAUDE.md", "claude");
		chmodSync(agents, 0o000);
		const { paths, diagnostics } = loadWithin(tree.root, tree.path("repo"), tree.path("none"));
		expect(paths).toEqual(["repo/CLAUDE.md"]);
		expect(diagnostics).toEqual([expect.objectContaining({ type: "error", path: agents })]);
	});
});
