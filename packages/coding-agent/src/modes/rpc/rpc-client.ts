// A typed client for `agent --mode rpc`: spawns the agent, sends commands, correlates responses by id,
// delivers events, answers extension UI dialogs, and waits for the session to become idle.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AgentMessage, ThinkingLevel } from "@agent/agent-core";
import type { ImageContent, Model } from "@agent/ai";
import { getPackageRoot } from "../../package-root.js";
import { JsonlLineSplitter, serializeJsonLine } from "./jsonl.js";
import type {
	RpcBashResult,
	RpcCheckpoint,
	RpcCommand,
	RpcCommandType,
	RpcCompactionResult,
	RpcErrorResponse,
	RpcEvent,
	RpcExtensionUiDialogRequest,
	RpcExtensionUiRequest,
	RpcExtensionUiResponse,
	RpcFileRestoreResult,
	RpcForkMessage,
	RpcMcpServer,
	RpcModelCycleResult,
	RpcNavigateTreeResult,
	RpcOAuthProvider,
	RpcPermissionMode,
	RpcPermissionModeState,
	RpcQueueMode,
	RpcResponseDataMap,
	RpcResponseFor,
	RpcSessionState,
	RpcSessionStats,
	RpcSlashCommand,
	RpcStreamingBehavior,
	SessionEntry,
	SessionTreeNode,
} from "./protocol.js";

export interface RpcClientOptions {
	/**
	 * The agent's entry script. Default: this package's `dist/agent.cjs` (what the `agent` bin runs), else
	 * `dist/cli.js`.
	 */
	cliPath?: string;
	/** What runs the script. Default: the current Node executable. */
	nodePath?: string;
	/** Extra arguments after `--mode rpc` (e.g. `--no-session`, `--model x`). */
	args?: string[];
	cwd?: string;
	/** The child's whole environment. Default: this process's. */
	env?: NodeJS.ProcessEnv;
	/** Called with every chunk the agent writes to stderr (it is also kept in `stderr`). */
	onStderr?: (text: string) => void;
}

/** The answer to a dialog: `{ value }`, `{ confirmed }` or `{ cancelled: true }`. */
export type RpcExtensionUiAnswer = Omit<RpcExtensionUiResponse, "type" | "id">;

/** Returns an answer for a dialog (or undefined to answer later with `respondToExtensionUi`). */
export type RpcExtensionUiHandler = (
	request: RpcExtensionUiRequest,
) => RpcExtensionUiAnswer | undefined | Promise<RpcExtensionUiAnswer | undefined>;

/** A command the agent answered with `success: false`. */
export class RpcCommandError extends Error {
	override readonly name = "RpcCommandError";
	constructor(
		readonly command: string,
		readonly response: RpcErrorResponse,
	) {
		super(`${command} failed: ${response.error}`);
	}
}

interface PendingRequest {
	resolve(response: RpcResponseFor<RpcCommandType>): void;
}

const DIALOG_METHODS = new Set(["select", "confirm", "input", "editor"]);

function defaultCliPath(): string {
	// The bundled CLI users run (`agent`), else the unbundled build of the same program.
	const root = getPackageRoot();
	const bundled = join(root, "dist", "agent.cjs");
	return existsSync(bundled) ? bundled : join(root, "dist", "cli.js");
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class RpcClient {
	private child: ChildProcessWithoutNullStreams | undefined;
	private nextId = 1;
	private readonly pending = new Map<string, PendingRequest>();
	private readonly eventListeners = new Set<(event: RpcEvent) => void>();
	private readonly lineListeners = new Set<(line: string) => void>();
	private readonly responseListeners = new Set<(response: RpcResponseFor<RpcCommandType>) => void>();
	private uiHandler: RpcExtensionUiHandler | undefined;
	private exitPromise: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
	private stderrText = "";
	/** Lines on stdout that were not JSON objects (the protocol allows none). */
	readonly invalidLines: string[] = [];

	// What the event stream says about the session, for waitForIdle.
	private runActive = false;
	private expectingRun = false;
	private retryPending = false;
	private compactionPending = false;

	constructor(private readonly options: RpcClientOptions = {}) {}

	/** Spawns the agent. Commands may be sent right away; there is no ready message. */
	async start(): Promise<void> {
		if (this.child) throw new Error("RpcClient already started");
		const child = spawn(
			this.options.nodePath ?? process.execPath,
			[this.options.cliPath ?? defaultCliPath(), "--mode", "rpc", ...(this.options.args ?? [])],
			{ cwd: this.options.cwd, env: this.options.env ?? process.env, stdio: ["pipe", "pipe", "pipe"] },
		);
		this.child = child;
		this.exitPromise = new Promise((resolve) => {
			child.once("exit", (code, signal) => {
				this.failPending(`agent exited (code ${code ?? "none"}${signal ? `, signal ${signal}` : ""})`);
				resolve({ code, signal });
			});
		});
		const splitter = new JsonlLineSplitter((line) => this.handleLine(line));
		child.stdout.on("data", (chunk: Buffer) => splitter.push(chunk));
		child.stdout.on("end", () => splitter.end());
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (text: string) => {
			this.stderrText += text;
			this.options.onStderr?.(text);
		});
		// A broken pipe on our side surfaces through exit; never crash the embedding process.
		child.stdin.on("error", () => {});
		await new Promise<void>((resolve, reject) => {
			child.once("spawn", () => resolve());
			child.once("error", reject);
		});
	}

	/** Everything the agent wrote to stderr so far. */
	get stderr(): string {
		return this.stderrText;
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** Closes stdin (the agent flushes its session and exits) and waits for the exit; kills it after `timeoutMs`. */
	async stop(timeoutMs = 5000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
		const child = this.child;
		if (!child || !this.exitPromise) throw new Error("RpcClient not started");
		if (child.exitCode === null && child.signalCode === null) child.stdin.end();
		let timer: NodeJS.Timeout | undefined;
		const killed = new Promise<void>((resolve) => {
			timer = setTimeout(() => {
				child.kill("SIGKILL");
				resolve();
			}, timeoutMs);
		});
		await Promise.race([this.exitPromise, killed]);
		clearTimeout(timer);
		return this.exitPromise;
	}

	/** Resolves when the agent process exits. */
	waitForExit(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
		if (!this.exitPromise) throw new Error("RpcClient not started");
		return this.exitPromise;
	}

	// -----------------------------------------------------------------------------------------------------
	// Subscriptions
	// -----------------------------------------------------------------------------------------------------

	/** Every event (records with a `type` that are neither responses nor UI requests). Returns unsubscribe. */
	onEvent(listener: (event: RpcEvent) => void): () => void {
		this.eventListeners.add(listener);
		return () => this.eventListeners.delete(listener);
	}

	/** Every raw stdout line, before parsing. */
	onLine(listener: (line: string) => void): () => void {
		this.lineListeners.add(listener);
		return () => this.lineListeners.delete(listener);
	}

	/** Every response, including ones no request waits for (a prompt's late failure, parse errors). */
	onResponse(listener: (response: RpcResponseFor<RpcCommandType>) => void): () => void {
		this.responseListeners.add(listener);
		return () => this.responseListeners.delete(listener);
	}

	/** Handles extension UI requests; a returned answer to a dialog is sent back automatically. */
	onExtensionUiRequest(handler: RpcExtensionUiHandler | undefined): void {
		this.uiHandler = handler;
	}

	respondToExtensionUi(id: string, answer: RpcExtensionUiAnswer): void {
		this.writeLine(serializeJsonLine({ type: "extension_ui_response", id, ...answer }));
	}

	/** Resolves with the first event that satisfies `predicate`. */
	waitForEvent<E extends RpcEvent = RpcEvent>(predicate: (event: RpcEvent) => boolean): Promise<E> {
		return new Promise((resolve) => {
			const unsubscribe = this.onEvent((event) => {
				if (!predicate(event)) return;
				unsubscribe();
				resolve(event as E);
			});
		});
	}

	// -----------------------------------------------------------------------------------------------------
	// Sending
	// -----------------------------------------------------------------------------------------------------

	/** Sends a command and resolves with its response (success or error). An id is assigned when missing. */
	send<T extends RpcCommand>(command: T): Promise<RpcResponseFor<T["type"]>> {
		const id = command.id ?? `req-${this.nextId++}`;
		const line = serializeJsonLine({ id, ...command });
		return new Promise((resolve) => {
			this.pending.set(id, { resolve: resolve as PendingRequest["resolve"] });
			if (command.type === "prompt") this.expectingRun = true;
			this.writeLine(line);
		});
	}

	/** Writes a line as is (a newline is added when missing) — for clients that build their own records. */
	sendRaw(line: string): void {
		this.writeLine(line.endsWith("\n") ? line : `${line}\n`);
	}

	/** Sends a command and returns its `data`; throws RpcCommandError on `success: false`. */
	async call<T extends RpcCommand>(command: T): Promise<RpcResponseDataMap[T["type"]]> {
		const response = await this.send(command);
		if (!response.success) throw new RpcCommandError(command.type, response);
		return (response as { data?: RpcResponseDataMap[T["type"]] }).data as RpcResponseDataMap[T["type"]];
	}

	// -----------------------------------------------------------------------------------------------------
	// Commands (docs/rpc.md "Commands")
	// -----------------------------------------------------------------------------------------------------

	prompt(message: string, options: { images?: ImageContent[]; streamingBehavior?: RpcStreamingBehavior } = {}) {
		return this.call({ type: "prompt", message, ...options });
	}
	steer(message: string, images?: ImageContent[]) {
		return this.call({ type: "steer", message, ...(images ? { images } : {}) });
	}
	followUp(message: string, images?: ImageContent[]) {
		return this.call({ type: "follow_up", message, ...(images ? { images } : {}) });
	}
	abort() {
		return this.call({ type: "abort" });
	}
	newSession(parentSession?: string): Promise<{ cancelled: boolean }> {
		return this.call({ type: "new_session", ...(parentSession ? { parentSession } : {}) });
	}
	getState(): Promise<RpcSessionState> {
		return this.call({ type: "get_state" });
	}
	setModel(provider: string, modelId: string): Promise<Model> {
		return this.call({ type: "set_model", provider, modelId });
	}
	cycleModel(): Promise<RpcModelCycleResult | null> {
		return this.call({ type: "cycle_model" });
	}
	async getAvailableModels(): Promise<Model[]> {
		return (await this.call({ type: "get_available_models" })).models;
	}
	setThinkingLevel(level: ThinkingLevel) {
		return this.call({ type: "set_thinking_level", level });
	}
	cycleThinkingLevel(): Promise<{ level: ThinkingLevel } | null> {
		return this.call({ type: "cycle_thinking_level" });
	}
	setSteeringMode(mode: RpcQueueMode) {
		return this.call({ type: "set_steering_mode", mode });
	}
	setFollowUpMode(mode: RpcQueueMode) {
		return this.call({ type: "set_follow_up_mode", mode });
	}
	compact(customInstructions?: string): Promise<RpcCompactionResult> {
		return this.call({ type: "compact", ...(customInstructions ? { customInstructions } : {}) });
	}
	setAutoCompaction(enabled: boolean) {
		return this.call({ type: "set_auto_compaction", enabled });
	}
	setAutoRetry(enabled: boolean) {
		return this.call({ type: "set_auto_retry", enabled });
	}
	abortRetry() {
		return this.call({ type: "abort_retry" });
	}
	bash(command: string): Promise<RpcBashResult> {
		return this.call({ type: "bash", command });
	}
	abortBash() {
		return this.call({ type: "abort_bash" });
	}
	getSessionStats(): Promise<RpcSessionStats> {
		return this.call({ type: "get_session_stats" });
	}
	async exportHtml(outputPath?: string): Promise<string> {
		return (await this.call({ type: "export_html", ...(outputPath ? { outputPath } : {}) })).path;
	}
	switchSession(sessionPath: string): Promise<{ cancelled: boolean }> {
		return this.call({ type: "switch_session", sessionPath });
	}
	/** `restoreFiles` (ours): also restore the files as they were before that message; `force` past conflicts. */
	fork(
		entryId: string,
		options: { restoreFiles?: boolean; force?: boolean } = {},
	): Promise<{ text: string; cancelled: boolean; files?: RpcFileRestoreResult }> {
		return this.call({ type: "fork", entryId, ...options });
	}
	/** Ours: what `/tree` does — move to another point of the session tree, optionally restoring files. */
	navigateTree(
		targetId: string,
		options: { summarize?: boolean; customInstructions?: string; restoreFiles?: boolean; force?: boolean } = {},
	): Promise<RpcNavigateTreeResult> {
		return this.call({ type: "navigate_tree", targetId, ...options });
	}
	/** Ours: the file checkpoints of the current branch. */
	async getCheckpoints(): Promise<RpcCheckpoint[]> {
		return (await this.call({ type: "get_checkpoints" })).checkpoints;
	}
	/** Ours: restore the files as they were at `entryId` (conflicts without `force`: nothing is written). */
	restoreCheckpoint(
		entryId: string,
		options: { dryRun?: boolean; force?: boolean } = {},
	): Promise<RpcFileRestoreResult> {
		return this.call({ type: "restore_checkpoint", entryId, ...options });
	}
	async getForkMessages(): Promise<RpcForkMessage[]> {
		return (await this.call({ type: "get_fork_messages" })).messages;
	}
	/** null when the session has no assistant text (also from a server that sends `{}`, as v0.58.3 did). */
	async getLastAssistantText(): Promise<string | null> {
		return (await this.call({ type: "get_last_assistant_text" })).text ?? null;
	}
	/** The newest reference's: the thinking levels of the current model (`["off"]` without reasoning). */
	async getAvailableThinkingLevels(): Promise<ThinkingLevel[]> {
		return (await this.call({ type: "get_available_thinking_levels" })).levels;
	}
	/** The newest reference's: empties the steering and follow-up queues and returns their texts. */
	clearQueue(): Promise<{ steering: string[]; followUp: string[] }> {
		return this.call({ type: "clear_queue" });
	}
	/** The newest reference's: session entries in append order, only those after `since` when given. */
	getEntries(since?: string): Promise<{ entries: SessionEntry[]; leafId: string | null }> {
		return this.call({ type: "get_entries", ...(since !== undefined ? { since } : {}) });
	}
	/** The newest reference's: the session as a tree of entries. */
	getTree(): Promise<{ tree: SessionTreeNode[]; leafId: string | null }> {
		return this.call({ type: "get_tree" });
	}
	/** The newest reference's: continues in a new session holding the active branch up to here. */
	clone(): Promise<{ cancelled: boolean }> {
		return this.call({ type: "clone" });
	}
	setSessionName(name: string) {
		return this.call({ type: "set_session_name", name });
	}
	async getMessages(): Promise<AgentMessage[]> {
		return (await this.call({ type: "get_messages" })).messages;
	}
	async getCommands(): Promise<RpcSlashCommand[]> {
		return (await this.call({ type: "get_commands" })).commands;
	}

	/** Ours: the MCP servers' states, tools, prompts and last errors. */
	async getMcpServers(): Promise<RpcMcpServer[]> {
		return (await this.call({ type: "get_mcp_servers" })).servers;
	}

	/** Ours: stops and starts an MCP server again (its failure count reset). */
	async restartMcpServer(name: string): Promise<void> {
		await this.call({ type: "restart_mcp_server", name });
	}

	/** Ours: the permission mode (docs/permissions.md). */
	getPermissionMode(): Promise<RpcPermissionModeState> {
		return this.call({ type: "get_permission_mode" });
	}

	/** Ours: switches the permission mode for this session (not saved). */
	setPermissionMode(mode: RpcPermissionMode): Promise<RpcPermissionModeState> {
		return this.call({ type: "set_permission_mode", mode });
	}

	/** Sign-in providers and whether each is logged in (docs/login.md). */
	async getOAuthProviders(): Promise<RpcOAuthProvider[]> {
		return (await this.call({ type: "get_oauth_providers" })).providers;
	}

	/** Runs a provider's sign-in; the agent shows the page and asks for values through extension-UI requests. */
	async login(provider: string): Promise<void> {
		await this.call({ type: "login", provider });
	}

	async logout(provider: string): Promise<void> {
		await this.call({ type: "logout", provider });
	}

	// -----------------------------------------------------------------------------------------------------
	// Waiting
	// -----------------------------------------------------------------------------------------------------

	/**
	 * Resolves once the session is idle: no run in progress or announced (a sent prompt), no automatic retry or
	 * compaction pending, and `get_state` confirms neither streaming nor compacting. Driven by events; the
	 * optional timeout only turns a hang into an error. A prompt that an extension command or `input` handler
	 * consumes starts no run, so nothing ends it: wait for that command's own signal (e.g. its UI requests).
	 */
	async waitForIdle(timeoutMs?: number): Promise<void> {
		const work = this.waitUntilIdle();
		if (timeoutMs === undefined) return work;
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(`agent not idle after ${timeoutMs} ms`)), timeoutMs);
		});
		try {
			await Promise.race([work, timeout]);
		} finally {
			clearTimeout(timer);
		}
	}

	/**
	 * Sends a prompt and collects every event until the session is idle. Throws RpcCommandError when the
	 * prompt fails (also when the failure arrives after the success response, as docs/rpc.md "prompt" allows).
	 */
	async promptAndWait(
		message: string,
		options: { images?: ImageContent[]; timeoutMs?: number } = {},
	): Promise<RpcEvent[]> {
		const events: RpcEvent[] = [];
		const unsubscribe = this.onEvent((event) => events.push(event));
		const id = `req-${this.nextId++}`;
		let rejectFailure: ((error: Error) => void) | undefined;
		const failure = new Promise<never>((_, reject) => {
			rejectFailure = reject;
		});
		const stopWatching = this.onResponse((response) => {
			if (response.id === id && !response.success) rejectFailure?.(new RpcCommandError("prompt", response));
		});
		try {
			const response = await this.send({
				type: "prompt",
				id,
				message,
				...(options.images ? { images: options.images } : {}),
			});
			if (!response.success) throw new RpcCommandError("prompt", response);
			await Promise.race([this.waitForIdle(options.timeoutMs), failure]);
			return events;
		} finally {
			failure.catch(() => {});
			stopWatching();
			unsubscribe();
		}
	}

	private async waitUntilIdle(): Promise<void> {
		for (;;) {
			if (!this.isBusyByEvents()) {
				const state = await this.getState();
				if (!state.isStreaming && !state.isCompacting && !this.isBusyByEvents()) return;
			}
			await this.waitForEvent(
				(event) =>
					event.type === "agent_end" ||
					event.type === "auto_retry_end" ||
					event.type === "auto_compaction_end" ||
					event.type === "agent_start",
			);
		}
	}

	private isBusyByEvents(): boolean {
		return this.runActive || this.expectingRun || this.retryPending || this.compactionPending;
	}

	// -----------------------------------------------------------------------------------------------------
	// Reading
	// -----------------------------------------------------------------------------------------------------

	private writeLine(line: string): void {
		const child = this.child;
		if (!child) throw new Error("RpcClient not started");
		child.stdin.write(line);
	}

	private handleLine(line: string): void {
		for (const listener of this.lineListeners) listener(line);
		let record: unknown;
		try {
			record = JSON.parse(line);
		} catch {
			this.invalidLines.push(line);
			return;
		}
		if (!isRecord(record) || typeof record.type !== "string") {
			this.invalidLines.push(line);
			return;
		}
		if (record.type === "response") {
			this.handleResponse(record as unknown as RpcResponseFor<RpcCommandType>);
			return;
		}
		if (record.type === "extension_ui_request") {
			void this.handleUiRequest(record as unknown as RpcExtensionUiRequest);
			return;
		}
		this.handleEvent(record as unknown as RpcEvent);
	}

	private handleResponse(response: RpcResponseFor<RpcCommandType>): void {
		if (response.command === "prompt" && !response.success) this.expectingRun = false;
		const id = typeof response.id === "string" ? response.id : undefined;
		const pending = id === undefined ? undefined : this.pending.get(id);
		if (pending && id !== undefined) {
			this.pending.delete(id);
			pending.resolve(response);
		}
		for (const listener of this.responseListeners) listener(response);
	}

	private handleEvent(event: RpcEvent): void {
		switch (event.type) {
			case "agent_start":
				this.runActive = true;
				this.expectingRun = false;
				break;
			case "agent_end":
				this.runActive = false;
				this.expectingRun = false;
				break;
			case "auto_retry_start":
				this.retryPending = true;
				break;
			case "auto_retry_end":
				this.retryPending = false;
				break;
			case "auto_compaction_start":
				this.compactionPending = true;
				break;
			case "auto_compaction_end":
				this.compactionPending = false;
				// The agent continues by itself after an overflow compaction.
				if (event.willRetry) this.expectingRun = true;
				break;
		}
		for (const listener of [...this.eventListeners]) listener(event);
	}

	private async handleUiRequest(request: RpcExtensionUiRequest): Promise<void> {
		const handler = this.uiHandler;
		if (!handler) return;
		const answer = await handler(request);
		if (answer && DIALOG_METHODS.has(request.method)) {
			this.respondToExtensionUi((request as RpcExtensionUiDialogRequest).id, answer);
		}
	}

	private failPending(reason: string): void {
		const pending = [...this.pending.entries()];
		this.pending.clear();
		for (const [id, request] of pending) {
			request.resolve({ id, type: "response", command: "unknown", success: false, error: reason });
		}
	}
}
