import { Agent, type AgentEvent, type AgentMessage, type AgentOptions, type AgentTool } from "@agent/agent-core";
import {
	type AssistantMessage,
	FauxProvider,
	type FauxRequest,
	type FauxResponse,
	type Message,
	type ToolResultMessage,
	type TSchema,
	Type,
	type UserMessage,
} from "@agent/ai";

/** A promise with its resolve/reject exposed, to control when a tool or a reply finishes. */
export interface Deferred<T> {
	promise: Promise<T>;
	resolve: (value: T) => void;
	reject: (error: unknown) => void;
}

export function deferred<T = void>(): Deferred<T> {
	let resolve!: (value: T) => void;
	let reject!: (error: unknown) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

export interface Harness {
	faux: FauxProvider;
	agent: Agent;
	events: AgentEvent[];
}

/** An Agent on a fresh (unregistered) faux provider, with every event recorded. */
export function createHarness(options: AgentOptions & { tools?: AgentTool[] } = {}): Harness {
	const faux = new FauxProvider();
	const { tools, ...agentOptions } = options;
	const agent = new Agent({
		streamFn: faux.stream,
		...agentOptions,
		initialState: { model: faux.model(), tools: tools ?? [], ...agentOptions.initialState },
	});
	const events: AgentEvent[] = [];
	agent.subscribe((event) => events.push(event));
	return { faux, agent, events };
}

/**
 * A compact label per event, for asserting sequences: `message_end:assistant`,
 * `tool_execution_start:call_1`, `message_start:toolResult:call_1`. Updates are left out unless asked for.
 */
export function eventLabels(events: AgentEvent[], options: { updates?: boolean } = {}): string[] {
	const labels: string[] = [];
	for (const event of events) {
		if (event.type === "message_update" && !options.updates) continue;
		if (event.type === "tool_execution_update" && !options.updates) continue;
		labels.push(labelOf(event));
	}
	return labels;
}

function labelOf(event: AgentEvent): string {
	switch (event.type) {
		case "message_start":
		case "message_end":
		case "message_update": {
			const message = event.message as Message;
			const suffix = message.role === "toolResult" ? `:${message.toolCallId}` : "";
			return `${event.type}:${message.role}${suffix}`;
		}
		case "tool_execution_start":
		case "tool_execution_update":
		case "tool_execution_end":
			return `${event.type}:${event.toolCallId}`;
		default:
			return event.type;
	}
}

export function userMessage(text: string): UserMessage {
	return { role: "user", content: [{ type: "text", text }], timestamp: Date.now() };
}

/** Concatenated text of a message's text blocks (string content as is). */
export function textOf(message: AgentMessage | Message | undefined): string {
	if (!message) return "";
	const content = (message as { content?: unknown }).content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((block): block is { type: "text"; text: string } => block.type === "text")
		.map((block) => block.text)
		.join("");
}

/** A scripted reply calling tool `name` once per id, in order. */
export function toolCallsReply(
	name: string,
	ids: string[],
	argumentsFor: (id: string) => Record<string, unknown> = () => ({}),
): FauxResponse {
	return { content: ids.map((id) => ({ type: "toolCall", id, name, arguments: argumentsFor(id) })) };
}

export function rolesOf(messages: readonly unknown[]): string[] {
	return (messages as Message[]).map((message) => message.role);
}

export function toolResultsOf(messages: readonly unknown[]): ToolResultMessage[] {
	return (messages as Message[]).filter((message): message is ToolResultMessage => message.role === "toolResult");
}

/** Role sequence of what the provider received for one request. */
export function requestRoles(request: FauxRequest): string[] {
	return request.context.messages.map((message) => message.role);
}

export function lastAssistant(messages: AgentMessage[]): AssistantMessage | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as Message;
		if (message.role === "assistant") return message;
	}
	return undefined;
}

/** Every tool call of every assistant message has exactly one result, and every result answers a call. */
export function expectWellPairedToolCalls(messages: readonly Message[]): { calls: number; results: number } {
	const open = new Set<string>();
	let calls = 0;
	let results = 0;
	for (const message of messages) {
		if (message.role === "assistant") {
			if (open.size > 0) throw new Error(`Tool calls without results: ${[...open].join(", ")}`);
			for (const block of message.content) {
				if (block.type !== "toolCall") continue;
				open.add(block.id);
				calls++;
			}
		} else if (message.role === "toolResult") {
			if (!open.delete(message.toolCallId)) throw new Error(`Orphaned tool result: ${message.toolCallId}`);
			results++;
		} else if (open.size > 0) {
			throw new Error(`User message before results of: ${[...open].join(", ")}`);
		}
	}
	return { calls, results };
}

export interface ToolOptions<TParams extends TSchema> {
	name: string;
	parameters?: TParams;
	execute: AgentTool<TParams>["execute"];
}

export function createTool<TParams extends TSchema>(options: ToolOptions<TParams>): AgentTool<TParams> {
	return {
		name: options.name,
		label: options.name,
		description: `The ${options.name} tool`,
		parameters: options.parameters ?? (Type.Object({}) as unknown as TParams),
		execute: options.execute,
	};
}

/** A tool that answers `<name>: <JSON args>` at once. */
export function createEchoTool(name = "echo"): AgentTool {
	return createTool({
		name,
		execute: async (_id, params) => ({
			content: [{ type: "text", text: `${name}: ${JSON.stringify(params)}` }],
			details: {},
		}),
	});
}

/**
 * A tool whose every call waits until the test releases it. `whenStarted(n)` resolves once n calls have
 * begun; `release(id, text)` finishes a call, `fail(id, error)` makes it throw; `signals` holds each call's
 * abort signal. An aborted call rejects with `<name> aborted`, as a well-behaved tool does.
 */
export function createGatedTool(name = "gated") {
	const gates = new Map<string, Deferred<string>>();
	const signals = new Map<string, AbortSignal | undefined>();
	const startedIds: string[] = [];
	const startWaiters: { count: number; resolve: () => void }[] = [];
	const gateFor = (id: string) => {
		let gate = gates.get(id);
		if (!gate) {
			gate = deferred<string>();
			gates.set(id, gate);
		}
		return gate;
	};
	const tool = createTool({
		name,
		parameters: Type.Object({ label: Type.Optional(Type.String()) }),
		execute: async (id, _params, signal) => {
			signals.set(id, signal);
			startedIds.push(id);
			for (const waiter of startWaiters) if (startedIds.length >= waiter.count) waiter.resolve();
			const gate = gateFor(id);
			const onAbort = () => gate.reject(new Error(`${name} aborted`));
			if (signal?.aborted) onAbort();
			signal?.addEventListener("abort", onAbort, { once: true });
			try {
				const text = await gate.promise;
				return { content: [{ type: "text", text }], details: { id } };
			} finally {
				signal?.removeEventListener("abort", onAbort);
			}
		},
	});
	return {
		tool,
		signals,
		startedIds,
		whenStarted: (count = startedIds.length + 1) =>
			new Promise<void>((resolve) => {
				if (startedIds.length >= count) resolve();
				else startWaiters.push({ count, resolve });
			}),
		release: (id: string, text = `${name} done ${id}`) => gateFor(id).resolve(text),
		fail: (id: string, error: unknown) => gateFor(id).reject(error),
	};
}

/** Resolves on the first event matching the predicate. */
export function waitForEvent(agent: Agent, predicate: (event: AgentEvent) => boolean): Promise<AgentEvent> {
	return new Promise((resolve) => {
		const unsubscribe = agent.subscribe((event) => {
			if (!predicate(event)) return;
			unsubscribe();
			resolve(event);
		});
	});
}
