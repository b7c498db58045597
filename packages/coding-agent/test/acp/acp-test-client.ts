// Drives the built `agent --mode acp` with the ACP SDK's client side, as an editor would: an in-memory file
// system for `fs/*`, scripted answers to permission requests, local processes for `terminal/*`, and every
// `session/update` recorded in arrival order.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import {
	type ClientCapabilities,
	type ClientConnection,
	type ClientContext,
	client as createClientApp,
	type InitializeResponse,
	ndJsonStream,
	PROTOCOL_VERSION,
	type RequestPermissionRequest,
	type RequestPermissionResponse,
	type SessionNotification,
	type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { CLI_PATH, type CliSandbox } from "../helpers/cli-sandbox.js";

export interface AcpTestClientOptions {
	args?: string[];
	capabilities?: ClientCapabilities;
	/** The editor's buffers: what `fs/read_text_file` answers and `fs/write_text_file` changes. */
	files?: Record<string, string>;
	/** Answers `session/request_permission` (`signal` aborts when the agent withdraws it); default: the first option. */
	onPermission?: (
		request: RequestPermissionRequest,
		signal: AbortSignal,
	) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
}

interface Waiter {
	predicate: (notification: SessionNotification) => boolean;
	resolve: (notification: SessionNotification) => void;
}

interface TerminalRun {
	output: string;
	exit: Promise<{ exitCode: number | null; signal: string | null }>;
	kill: () => void;
}

export class AcpTestClient {
	readonly updates: SessionNotification[] = [];
	readonly files: Map<string, string>;
	/** Every client method the agent called, in order: `fs/read_text_file`, `terminal/create`, … */
	readonly clientCalls: { method: string; params: Record<string, unknown> }[] = [];
	readonly permissionRequests: RequestPermissionRequest[] = [];
	stderr = "";
	private readonly waiters: Waiter[] = [];
	private readonly stderrWaiters: { pattern: RegExp; resolve: (stderr: string) => void }[] = [];
	private readonly terminals = new Map<string, TerminalRun>();
	private exited: Promise<number | null>;

	private constructor(
		readonly child: ChildProcessWithoutNullStreams,
		private readonly connection: ClientConnection,
		files: Record<string, string>,
	) {
		this.files = new Map(Object.entries(files));
		this.exited = new Promise((resolve) => child.once("close", (code) => resolve(code)));
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (text: string) => {
			this.stderr += text;
			for (const waiter of [...this.stderrWaiters]) {
				if (!waiter.pattern.test(this.stderr)) continue;
				this.stderrWaiters.splice(this.stderrWaiters.indexOf(waiter), 1);
				waiter.resolve(this.stderr);
			}
		});
	}

	/** Resolves with everything written to stderr once it matches `pattern`. */
	waitForStderr(pattern: RegExp): Promise<string> {
		if (pattern.test(this.stderr)) return Promise.resolve(this.stderr);
		return new Promise((resolve) => this.stderrWaiters.push({ pattern, resolve }));
	}

	static async start(sandbox: CliSandbox, options: AcpTestClientOptions = {}): Promise<AcpTestClient> {
		const child = spawn(process.execPath, [CLI_PATH, "--mode", "acp", ...(options.args ?? [])], {
			cwd: sandbox.cwd,
			env: sandbox.env,
			stdio: ["pipe", "pipe", "pipe"],
		});
		let instance: AcpTestClient | undefined;
		const self = () => instance as AcpTestClient;
		const app = createClientApp({ name: "acp-test-client" })
			.onNotification("session/update", ({ params }) => self().record(params))
			.onRequest("session/request_permission", async ({ params, signal }) => {
				self().permissionRequests.push(params);
				self().clientCalls.push({ method: "session/request_permission", params });
				if (options.onPermission) return options.onPermission(params, signal);
				const first = params.options[0];
				return { outcome: first ? { outcome: "selected", optionId: first.optionId } : { outcome: "cancelled" } };
			})
			.onRequest("fs/read_text_file", ({ params }) => {
				self().clientCalls.push({ method: "fs/read_text_file", params });
				const content = self().files.get(params.path);
				if (content === undefined) throw new Error(`No such buffer: ${params.path}`);
				return { content };
			})
			.onRequest("fs/write_text_file", ({ params }) => {
				self().clientCalls.push({ method: "fs/write_text_file", params });
				self().files.set(params.path, params.content);
				return {};
			})
			.onRequest("terminal/create", ({ params }) => {
				self().clientCalls.push({ method: "terminal/create", params });
				return { terminalId: self().startTerminal(params.command, params.args ?? [], params.cwd ?? sandbox.cwd) };
			})
			.onRequest("terminal/output", ({ params }) => {
				const run = self().terminalOf(params.terminalId);
				return { output: run.output, truncated: false };
			})
			.onRequest("terminal/wait_for_exit", async ({ params }) => self().terminalOf(params.terminalId).exit)
			.onRequest("terminal/kill", ({ params }) => {
				self().terminalOf(params.terminalId).kill();
				return {};
			})
			.onRequest("terminal/release", ({ params }) => {
				self().clientCalls.push({ method: "terminal/release", params });
				return {};
			});
		const stream = ndJsonStream(
			Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
			Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
		);
		instance = new AcpTestClient(child, app.connect(stream), options.files ?? {});
		return instance;
	}

	/** The agent side, for `request` and `notify`. */
	get agent(): ClientContext {
		return this.connection.agent;
	}

	initialize(capabilities: ClientCapabilities = {}): Promise<InitializeResponse> {
		return this.agent.request("initialize", {
			protocolVersion: PROTOCOL_VERSION,
			clientCapabilities: capabilities,
			clientInfo: { name: "acp-test-client", version: "1.0.0" },
		});
	}

	/** Updates of one session, in arrival order. */
	updatesOf(sessionId: string): SessionUpdate[] {
		return this.updates.filter((notification) => notification.sessionId === sessionId).map((n) => n.update);
	}

	/** Resolves with the first update (already received or still to come) that matches. */
	waitForUpdate(predicate: (notification: SessionNotification) => boolean): Promise<SessionNotification> {
		const seen = this.updates.find(predicate);
		if (seen) return Promise.resolve(seen);
		return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
	}

	/** Closes stdin (end of input) and resolves with the exit code. */
	async stop(): Promise<number | null> {
		if (this.child.exitCode === null && this.child.signalCode === null) this.child.stdin.end();
		const code = await this.exited;
		this.connection.close();
		return code;
	}

	kill(): void {
		if (this.child.exitCode === null) this.child.kill("SIGKILL");
	}

	private record(notification: SessionNotification): void {
		this.updates.push(notification);
		for (const waiter of [...this.waiters]) {
			if (!waiter.predicate(notification)) continue;
			this.waiters.splice(this.waiters.indexOf(waiter), 1);
			waiter.resolve(notification);
		}
	}

	private startTerminal(command: string, args: string[], cwd: string): string {
		const id = `term-${this.terminals.size + 1}`;
		const process = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
		const run: TerminalRun = {
			output: "",
			exit: new Promise((resolve) =>
				process.once("close", (exitCode, signal) => resolve({ exitCode, signal: signal ?? null })),
			),
			kill: () => process.kill("SIGKILL"),
		};
		const append = (chunk: Buffer) => {
			run.output += chunk.toString("utf8");
		};
		process.stdout.on("data", append);
		process.stderr.on("data", append);
		this.terminals.set(id, run);
		return id;
	}

	private terminalOf(id: string): TerminalRun {
		const run = this.terminals.get(id);
		if (!run) throw new Error(`No such terminal: ${id}`);
		return run;
	}
}

/** Text of the message chunks of one kind, joined. */
export function chunkText(
	updates: readonly SessionUpdate[],
	kind: "agent_message_chunk" | "user_message_chunk" | "agent_thought_chunk",
): string {
	let text = "";
	for (const update of updates) {
		if (update.sessionUpdate !== kind) continue;
		const { content } = update as Extract<SessionUpdate, { sessionUpdate: typeof kind }>;
		if (content.type === "text") text += content.text;
	}
	return text;
}
