import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createLocalBashOperations } from "@agent/coding-agent";
import { describe, expect, it, vi } from "vitest";
import { useTempDir } from "../helpers/tools-fixtures.js";

const spawned: ChildProcess[] = [];
vi.mock("node:child_process", async (importOriginal) => {
	const original = await importOriginal<typeof import("node:child_process")>();
	return {
		...original,
		spawn: (...args: Parameters<typeof original.spawn>) => {
			const child = original.spawn(...args);
			spawned.push(child);
			return child;
		},
	};
});

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const tempDir = useTempDir("agent-bash-release-");

/**
 * Runs `command` with an `onData` that holds an object only it reaches, and gives back the finished child with a
 * weak reference to that object. The caller keeps the child, as Node keeps a finished child's handle wrappers (and
 * what they reach) alive until a full collection.
 */
async function runAndKeepChild(
	command: string,
	{ pipesClose }: { pipesClose: boolean },
): Promise<{ child: ChildProcess; output: WeakRef<object> }> {
	const chunks: Buffer[] = [];
	const output = new WeakRef(chunks);
	const before = spawned.length;
	await createLocalBashOperations().exec(command, tempDir(), { onData: (data) => chunks.push(data) });
	const child = spawned[before];
	if (pipesClose && !child.stdout?.closed) await once(child, "close");
	expect(Buffer.concat(chunks).toString()).toBe("out\n");
	return { child, output };
}

describe("a finished command", () => {
	it("leaves the child, and its pipes, reaching nothing of the command's scope", async () => {
		const { child, output } = await runAndKeepChild("echo out", { pipesClose: true });
		collectGarbage();
		expect(output.deref()).toBeUndefined();
		expect(child.exitCode).toBe(0);
	});

	it("does the same while a background process still holds its pipes", async () => {
		const { child, output } = await runAndKeepChild("echo out; sleep 30 &", { pipesClose: false });
		try {
			collectGarbage();
			expect(output.deref()).toBeUndefined();
		} finally {
			child.stdout?.destroy();
			child.stderr?.destroy();
			process.kill(-(child.pid ?? 0), "SIGKILL");
		}
	});
});
