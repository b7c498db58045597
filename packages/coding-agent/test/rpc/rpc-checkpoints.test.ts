// File checkpoints over RPC against the built binary: get_checkpoints, restore_checkpoint (dry run, conflicts,
// force), navigate_tree and fork with restoreFiles (docs/checkpoints.md).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RpcClient } from "../../src/modes/rpc/rpc-client.js";
import { type CliSandbox, createCliSandbox, startRpcAgent } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";

const server = startFakeModelServerForFile();
let sandbox: CliSandbox | undefined;
let client: RpcClient | undefined;

afterEach(async () => {
	if (client) await client.stop();
	client = undefined;
	sandbox?.cleanup();
	sandbox = undefined;
});

async function start(): Promise<{ agent: RpcClient; cwd: string }> {
	sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
	client = await startRpcAgent(sandbox, []);
	return { agent: client, cwd: sandbox.cwd };
}

/** Two turns: the first writes a.txt, the second edits it and creates b.txt with bash. */
async function twoTurns(agent: RpcClient): Promise<{ first: string; second: string }> {
	server.enqueue(
		toolCallReply([{ name: "write", arguments: { path: "a.txt", content: "one\n" } }]),
		textReply("wrote"),
		toolCallReply([
			{ name: "edit", arguments: { path: "a.txt", oldText: "one", newText: "two" } },
			{ name: "bash", arguments: { command: "echo b > b.txt" } },
		]),
		textReply("changed"),
	);
	await agent.promptAndWait("first turn", { timeoutMs: 20_000 });
	await agent.promptAndWait("second turn", { timeoutMs: 20_000 });
	const [first, second] = (await agent.getForkMessages()).map((message) => message.entryId);
	return { first: first as string, second: second as string };
}

describe("file checkpoints over RPC", () => {
	it("get_checkpoints lists the branch's changes; restore_checkpoint dry-runs, restores, and refuses conflicts unless forced", async () => {
		const { agent, cwd } = await start();
		const { first, second } = await twoTurns(agent);

		const checkpoints = await agent.getCheckpoints();
		const files = checkpoints.flatMap((checkpoint) => checkpoint.files.map((file) => `${file.change} ${file.path}`));
		expect(files.sort()).toEqual(["created a.txt", "created b.txt", "modified a.txt"]);
		for (const checkpoint of checkpoints) {
			expect(checkpoint.toolCallIds?.length).toBeGreaterThan(0);
			expect(Number.isNaN(Date.parse(checkpoint.timestamp))).toBe(false);
		}
		expect(checkpoints.map((checkpoint) => checkpoint.source).sort()).toEqual(["bash", "edit", "write"]);

		// At the second user message: before the second turn's changes.
		const dry = await agent.restoreCheckpoint(second, { dryRun: true });
		expect(dry).toEqual({ restored: ["a.txt"], removed: ["b.txt"], conflicts: [], unrestorable: [] });
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("two\n");
		expect(existsSync(join(cwd, "b.txt"))).toBe(true);

		expect(await agent.restoreCheckpoint(second)).toEqual(dry);
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
		expect(existsSync(join(cwd, "b.txt"))).toBe(false);
		// The restore is a checkpoint of the branch too.
		expect((await agent.getCheckpoints()).at(-1)?.source).toBe("restore");

		writeFileSync(join(cwd, "a.txt"), "mine\n");
		const refused = await agent.restoreCheckpoint(first);
		expect(refused).toMatchObject({ restored: [], removed: [], conflicts: ["a.txt"] });
		expect(refused.diffs?.[0]).toMatchObject({ path: "a.txt" });
		expect(refused.diffs?.[0]?.diff).toContain("mine");
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("mine\n");

		// Forced: the conflicting file is overwritten (and still named as a conflict).
		expect(await agent.restoreCheckpoint(first, { force: true })).toMatchObject({
			removed: ["a.txt"],
			conflicts: ["a.txt"],
		});
		expect(existsSync(join(cwd, "a.txt"))).toBe(false);

		expect(await agent.send({ id: "x", type: "restore_checkpoint", entryId: "nope" })).toMatchObject({
			id: "x",
			success: false,
			error: "Entry nope not found",
		});
		expect(
			await agent.send({ id: "y", type: "restore_checkpoint", entryId: first, force: "yes" as unknown as boolean }),
		).toMatchObject({
			id: "y",
			success: false,
			error: 'Field "force" must be true or false',
		});
	});

	it("navigate_tree moves to a point with its files; without restoreFiles it leaves them", async () => {
		const { agent, cwd } = await start();
		const { second } = await twoTurns(agent);
		const lastCheckpoint = (await agent.getCheckpoints()).at(-1)?.entryId as string;

		const moved = await agent.navigateTree(second, { restoreFiles: true });
		expect(moved).toMatchObject({
			cancelled: false,
			editorText: "second turn",
			files: { restored: ["a.txt"], removed: ["b.txt"], conflicts: [] },
		});
		expect((await agent.getMessages()).map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
		]);
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");

		// Without restoreFiles the files stay; there is no `files` in the answer.
		const plain = await agent.navigateTree(lastCheckpoint);
		expect(plain).toEqual({ cancelled: false });
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
		expect(existsSync(join(cwd, "b.txt"))).toBe(false);
	});

	it("navigate_tree with a conflict does nothing (cancelled) unless forced", async () => {
		const { agent, cwd } = await start();
		const { second } = await twoTurns(agent);
		writeFileSync(join(cwd, "b.txt"), "mine\n");
		const before = (await agent.getMessages()).length;

		const refused = await agent.navigateTree(second, { restoreFiles: true });
		expect(refused).toMatchObject({ cancelled: true, files: { conflicts: ["b.txt"], restored: [], removed: [] } });
		expect((await agent.getMessages()).length).toBe(before);
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("two\n");

		const forced = await agent.navigateTree(second, { restoreFiles: true, force: true });
		expect(forced).toMatchObject({ cancelled: false, files: { restored: ["a.txt"], removed: ["b.txt"] } });
		expect(existsSync(join(cwd, "b.txt"))).toBe(false);
	});

	it("fork with restoreFiles starts the new session with the files before that message", async () => {
		const { agent, cwd } = await start();
		const { second } = await twoTurns(agent);
		const oldFile = (await agent.getState()).sessionFile;

		const fork = await agent.fork(second, { restoreFiles: true });
		expect(fork).toEqual({
			text: "second turn",
			cancelled: false,
			files: { restored: ["a.txt"], removed: ["b.txt"], conflicts: [], unrestorable: [] },
		});
		expect((await agent.getState()).sessionFile).not.toBe(oldFile);
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
		expect(existsSync(join(cwd, "b.txt"))).toBe(false);
		// The fork carries the history of its branch: before the first turn there was no a.txt.
		const [first] = (await agent.getForkMessages()).map((message) => message.entryId);
		expect(await agent.restoreCheckpoint(first as string, { dryRun: true })).toMatchObject({ removed: ["a.txt"] });
	});
});
