// `@path` arguments that cannot be attached are reported in words, not as Node's error codes.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeReadFailure, processFileArguments } from "../../src/cli/file-arguments.js";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function errno(code: string, message: string): NodeJS.ErrnoException {
	return Object.assign(new Error(message), { code });
}

describe("@file failures", () => {
	it("a directory says so and how to attach its files", async () => {
		const cwd = mkdtempSync(join(tmpdir(), "agent-file-args-"));
		dirs.push(cwd);
		mkdirSync(join(cwd, "src"));
		await expect(processFileArguments(["src"], { cwd })).rejects.toThrow(
			`Could not read file ${join(cwd, "src")}: it is a directory. Attach the files in it (@${join(cwd, "src")}/<file>), or ask about it in the message`,
		);
	});

	it("describes permission and other errors without the code and the system call", () => {
		expect(describeReadFailure(errno("EACCES", "EACCES: permission denied, open '/x'"), "/x")).toBe(
			"permission denied",
		);
		expect(describeReadFailure(errno("EPERM", "EPERM: operation not permitted, open '/x'"), "/x")).toBe(
			"permission denied",
		);
		expect(describeReadFailure(errno("EIO", "EIO: i/o error, read"), "/x")).toBe("i/o error");
		expect(describeReadFailure(errno("ELOOP", "ELOOP: too many symbolic links encountered, open '/x'"), "/x")).toBe(
			"too many symbolic links",
		);
	});
});
