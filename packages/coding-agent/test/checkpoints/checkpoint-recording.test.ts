import { afterEach, describe, expect, it } from "vitest";
import {
	bash,
	checkpointEntries,
	createCheckpointHarness,
	edit,
	readTree,
	runTurn,
	toolCalls,
	userEntryId,
	write,
} from "../helpers/checkpoint-fixtures.js";
import type { RuntimeHarness } from "../helpers/runtime-harness.js";

let harness: RuntimeHarness | undefined;
afterEach(() => {
	harness?.dispose();
	harness = undefined;
});

describe("recording", () => {
	it("records an edit and a write against the entries that report them", async () => {
		harness = await createCheckpointHarness({ files: { "a.txt": "alpha\n" } });
		await runTurn(harness, "change files", toolCalls(edit("a.txt", "alpha", "ALPHA"), write("sub/b.txt", "beta\n")));
		const checkpoints = checkpointEntries(harness.sessionManager.getEntries());
		const paths = checkpoints.flatMap((entry) => entry.files.map((file) => file.path)).sort();
		expect(paths).toEqual(["a.txt", "sub", "sub/b.txt"]);
		// Each checkpoint comes right before the tool result it belongs to.
		for (const checkpoint of checkpoints) {
			const child = harness.sessionManager.getEntries().find((entry) => entry.parentId === checkpoint.id);
			expect(child?.type === "message" && child.message.role).toBe("toolResult");
		}
	});

	it("records what a bash command created, changed and deleted", async () => {
		harness = await createCheckpointHarness({ files: { "keep.txt": "k\n", "gone.txt": "g\n", "mod.txt": "m\n" } });
		await runTurn(harness, "shell", toolCalls(bash("rm gone.txt && echo more >> mod.txt && echo new > new.txt")));
		const files = checkpointEntries(harness.sessionManager.getEntries()).flatMap((entry) => entry.files);
		const byPath = Object.fromEntries(files.map((file) => [file.path, file]));
		expect(Object.keys(byPath).sort()).toEqual(["gone.txt", "mod.txt", "new.txt"]);
		expect(byPath["gone.txt"]?.after).toBeNull();
		expect(byPath["new.txt"]?.before).toBeNull();
	});
});

describe("restore", () => {
	it("returns the files to an earlier point and back", async () => {
		harness = await createCheckpointHarness({ files: { "a.txt": "one\n" } });
		await runTurn(harness, "first", toolCalls(edit("a.txt", "one", "two")));
		await runTurn(harness, "second", toolCalls(bash("echo x > x.txt && rm a.txt")));
		const afterSecond = readTree(harness.cwd);
		const firstPoint = userEntryId(harness, "second");
		const leaf = harness.sessionManager.getLeafId() as string;
		const result = await harness.session.navigateTree(firstPoint, { restoreFiles: true });
		expect(result.files).toMatchObject({ restored: ["a.txt"], removed: ["x.txt"], conflicts: [] });
		expect(readTree(harness.cwd)).toEqual({ "a.txt": "two\n" });
		const back = await harness.session.navigateTree(leaf, { restoreFiles: true });
		expect(back.files?.conflicts).toEqual([]);
		expect(readTree(harness.cwd)).toEqual(afterSecond);
	});
});
