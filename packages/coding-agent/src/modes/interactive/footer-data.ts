// The figures the footer shows, gathered from the session (no timers: the mode asks again after each reply,
// command or model change).
import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { AgentSession } from "../../core/agent-session.js";
import { readSmallTextFileSync } from "../../core/tools/regular-file.js";
import type { FooterData } from "./components/footer.js";

// `.git` pointer files and HEAD hold one line; a repository could make them anything (a FIFO, a huge file).
const GIT_POINTER_MAX_BYTES = 64 * 1024;

/** The checked-out branch of the repository containing `cwd` (a short commit id when detached). */
export function readGitBranch(cwd: string): string | undefined {
	let dir = resolve(cwd);
	for (;;) {
		const dotGit = join(dir, ".git");
		let gitDir: string | undefined;
		try {
			const stats = statSync(dotGit);
			if (stats.isDirectory()) gitDir = dotGit;
			else if (stats.isFile()) {
				// A worktree or submodule: ".git" is a file pointing at the real directory.
				const pointer = /^gitdir:\s*(.+)$/m.exec(readSmallTextFileSync(dotGit, GIT_POINTER_MAX_BYTES));
				if (pointer?.[1]) gitDir = resolve(dir, pointer[1].trim());
			}
		} catch {
			// Not here; look in the parent.
		}
		if (gitDir) {
			try {
				const head = readSmallTextFileSync(join(gitDir, "HEAD"), GIT_POINTER_MAX_BYTES).trim();
				const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
				return ref?.[1] ?? head.slice(0, 7);
			} catch {
				return undefined;
			}
		}
		const parent = dirname(dir);
		if (parent === dir) return undefined;
		dir = parent;
	}
}

/** Tokens and cost of every reply in the session file (all branches: what the session cost so far). */
export function sessionUsageTotals(session: AgentSession): {
	tokens: FooterData["tokens"];
	cost: number;
} {
	const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
	let cost = 0;
	for (const entry of session.sessionManager.getEntries()) {
		if (entry.type !== "message" || entry.message.role !== "assistant") continue;
		const usage = entry.message.usage;
		if (!usage) continue;
		tokens.input += usage.input ?? 0;
		tokens.output += usage.output ?? 0;
		tokens.cacheRead += usage.cacheRead ?? 0;
		tokens.cacheWrite += usage.cacheWrite ?? 0;
		cost += usage.cost?.total ?? 0;
	}
	return { tokens, cost };
}

export function collectFooterData(
	session: AgentSession,
	gitBranch: string | undefined,
	statuses: string[],
): FooterData {
	const { tokens, cost } = sessionUsageTotals(session);
	const model = session.model;
	const usage = session.getContextUsage();
	const data: FooterData = {
		cwd: session.cwd,
		tokens,
		cost,
		autoCompaction: session.autoCompactionEnabled,
		statuses,
		permissionMode: session.permissions.mode,
	};
	if (gitBranch) data.gitBranch = gitBranch;
	const name = session.sessionName;
	if (name) data.sessionName = name;
	if (model) {
		data.modelId = model.id;
		data.provider = model.provider;
		if (model.reasoning) data.thinkingLevel = session.thinkingLevel;
		data.contextWindow = usage?.contextWindow ?? model.contextWindow;
		data.contextPercent = usage ? usage.percent : 0;
	}
	return data;
}
