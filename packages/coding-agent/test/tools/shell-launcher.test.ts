// The bash launcher (src/core/tools/shell-launcher.ts): bash commands are forked by a small bash, not by this
// process, and nothing else about them changes. Commands print `$PPID` to say which process started them.
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { type BashOperations, createLocalBashOperations } from "@agent/coding-agent";
import { beforeEach, describe, expect, it } from "vitest";
import { closeShellLaunchers } from "../../src/core/tools/shell-launcher.js";
import { CLI_PATH, createCliSandbox } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";
import { waitFor } from "../helpers/interactive-terminal.js";
import { childrenOf, isRunning, procStatFields } from "../helpers/processes.js";
import { useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-bash-launcher-");
const bash = createLocalBashOperations();

async function exec(
	command: string,
	options: { ops?: BashOperations; env?: NodeJS.ProcessEnv; signal?: AbortSignal } = {},
): Promise<{ text: string; exitCode: number | null }> {
	const chunks: Buffer[] = [];
	const { exitCode } = await (options.ops ?? bash).exec(command, tempDir(), {
		onData: (data) => chunks.push(data),
		...(options.env ? { env: options.env } : {}),
		...(options.signal ? { signal: options.signal } : {}),
	});
	return { text: Buffer.concat(chunks).toString(), exitCode };
}

/** The pid of the process that started `$PPID`-printing output's first line. */
function parentOf(text: string): number {
	return Number(text.split("\n")[0]);
}

/** The launcher's standby, its one child while it runs no command: forked once the last command has ended. */
async function standbyOf(launcher: number): Promise<number> {
	await waitFor(() => childrenOf(launcher).length === 1, "the launcher's standby", 10_000);
	return childrenOf(launcher)[0] as number;
}

// Linux only (elsewhere commands are spawned directly): the tests also read /proc.
describe.skipIf(process.platform !== "linux")("the bash launcher", () => {
	// Launchers outlive tests. An environment's second command in a row has one: each test starts with the default's.
	beforeEach(async () => {
		await exec("true");
		await exec("true");
	});

	it("starts bash commands, one launcher for one command after another", async () => {
		const first = parentOf((await exec("echo $PPID")).text);
		const second = parentOf((await exec("echo $PPID")).text);
		expect(first).not.toBe(process.pid);
		expect(second).toBe(first);
	});

	it("forks each command's process ahead: the next command runs in the standby forked after the last", async () => {
		const launcher = parentOf((await exec("echo $PPID")).text);
		const standby = await standbyOf(launcher);
		expect(await exec("echo $PPID $$")).toEqual({ text: `${launcher} ${standby}\n`, exitCode: 0 });
	});

	it("leaves a command's SIGPIPE as it was (the launcher traps it)", async () => {
		const { text } = await exec("echo $PPID; yes | head -1; echo $((PIPESTATUS[0]))");
		expect(parentOf(text)).not.toBe(process.pid);
		expect(text.split("\n").slice(1)).toEqual(["y", "141", ""]);
	});

	it("runs a short command after a long one as given (requests are written over each other)", async () => {
		const long = "x".repeat(5000);
		expect((await exec(`echo ${long}`)).text).toBe(`${long}\n`);
		expect((await exec("echo short")).text).toBe("short\n");
	});

	it("runs in the working directory, with stdout and stderr in order, stdin closed, and the exit code", async () => {
		const result = await exec("pwd; echo err >&2; echo out; cat; exit 3");
		expect(result).toEqual({ text: `${tempDir()}\nerr\nout\n`, exitCode: 3 });
	});

	it("reports a command ended by a signal with 128 + its number, as bash does", async () => {
		expect((await exec("kill -TERM $$")).exitCode).toBe(143);
	});

	// A shell of another name is spawned by this process: the same bash, started directly, for comparison.
	describe.each([
		["SHLVL, OLDPWD and BASH_ENV set", true],
		["SHLVL, OLDPWD and BASH_ENV unset", false],
	])("with %s", (_name, set) => {
		it("gives the command the environment, and the start, a direct spawn gives it", async () => {
			const directShell = join(tempDir(), "bash-direct");
			symlinkSync("/bin/bash", directShell);
			const bashEnv = join(tempDir(), "bash-env");
			writeFileSync(bashEnv, "echo from BASH_ENV\n");
			// bash runs it when its stdin is a socket (taking that for sshd), as a launcher's is.
			writeFileSync(join(tempDir(), ".bashrc"), "export FROM_BASHRC=1\n");
			const extra = set ? { SHLVL: "4", OLDPWD: "/", BASH_ENV: bashEnv } : {};
			// Names a launcher script might use for its own variables, too.
			const env = { PATH: process.env.PATH, HOME: tempDir(), SOME_VAR: "a b  c", cmd: "x", dir: "y", ...extra };
			// And the same open files: the launcher's own (the output FIFO's write end) are not passed on.
			const command = "env | grep -v '^_=' | sort; ls /proc/$$/fd | tr '\\n' ' '; echo; echo $PPID";
			await exec("true", { env }); // with the next, a launcher for this environment
			const launched = await exec(command, { env });
			const direct = await exec(command, { env, ops: createLocalBashOperations({ shellPath: directShell }) });
			const lines = (text: string) => text.trimEnd().split("\n");
			expect(Number(lines(launched.text).at(-1))).not.toBe(process.pid);
			expect(Number(lines(direct.text).at(-1))).toBe(process.pid);
			expect(lines(launched.text).slice(0, -1)).toEqual(lines(direct.text).slice(0, -1));
			expect(lines(launched.text)).toContain("SOME_VAR=a b  c");
			expect(lines(launched.text)[0] === "from BASH_ENV").toBe(set);
		});
	});

	it("leaves commands whose environment sets bash options to a direct spawn", async () => {
		const env = { PATH: process.env.PATH, SHELLOPTS: "braceexpand:hashall:interactive-comments:noclobber" };
		expect(parentOf((await exec("echo $PPID", { env })).text)).toBe(process.pid);
	});

	it("runs a command with another environment itself, and gives one that comes twice in a row a launcher", async () => {
		const parent = async (A: string) =>
			parentOf((await exec("echo $PPID", { env: { PATH: process.env.PATH, A } })).text);
		await parent("0");
		const launcher = await parent("0");
		expect(launcher).not.toBe(process.pid);
		expect(await parent("0")).toBe(launcher);
		// An environment per command (a spawn hook's): each runs here, the launcher stays.
		expect(await parent("1")).toBe(process.pid);
		expect(await parent("2")).toBe(process.pid);
		expect(await parent("0")).toBe(launcher);
		// The same new environment twice: a launcher for it.
		expect(await parent("3")).toBe(process.pid);
		const next = await parent("3");
		expect(next).not.toBe(process.pid);
		expect(next).not.toBe(launcher);
	});

	it("spawns a second command itself while the launcher runs one", async () => {
		const [slow, beside] = await Promise.all([exec("echo $PPID; sleep 0.2"), exec("echo $PPID")]);
		expect(parentOf(slow.text)).not.toBe(process.pid);
		expect(parentOf(beside.text)).toBe(process.pid);
	});

	it("retires a launcher whose output a background process still holds: later output is not mixed in", async () => {
		const fifo = join(tempDir(), "go");
		execFileSync("mkfifo", [fifo]);
		// The background process holds the output pipe, waiting for the next command to write to the FIFO.
		const first = await exec(`echo $PPID; (cat ${fifo}; echo late) &`);
		const second = await exec(`echo $PPID; echo early > ${fifo}`);
		expect(parentOf(second.text)).not.toBe(parentOf(first.text));
		expect(second.text).toBe(`${parentOf(second.text)}\n`);
	});

	it("still runs commands when the launcher's directory was removed, in a new launcher", async () => {
		const launcher = parentOf((await exec("echo $PPID")).text);
		// The launcher runs in its private directory.
		rmSync(readlinkSync(`/proc/${launcher}/cwd`), { recursive: true, force: true });
		expect((await exec("echo ok")).text).toBe("ok\n");
		expect(parentOf((await exec("echo $PPID")).text)).not.toBe(launcher);
	});

	it("still runs a command given to a launcher that was killed, and its standby ends", async () => {
		const launcher = parentOf((await exec("echo $PPID")).text);
		const standby = await standbyOf(launcher);
		process.kill(launcher, "SIGKILL");
		// Given once the launcher is dead but before this process learns of it (it is a zombie until this process
		// collects it, in its event loop: not yielded to here): the orphaned standby must not run the command, as no
		// one would report its exit code. A launcher killed while the standby starts a command may leave that
		// command's exit code unknown, as one killed while it runs a command does.
		const deadline = Date.now() + 10_000;
		while (procStatFields(launcher)?.[0] !== "Z" && Date.now() < deadline) {
			// Busy: a timer would let the event loop collect it.
		}
		expect(await exec("echo ok")).toEqual({ text: "ok\n", exitCode: 0 });
		await waitFor(() => !isRunning(standby), "the standby to end", 10_000);
	});

	it("ends the standby of a launcher killed while idle", async () => {
		const launcher = parentOf((await exec("echo $PPID")).text);
		const standby = await standbyOf(launcher);
		process.kill(launcher, "SIGKILL");
		await waitFor(() => !isRunning(standby), "the standby to end", 10_000);
	});

	it("runs a command itself when the standby cannot read it, and replaces the launcher", async () => {
		const launcher = parentOf((await exec("echo $PPID")).text);
		rmSync(join(readlinkSync(`/proc/${launcher}/cwd`), "req"));
		expect(await exec("echo $PPID")).toEqual({ text: `${process.pid}\n`, exitCode: 0 });
		const next = parentOf((await exec("echo $PPID")).text);
		expect(next).not.toBe(launcher);
		expect(next).not.toBe(process.pid);
	});

	it("ends a command whose launcher died while it ran when its output ends, with no exit code", async () => {
		const result = await exec("kill -KILL $PPID; echo after");
		expect(result).toEqual({ text: "after\n", exitCode: null });
		expect(parentOf((await exec("echo $PPID")).text)).not.toBe(process.pid);
	});

	// A shell path of its own gets a launcher of its own.
	function freshBash(): BashOperations {
		const shellPath = join(tempDir(), "bash");
		symlinkSync("/bin/bash", shellPath);
		return createLocalBashOperations({ shellPath });
	}

	it("runs commands itself when no launcher can start (here, no mkfifo on PATH)", async () => {
		const ops = freshBash();
		const env = { PATH: "/nonexistent" };
		expect(parentOf((await exec("echo $PPID", { ops, env })).text)).toBe(process.pid);
		expect(parentOf((await exec("echo $PPID", { ops, env })).text)).toBe(process.pid);
	});

	it("runs commands itself when the temp directory cannot hold a launcher's", async () => {
		const ops = freshBash();
		const saved = process.env.TMPDIR;
		process.env.TMPDIR = join(tempDir(), "missing");
		try {
			expect(await exec("echo ok", { ops })).toEqual({ text: "ok\n", exitCode: 0 });
		} finally {
			if (saved === undefined) delete process.env.TMPDIR;
			else process.env.TMPDIR = saved;
		}
	});

	it("aborts a command before the launcher reported it started", async () => {
		const controller = new AbortController();
		const pending = exec("echo $$; sleep 30 & sleep 30", { signal: controller.signal });
		const aborted = expect(pending).rejects.toThrow("aborted");
		controller.abort();
		await aborted;
	});

	it("ends idle launchers, and their standbys, when closed", async () => {
		const launcher = parentOf((await exec("echo $PPID")).text);
		const standby = await standbyOf(launcher);
		await closeShellLaunchers();
		expect(isRunning(launcher)).toBe(false);
		await waitFor(() => !isRunning(standby), "the standby to end", 10_000);
		// The next command starts a new one.
		expect(parentOf((await exec("echo $PPID")).text)).not.toBe(launcher);
	});
});

describe.skipIf(process.platform !== "linux")("a launcher whose agent was killed", () => {
	const server = startFakeModelServerForFile();

	it("removes its directory, and the last command in it, once that command ends", async () => {
		const sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		try {
			const tmp = join(sandbox.root, "tmp");
			mkdirSync(tmp);
			const started = join(sandbox.root, "started");
			const gate = join(sandbox.root, "gate");
			execFileSync("mkfifo", [gate]);
			server.enqueue(
				toolCallReply([{ name: "bash", arguments: { command: `echo > ${started}; read line < ${gate}` } }]),
				textReply("done"),
			);
			const agent = spawn(process.execPath, [CLI_PATH, "--no-session", "-p", "wait"], {
				cwd: sandbox.cwd,
				env: { ...sandbox.env, TMPDIR: tmp },
				stdio: "ignore",
			});
			const launcherDirs = () => readdirSync(tmp).filter((name) => name.startsWith("agent-launcher-"));
			await waitFor(() => existsSync(started), "the command to start", 15_000);
			const [dir] = launcherDirs();
			expect(readFileSync(join(tmp, dir as string, "req"), "utf8")).toContain(gate);
			const exited = once(agent, "exit");
			agent.kill("SIGKILL");
			await exited;
			expect(launcherDirs()).toEqual([dir]);
			// The command ends; the launcher's report of it finds no agent.
			writeFileSync(gate, "go\n");
			await waitFor(() => launcherDirs().length === 0, "the launcher to remove its directory", 15_000);
		} finally {
			sandbox.cleanup();
		}
	});
});
