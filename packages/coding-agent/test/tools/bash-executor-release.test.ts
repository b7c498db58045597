import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
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
 * Runs `command` with an `onData` that holds an object only it reaches, and gives back a weak reference to that
 * object and the children this process spawned for it. The caller keeps those children, as Node keeps a finished
 * child's handle wrappers (and what they reach) alive until a full collection.
 */
async function runAndKeepChildren(
	command: string,
	shellPath?: string,
): Promise<{ children: ChildProcess[]; output: WeakRef<object> }> {
	const chunks: Buffer[] = [];
	const output = new WeakRef(chunks);
	const before = spawned.length;
	await createLocalBashOperations(shellPath ? { shellPath } : {}).exec(command, tempDir(), {
		onData: (data) => chunks.push(data),
	});
	expect(Buffer.concat(chunks).toString()).toBe("out\n");
	return { children: spawned.slice(before), output };
}

/** The process group of a command that wrote `$$` to `pgid` in the temp dir. */
function commandGroup(): number {
	return Number(readFileSync(join(tempDir(), "pgid"), "utf8"));
}

// A shell not named bash is spawned by this process; bash commands go through the bash launcher (on Linux).
const paths: [name: string, shellPath: string | undefined][] = [["spawned here", "/bin/sh"]];
if (process.platform === "linux") paths.push(["run by the bash launcher", undefined]);
describe.each(paths)("a finished command, %s,", (_name, shellPath) => {
	it("leaves nothing reaching the command's scope", async () => {
		await createLocalBashOperations(shellPath ? { shellPath } : {}).exec("true", tempDir(), { onData() {} });
		const { children, output } = await runAndKeepChildren("echo out", shellPath);
		expect(children).toHaveLength(shellPath ? 1 : 0);
		for (const child of children) if (!child.stdout?.closed) await once(child, "close");
		collectGarbage();
		expect(output.deref()).toBeUndefined();
	});

	it("does the same while a background process still holds its pipes", async () => {
		const { children, output } = await runAndKeepChildren("echo $$ > pgid; echo out; sleep 30 &", shellPath);
		try {
			collectGarbage();
			expect(output.deref()).toBeUndefined();
		} finally {
			for (const child of children) {
				child.stdout?.destroy();
				child.stderr?.destroy();
			}
			process.kill(-commandGroup(), "SIGKILL");
		}
	});
});
