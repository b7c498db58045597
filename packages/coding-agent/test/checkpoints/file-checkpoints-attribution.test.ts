// Which entry a change is recorded against: parallel tool calls (up to 8 at once), overlapping bash commands,
// and the user's own commands (`!cmd`), also while the agent is streaming.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fauxText } from "@agent/ai";
import { afterEach, describe, expect, it } from "vitest";
import type { FileCheckpointEntry, SessionEntry } from "../../src/core/session/entries.js";
import {
	bash,
	checkpointEntries,
	createCheckpointHarness,
	edit,
	readTree,
	runTurn,
	toolCalls,
	write,
} from "../helpers/checkpoint-fixtures.js";
import { deferred } from "../helpers/deferred.js";
import type { RuntimeHarness } from "../helpers/runtime-harness.js";

let harness: RuntimeHarness | undefined;
afterEach(() => {
	harness?.dispose();
	harness = undefined;
});

/** The entry appended right after `entry` on its branch. */
function childOf(entries: readonly SessionEntry[], entry: SessionEntry): SessionEntry | undefined {
	return entries.find((candidate) => candidate.parentId === entry.id);
}

function resultIdOf(entry: SessionEntry | undefined): string | undefined {
	return entry?.type === "message" && entry.message.role === "toolResult" ? entry.message.toolCallId : undefined;
}

/** Checkpoints with the tool call whose result follows each. */
function checkpointsWithResults(
	h: RuntimeHarness,
): { checkpoint: FileCheckpointEntry; resultOf: string | undefined }[] {
	const entries = h.sessionManager.getEntries();
	return checkpointEntries(entries).map((checkpoint) => ({
		checkpoint,
		resultOf: resultIdOf(childOf(entries, checkpoint)),
	}));
}

describe.each([{ watch: true }, { watch: false }])("parallel tool calls (watch: $watch)", ({ watch }) => {
	it("attributes each of eight calls of one reply: edits and writes exactly, bash to the commands that ran then", async () => {
		harness = await createCheckpointHarness({
			files: { "a.txt": "a0\n", "b.txt": "b0\n", "e.txt": "e0\n" },
			settings: { checkpoints: { watch } },
		});
		const h = harness;
		await runTurn(
			h,
			"eight at once",
			toolCalls(
				edit("a.txt", "a0", "a1", "call-edit-a"),
				bash("echo 1 > x1.txt", "call-bash-1"),
				write("c.txt", "c\n", "call-write-c"),
				bash("echo 2 > x2.txt", "call-bash-2"),
				edit("b.txt", "b0", "b1", "call-edit-b"),
				write("d.txt", "d\n", "call-write-d"),
				bash("echo 3 > x3.txt", "call-bash-3"),
				edit("e.txt", "e0", "e1", "call-edit-e"),
			),
		);
		const recorded = checkpointsWithResults(h);
		const exact: Record<string, string> = {
			"call-edit-a": "a.txt",
			"call-write-c": "c.txt",
			"call-edit-b": "b.txt",
			"call-write-d": "d.txt",
			"call-edit-e": "e.txt",
		};
		for (const [callId, path] of Object.entries(exact)) {
			const own = recorded.find(({ resultOf, checkpoint }) => resultOf === callId && checkpoint.source !== "bash");
			expect(own?.checkpoint.toolCallIds).toEqual([callId]);
			expect(own?.checkpoint.files.map((file) => file.path)).toEqual([path]);
		}
		const bashIds = ["call-bash-1", "call-bash-2", "call-bash-3"];
		const order = [
			"call-edit-a",
			"call-bash-1",
			"call-write-c",
			"call-bash-2",
			"call-edit-b",
			"call-write-d",
			"call-bash-3",
		];
		for (const [index, path] of ["x1.txt", "x2.txt", "x3.txt"].entries()) {
			const holders = recorded.filter(({ checkpoint }) => checkpoint.files.some((file) => file.path === path));
			expect(holders).toHaveLength(1);
			const { checkpoint, resultOf } = holders[0] as (typeof holders)[number];
			expect(checkpoint.source).toBe("bash");
			// The command that made it is a candidate, and the change waits for the last candidate's result.
			expect(checkpoint.toolCallIds).toContain(bashIds[index]);
			for (const id of checkpoint.toolCallIds ?? []) expect(bashIds).toContain(id);
			const lastCandidate = [...(checkpoint.toolCallIds ?? [])]
				.sort((x, y) => order.indexOf(x) - order.indexOf(y))
				.at(-1);
			expect(resultOf).toBe(lastCandidate);
			// A bash command never claims what an edit or write did.
			for (const file of checkpoint.files) expect(Object.values(exact)).not.toContain(file.path);
		}
		// Back to before the reply: everything undone.
		const user = h.sessionManager
			.getEntries()
			.find((entry) => entry.type === "message" && entry.message.role === "user");
		const result = h.session.restoreFiles(user?.parentId as string);
		expect(result.conflicts).toEqual([]);
		expect(readTree(h.cwd)).toEqual({ "a.txt": "a0\n", "b.txt": "b0\n", "e.txt": "e0\n" });
	});

	it("records a change two overlapping commands could have made with both, before the later result", async () => {
		harness = await createCheckpointHarness({ settings: { checkpoints: { watch } } });
		const h = harness;
		// The first command waits (on a FIFO outside the tree) until the second one has written its file.
		const fifo = join(h.root, "sync.fifo");
		execFileSync("mkfifo", [fifo]);
		await runTurn(
			h,
			"overlap",
			toolCalls(
				bash(`cat ${fifo} > /dev/null && echo a > a.txt`, "call-first"),
				bash(`echo b > b.txt && echo go > ${fifo}`, "call-second"),
			),
		);
		const recorded = checkpointsWithResults(h);
		const holder = recorded.find(({ checkpoint }) => checkpoint.files.some((file) => file.path === "b.txt"));
		expect(holder?.checkpoint.toolCallIds?.sort()).toEqual(["call-first", "call-second"]);
		expect(holder?.resultOf).toBe("call-second");
		const first = recorded.find(({ checkpoint }) => checkpoint.files.some((file) => file.path === "a.txt"));
		expect(first?.checkpoint.toolCallIds).toContain("call-first");
	});
});

describe("the user's commands", () => {
	it("records what !cmd changed just before its bashExecution entry", async () => {
		harness = await createCheckpointHarness({ files: { "a.txt": "a\n" } });
		const h = harness;
		await h.session.executeBash("echo hi > hi.txt && rm a.txt");
		const entries = h.sessionManager.getEntries();
		const [checkpoint] = checkpointEntries(entries);
		expect(checkpoint?.source).toBe("user_bash");
		expect(checkpoint?.files.map((file) => file.path).sort()).toEqual(["a.txt", "hi.txt"]);
		const next = childOf(entries, checkpoint as SessionEntry);
		expect(next?.type === "message" && next.message.role).toBe("bashExecution");
	});

	it("keeps a command's changes with its message when the message waits for the agent to finish", async () => {
		harness = await createCheckpointHarness();
		const h = harness;
		const gate = deferred();
		h.faux.enqueue({ ...fauxText("slow answer"), holdUntil: gate.promise }, fauxText("second answer"));
		const running = h.session.prompt("first");
		await h.nextEvent("message_start", 0);
		await h.session.executeBash("echo during > during.txt");
		gate.resolve();
		await running;
		await h.session.prompt("second");
		const entries = h.sessionManager.getEntries();
		const [checkpoint] = checkpointEntries(entries);
		expect(checkpoint?.source).toBe("user_bash");
		const next = childOf(entries, checkpoint as SessionEntry);
		expect(next?.type === "message" && next.message.role === "bashExecution" && next.message.command).toBe(
			"echo during > during.txt",
		);
	});
});
