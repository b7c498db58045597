// The built `agent` in a pseudo terminal (util-linux `script`), 120×40, for start-up benchmarks: its output is
// watched for a text, and the time that text arrived is what `waitFor` resolves with.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { CLI_PATH, type CliSandbox } from "../../test/helpers/cli-sandbox.js";

export interface PtyProcess {
	child: ChildProcess;
	output: () => string;
	waitFor(text: string, timeoutMs?: number): Promise<number>;
	close(): void;
}

/** The binary in a pseudo terminal (util-linux `script`), 120×40. */
export function startInPty(args: string[], sandbox: CliSandbox): PtyProcess {
	const command = `stty cols 120 rows 40; exec ${process.execPath} ${CLI_PATH} ${args.join(" ")}`;
	const child = spawn("script", ["-q", "-c", command, "/dev/null"], {
		cwd: sandbox.cwd,
		env: { ...sandbox.env, TERM: "xterm-256color" },
		stdio: ["pipe", "pipe", "pipe"],
	});
	let output = "";
	const waiters: { text: string; resolve: (at: number) => void }[] = [];
	child.stdout?.on("data", (chunk: Buffer) => {
		output += chunk.toString("utf8");
		const at = performance.now();
		for (const waiter of [...waiters]) {
			if (output.includes(waiter.text)) {
				waiters.splice(waiters.indexOf(waiter), 1);
				waiter.resolve(at);
			}
		}
	});
	return {
		child,
		output: () => output,
		waitFor: (text, timeoutMs = 15_000) =>
			new Promise<number>((resolve, reject) => {
				if (output.includes(text)) return resolve(performance.now());
				const timer = setTimeout(() => reject(new Error(`no "${text}" in:\n${output.slice(-2000)}`)), timeoutMs);
				waiters.push({
					text,
					resolve: (at) => {
						clearTimeout(timer);
						resolve(at);
					},
				});
			}),
		close: () => {
			child.stdin?.write("\x03\x03");
			setTimeout(() => child.kill("SIGKILL"), 2000).unref();
		},
	};
}

/** The node process running the CLI under `script` and its shell. */
export function findAgentPid(rootPid: number): number | undefined {
	const children = new Map<number, number[]>();
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, "utf8");
			const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
			children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
		} catch {}
	}
	const queue = [rootPid];
	while (queue.length > 0) {
		const pid = queue.shift() as number;
		try {
			const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
			if (argv[0] === process.execPath && argv.includes(CLI_PATH)) return pid;
		} catch {}
		queue.push(...(children.get(pid) ?? []));
	}
	return undefined;
}

export function cpuTicks(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	return Number(fields[11]) + Number(fields[12]);
}
