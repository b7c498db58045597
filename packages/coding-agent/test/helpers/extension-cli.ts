// The built `agent` binary in RPC mode, spoken to in raw JSON Lines (no client library): what a client of the
// extension-UI sub-protocol sees and writes.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { CLI_PATH, type CliSandbox } from "./cli-sandbox.js";

export type RpcRecord = Record<string, unknown> & { type: string };

export interface RawRpcAgent {
	/** Every record read from stdout so far. */
	records: RpcRecord[];
	stderr(): string;
	send(record: Record<string, unknown>): void;
	/** The first record (already read or still to come) that matches. */
	next(predicate: (record: RpcRecord) => boolean): Promise<RpcRecord>;
	/** Closes stdin and waits for the exit code. */
	stop(): Promise<number | null>;
}

export function startRawRpcAgent(sandbox: CliSandbox, args: string[], env: NodeJS.ProcessEnv = {}): RawRpcAgent {
	const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI_PATH, "--mode", "rpc", ...args], {
		cwd: sandbox.cwd,
		env: { ...sandbox.env, ...env },
		stdio: ["pipe", "pipe", "pipe"],
	});
	const records: RpcRecord[] = [];
	const waiters: { predicate: (record: RpcRecord) => boolean; resolve: (record: RpcRecord) => void }[] = [];
	let buffer = "";
	let stderr = "";
	child.stderr.setEncoding("utf8").on("data", (text: string) => {
		stderr += text;
	});
	child.stdout.setEncoding("utf8").on("data", (text: string) => {
		buffer += text;
		let newline = buffer.indexOf("\n");
		while (newline >= 0) {
			const line = buffer.slice(0, newline);
			buffer = buffer.slice(newline + 1);
			newline = buffer.indexOf("\n");
			if (line.length === 0) continue;
			const record = JSON.parse(line) as RpcRecord;
			records.push(record);
			for (let i = waiters.length - 1; i >= 0; i--) {
				const waiter = waiters[i];
				if (waiter?.predicate(record)) {
					waiters.splice(i, 1);
					waiter.resolve(record);
				}
			}
		}
	});
	const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
	return {
		records,
		stderr: () => stderr,
		send: (record) => {
			child.stdin.write(`${JSON.stringify(record)}\n`);
		},
		next: (predicate) => {
			const seen = records.find(predicate);
			if (seen) return Promise.resolve(seen);
			return new Promise((resolve) => waiters.push({ predicate, resolve }));
		},
		stop: async () => {
			child.stdin.end();
			return exited;
		},
	};
}
