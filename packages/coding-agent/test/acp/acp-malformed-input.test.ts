// Bad input over ACP, on the raw wire: every bad line gets a JSON-RPC error, the process keeps serving, and
// stdout carries nothing but JSON-RPC messages.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { CLI_PATH, type CliSandbox, createCliSandbox } from "../helpers/cli-sandbox.js";

interface RawAgent {
	child: ChildProcessWithoutNullStreams;
	/** Every stdout line, parsed (a line that is not JSON fails the test). */
	lines: Record<string, unknown>[];
	send(line: string): void;
	/** Resolves with the next message (from `after` on) that matches. */
	next(predicate: (message: Record<string, unknown>) => boolean, after?: number): Promise<Record<string, unknown>>;
}

let sandbox: CliSandbox | undefined;
let raw: RawAgent | undefined;

afterEach(() => {
	if (raw?.child.exitCode === null) raw.child.kill("SIGKILL");
	raw = undefined;
	sandbox?.cleanup();
	sandbox = undefined;
});

function startRaw(): RawAgent {
	sandbox = createCliSandbox();
	const child = spawn(process.execPath, [CLI_PATH, "--mode", "acp"], {
		cwd: sandbox.cwd,
		env: sandbox.env,
		stdio: ["pipe", "pipe", "pipe"],
	});
	const lines: Record<string, unknown>[] = [];
	const waiters: {
		predicate: (m: Record<string, unknown>) => boolean;
		from: number;
		resolve: (m: Record<string, unknown>) => void;
	}[] = [];
	let buffer = "";
	child.stdout.setEncoding("utf8");
	child.stdout.on("data", (text: string) => {
		buffer += text;
		let newline = buffer.indexOf("\n");
		while (newline >= 0) {
			const line = buffer.slice(0, newline);
			buffer = buffer.slice(newline + 1);
			newline = buffer.indexOf("\n");
			lines.push(JSON.parse(line) as Record<string, unknown>);
			for (const waiter of [...waiters]) {
				const index = lines.findIndex((message, i) => i >= waiter.from && waiter.predicate(message));
				if (index < 0) continue;
				waiters.splice(waiters.indexOf(waiter), 1);
				waiter.resolve(lines[index] as Record<string, unknown>);
			}
		}
	});
	return {
		child,
		lines,
		send: (line) => child.stdin.write(`${line}\n`),
		next: (predicate, after = 0) => {
			const found = lines.find((message, i) => i >= after && predicate(message));
			if (found) return Promise.resolve(found);
			return new Promise((resolve) => waiters.push({ predicate, from: after, resolve }));
		},
	};
}

const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });

describe("malformed input", () => {
	it("answers a line that is not JSON with a parse error and keeps serving", async () => {
		raw = startRaw();
		raw.send("this is not json");
		const parseError = await raw.next((message) => "error" in message);
		expect(parseError).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
		raw.send(INITIALIZE);
		expect(await raw.next((message) => message.id === 1)).toMatchObject({ result: { protocolVersion: 1 } });
	});

	it("answers an unknown method with method-not-found carrying the request's id", async () => {
		raw = startRaw();
		raw.send(INITIALIZE);
		await raw.next((message) => message.id === 1);
		raw.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/teleport", params: {} }));
		expect(await raw.next((message) => message.id === 2)).toMatchObject({ error: { code: -32601 } });
		raw.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "session/list", params: {} }));
		expect(await raw.next((message) => message.id === 3)).toMatchObject({ result: { sessions: [] } });
	});

	it("answers invalid params and a JSON value that is not a request with errors", async () => {
		raw = startRaw();
		raw.send(INITIALIZE);
		await raw.next((message) => message.id === 1);
		raw.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: 5 } }));
		expect(await raw.next((message) => message.id === 2)).toMatchObject({ error: { code: -32602 } });
		const before = raw.lines.length;
		raw.send("[1, 2]");
		expect(await raw.next((message) => "error" in message, before)).toMatchObject({
			id: null,
			error: { code: -32600 },
		});
		raw.send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "session/list", params: {} }));
		expect(await raw.next((message) => message.id === 4)).toHaveProperty("result");
	});

	it("writes only JSON-RPC messages to stdout and exits 0 at the end of input", async () => {
		raw = startRaw();
		raw.send("{");
		raw.send(INITIALIZE);
		await raw.next((message) => message.id === 1);
		const exited = new Promise<number | null>((resolve) => raw?.child.once("close", (code) => resolve(code)));
		raw.child.stdin.end();
		expect(await exited).toBe(0);
		expect(raw.lines.length).toBeGreaterThanOrEqual(2);
		for (const message of raw.lines) expect(message.jsonrpc).toBe("2.0");
	});
});
