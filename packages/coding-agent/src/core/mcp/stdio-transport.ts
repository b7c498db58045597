// The stdio transport for local MCP servers. Ours instead of the SDK's: the server runs in its own process
// group, so closing it also ends what it started (`npx` → node, `uvx` → python) and no process outlives the
// agent — on close, and synchronously when the agent exits; its stderr goes to a callback (kept bounded by
// the caller) instead of the agent's terminal; provider keys of the agent's environment are not inherited.
import { type ChildProcess, spawn } from "node:child_process";
import { PROVIDER_ENV_VARS } from "@agent/ai";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** A single message may be this large; a server that writes more on one line is disconnected. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** After SIGTERM, how long a server may take to exit before its process group gets SIGKILL. */
const KILL_GRACE_MS = 2000;

const PROVIDER_KEY_VARS = new Set(Object.values(PROVIDER_ENV_VARS).flat());

/**
 * The server's environment: the agent's, without the variables that hold model provider keys (a server that
 * needs one names it in its `env`), plus the configured variables.
 */
export function stdioServerEnvironment(
	configured: Record<string, string>,
	base: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [name, value] of Object.entries(base)) {
		if (value !== undefined && !PROVIDER_KEY_VARS.has(name)) env[name] = value;
	}
	return { ...env, ...configured };
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		if (process.platform === "win32") child.kill(signal);
		else process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// already gone
		}
	}
}

/** The last resort when the agent exits without closing its servers: nothing it started stays behind. */
function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.once("exit", () => {
		for (const child of running) killGroup(child, "SIGKILL");
	});
}

export interface StdioTransportOptions {
	command: string;
	args: string[];
	env: Record<string, string>;
	cwd?: string;
	onStderr: (text: string) => void;
}

export class McpStdioTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: <T extends JSONRPCMessage>(message: T) => void;

	private child: ChildProcess | undefined;
	private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
	private exitDescription: string | undefined;
	private closing = false;

	constructor(private readonly options: StdioTransportOptions) {}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** How the process ended (`exited with code 1`, `killed by SIGKILL`), once it has. */
	get exit(): string | undefined {
		return this.exitDescription;
	}

	start(): Promise<void> {
		if (this.child) throw new Error("McpStdioTransport already started");
		installExitHook();
		const { command, args, env, cwd } = this.options;
		return new Promise((resolve, reject) => {
			const child = spawn(command, args, {
				env,
				...(cwd !== undefined ? { cwd } : {}),
				stdio: ["pipe", "pipe", "pipe"],
				detached: process.platform !== "win32",
				windowsHide: true,
			});
			this.child = child;
			running.add(child);
			child.once("error", (error) => {
				running.delete(child);
				const message = `could not start ${JSON.stringify(command)}: ${error.message}`;
				reject(new Error(message));
				this.onerror?.(new Error(message));
			});
			child.once("spawn", () => resolve());
			child.once("exit", (code, signal) => {
				running.delete(child);
				this.exitDescription = signal ? `killed by ${signal}` : `exited with code ${code}`;
			});
			child.once("close", () => {
				running.delete(child);
				this.child = undefined;
				this.onclose?.();
			});
			child.stdin?.on("error", (error) => this.onerror?.(error));
			child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk));
			child.stdout?.on("error", (error) => this.onerror?.(error));
			child.stderr?.setEncoding("utf8");
			child.stderr?.on("data", (text: string) => this.options.onStderr(text));
			child.stderr?.on("error", () => {});
		});
	}

	private receive(chunk: Buffer): void {
		try {
			this.buffer.append(chunk);
		} catch (error) {
			this.onerror?.(error as Error);
			void this.close();
			return;
		}
		for (;;) {
			let message: JSONRPCMessage | null;
			try {
				message = this.buffer.readMessage();
			} catch (error) {
				// A line that is not a JSON-RPC message (a stray log line on stdout): reported, then skipped.
				this.onerror?.(error as Error);
				continue;
			}
			if (message === null) break;
			this.onmessage?.(message);
		}
	}

	send(message: JSONRPCMessage): Promise<void> {
		return new Promise((resolve, reject) => {
			const stdin = this.child?.stdin;
			if (!stdin || this.closing) {
				reject(new Error("Not connected"));
				return;
			}
			if (stdin.write(serializeMessage(message))) resolve();
			else stdin.once("drain", resolve);
		});
	}

	/** Ends stdin and terminates the process group; SIGKILL follows if it has not exited after a grace period. */
	async close(): Promise<void> {
		const child = this.child;
		this.closing = true;
		this.buffer.clear();
		if (!child || child.exitCode !== null || child.signalCode !== null) return;
		const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
		try {
			child.stdin?.end();
		} catch {
			// already closed
		}
		killGroup(child, "SIGTERM");
		let timer: NodeJS.Timeout | undefined;
		const grace = new Promise<"timeout">((resolve) => {
			timer = setTimeout(() => resolve("timeout"), KILL_GRACE_MS);
			timer.unref();
		});
		if ((await Promise.race([closed, grace])) === "timeout") killGroup(child, "SIGKILL");
		clearTimeout(timer);
	}
}
