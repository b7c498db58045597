// A git checkpoint of the working tree at the start of every turn (without touching the index or the
// branch: `git stash create` only writes a commit object). When the user forks from an earlier message,
// the extension offers to put the files back the way they were at that point.
import type { ExtensionAPI } from "@agent/coding-agent";

export interface Checkpoint {
	/** The session entry the turn started from. */
	entryId: string;
	/** The stash commit, or HEAD when the tree was clean. */
	ref: string;
}

export default function gitCheckpoint(pi: ExtensionAPI): void {
	const checkpoints: Checkpoint[] = [];

	pi.on("turn_start", async (_event, ctx) => {
		const entryId = ctx.sessionManager.getLeafId();
		if (!entryId || checkpoints.some((checkpoint) => checkpoint.entryId === entryId)) return;
		const stash = await pi.exec("git", ["stash", "create"], { cwd: ctx.cwd });
		if (stash.code !== 0) return; // not a git repository
		let ref = stash.stdout.trim();
		if (!ref) {
			const head = await pi.exec("git", ["rev-parse", "HEAD"], { cwd: ctx.cwd });
			if (head.code !== 0) return;
			ref = head.stdout.trim();
		}
		checkpoints.push({ entryId, ref });
		pi.appendEntry<Checkpoint>("git-checkpoint", { entryId, ref });
	});

	pi.on("session_before_fork", async (event, ctx) => {
		// The newest checkpoint taken at or before the entry forked from.
		const branch = ctx.sessionManager.getBranch(event.entryId).map((entry) => entry.id);
		const checkpoint = [...checkpoints].reverse().find((candidate) => branch.includes(candidate.entryId));
		if (!checkpoint || !ctx.hasUI) return undefined;
		const choice = await ctx.ui.select("Restore the files to that point too?", [
			"Keep the files as they are",
			"Restore the files",
		]);
		if (choice !== "Restore the files") return undefined;
		// The working tree only: what is staged stays staged.
		const restore = await pi.exec("git", ["restore", `--source=${checkpoint.ref}`, "--worktree", "--", "."], {
			cwd: ctx.cwd,
		});
		ctx.ui.notify(
			restore.code === 0 ? `Files restored to ${checkpoint.ref.slice(0, 8)}` : `Restore failed: ${restore.stderr}`,
			restore.code === 0 ? "info" : "error",
		);
		return undefined;
	});

	pi.registerCommand("checkpoints", {
		description: "List the git checkpoints of this session",
		handler: async (_args, ctx) => {
			const lines = checkpoints.map((checkpoint, index) => `${index + 1}. ${checkpoint.ref.slice(0, 8)}`);
			ctx.ui.notify(lines.length > 0 ? lines.join("\n") : "No checkpoints yet.", "info");
		},
	});
}
