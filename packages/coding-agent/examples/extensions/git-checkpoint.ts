// A git checkpoint of the working tree before the agent first changes something in reply to a message
// (`git stash create` only writes a commit object: the index, the branch and the stash list stay as they
// are). When the user forks from that message, the extension offers to put the files back the way they were.
//
// The checkpoint is taken in a `tool_call` handler because the agent waits for those before it runs the tool;
// it does not wait for `turn_start` handlers, so a checkpoint taken there could come after the change.
import type { ExtensionAPI, ExtensionContext } from "@agent/coding-agent";

export interface Checkpoint {
	/** The user message the changes answered. */
	entryId: string;
	/** The stash commit, or HEAD when the tree was clean. */
	ref: string;
}

const READ_ONLY_TOOLS = new Set(["read", "grep", "find", "ls"]);

function lastUserMessageId(ctx: ExtensionContext): string | undefined {
	const branch = ctx.sessionManager.getBranch();
	for (let i = branch.length - 1; i >= 0; i--) {
		const entry = branch[i];
		if (entry?.type === "message" && entry.message.role === "user") return entry.id;
	}
	return undefined;
}

export default function gitCheckpoint(pi: ExtensionAPI): void {
	let checkpoints: Checkpoint[] = [];

	pi.on("session_start", (_event, ctx) => {
		checkpoints = ctx.sessionManager
			.getEntries()
			.flatMap((entry) =>
				entry.type === "custom" && entry.customType === "git-checkpoint" ? [entry.data as Checkpoint] : [],
			);
	});

	pi.on("tool_call", async (event, ctx) => {
		if (READ_ONLY_TOOLS.has(event.toolName)) return undefined;
		const entryId = lastUserMessageId(ctx);
		if (!entryId || checkpoints.some((checkpoint) => checkpoint.entryId === entryId)) return undefined;
		const stash = await pi.exec("git", ["stash", "create"], { cwd: ctx.cwd });
		if (stash.code !== 0) return undefined; // not a git repository
		let ref = stash.stdout.trim();
		if (!ref) {
			const head = await pi.exec("git", ["rev-parse", "HEAD"], { cwd: ctx.cwd });
			if (head.code !== 0) return undefined;
			ref = head.stdout.trim();
		}
		const checkpoint = { entryId, ref };
		checkpoints.push(checkpoint);
		pi.appendEntry<Checkpoint>("git-checkpoint", checkpoint);
		return undefined;
	});

	pi.on("session_before_fork", async (event, ctx) => {
		const checkpoint = checkpoints.find((candidate) => candidate.entryId === event.entryId);
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
