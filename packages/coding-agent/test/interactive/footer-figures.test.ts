import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FooterComponent, type FooterFigures } from "../../src/modes/interactive/components/footer.js";
import { readGitBranch } from "../../src/modes/interactive/footer-figures.js";
import { createDisplayState } from "../helpers/interactive-display.js";
import { renderComponents } from "../helpers/interactive-terminal.js";

function data(overrides: Partial<FooterFigures> = {}): FooterFigures {
	return {
		cwd: "/work/project",
		tokens: { input: 12_345, output: 3_456, cacheRead: 45_000, cacheWrite: 1_200 },
		cost: 0.1234,
		contextPercent: 42.25,
		contextWindow: 200_000,
		autoCompaction: true,
		modelId: "claude-sonnet-4",
		provider: "anthropic",
		thinkingLevel: "high",
		statuses: [],
		...overrides,
	};
}

describe("footer", () => {
	it("shows where you are and what the session cost", async () => {
		const state = createDisplayState();
		const footer = new FooterComponent(state, data({ gitBranch: "main", sessionName: "refactor" }));
		const { lines } = await renderComponents([footer], { columns: 120 });
		expect(lines[0]).toBe("/work/project (main) • refactor");
		expect(lines[1]).toMatch(
			/^↑12k ↓3\.5k R45k W1\.2k \$0\.123 42\.3%\/200k \(auto\) +\(anthropic\) claude-sonnet-4 • high$/,
		);
	});

	it("drops the provider before cutting the model when the line is narrow", async () => {
		const footer = new FooterComponent(createDisplayState(), data());
		const { lines } = await renderComponents([footer], { columns: 70 });
		expect(lines[1]).toContain("claude-sonnet-4 • high");
		expect(lines[1]).not.toContain("(anthropic)");
	});

	it("colours a context nearly full in the error colour", async () => {
		const footer = new FooterComponent(createDisplayState(), data({ contextPercent: 95 }));
		const { raw } = await renderComponents([footer], { columns: 120 });
		expect(raw).toContain("\x1b[38;2;204;102;102m95.0%/200k (auto)");
	});

	it("says thinking off for a reasoning model and nothing for one without reasoning", async () => {
		const off = await renderComponents([new FooterComponent(createDisplayState(), data({ thinkingLevel: "off" }))], {
			columns: 120,
		});
		expect(off.lines[1]).toContain("claude-sonnet-4 • thinking off");
		const none = await renderComponents(
			[new FooterComponent(createDisplayState(), data({ thinkingLevel: undefined, modelId: "gpt-4o" }))],
			{ columns: 120 },
		);
		expect(none.lines[1]).toMatch(/gpt-4o$/);
	});

	it("shows extension statuses on their own line", async () => {
		const footer = new FooterComponent(createDisplayState(), data({ statuses: ["lint: ok", "tests: 3 failing"] }));
		const { lines } = await renderComponents([footer], { columns: 120 });
		expect(lines[2]).toBe("lint: ok tests: 3 failing");
	});

	it("re-renders only when a figure changed", () => {
		const footer = new FooterComponent(createDisplayState(), data());
		const first = footer.render(120);
		footer.setData(data());
		expect(footer.render(120)).toBe(first);
		footer.setData(data({ cost: 0.5 }));
		expect(footer.render(120)).not.toBe(first);
	});
});

describe("git branch", () => {
	it("reads the branch from .git/HEAD in the cwd or a parent, and a short id when detached", () => {
		const root = mkdtempSync(join(tmpdir(), "agent-git-"));
		mkdirSync(join(root, ".git"));
		mkdirSync(join(root, "sub", "dir"), { recursive: true });
		writeFileSync(join(root, ".git", "HEAD"), "ref: refs/heads/feature/footer\n");
		expect(readGitBranch(join(root, "sub", "dir"))).toBe("feature/footer");
		writeFileSync(join(root, ".git", "HEAD"), "0123456789abcdef0123456789abcdef01234567\n");
		expect(readGitBranch(root)).toBe("0123456");
	});

	it("follows a worktree's .git file", () => {
		const root = mkdtempSync(join(tmpdir(), "agent-git-"));
		mkdirSync(join(root, "real-git"));
		writeFileSync(join(root, "real-git", "HEAD"), "ref: refs/heads/wt\n");
		mkdirSync(join(root, "tree"));
		writeFileSync(join(root, "tree", ".git"), "gitdir: ../real-git\n");
		expect(readGitBranch(join(root, "tree"))).toBe("wt");
	});
});
