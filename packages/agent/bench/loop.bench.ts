// Per-turn overhead of the agent loop, and whether it leaks per turn.
//
// Method. A zero-latency inline stream function answers every call at once (synchronous pushes, no
// timers, no request copies) with one call to a no-op tool, and with text on the last turn, so the time
// measured is the loop's own: context building (transformContext, convertToLlm, the pairing check), event
// dispatch, tool preflight/validation/execution, and the Agent's state updates.
//
// Memory: heap is read after forced full GCs (`global.gc` when node runs with --expose-gc, otherwise
// exposed at runtime through `v8.setFlagsFromString("--expose-gc")`) at turn 100 and at turn 1000 of the
// same run, from inside the stream function (which may return a promise, so the loop simply waits). A run
// must keep its history (one assistant message and one tool result per turn), so that is measured
// separately: after the run, heap is read before and after `reset()` drops the history. The difference
// between the two is what the run holds beyond its history: the loop's working copies of the message
// array (a pointer per message, released when the run ends) plus the JIT's optimized code for the loop,
// which is produced during the early turns. Readings carry GC/JIT noise of roughly ±100 KB, i.e. about
// ±100 bytes per turn. The leak check proper is the second scenario: 4,000 two-turn prompts with
// `reset()` between them (after 1,000 for warm-up), where the heap must stay flat.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Agent, type AgentTool, defaultConvertToLlm, runAgentLoop, type StreamFn } from "@agent/agent-core";
import { type AssistantMessage, createAssistantMessageEventStream, emptyUsage, type Model, Type } from "@agent/ai";
import { it } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";

const TURNS = 1_000;
const EARLY_TURN = 100;

function exposeGc(): () => void {
	const existing = (globalThis as { gc?: () => void }).gc;
	if (existing) return existing;
	setFlagsFromString("--expose-gc");
	return runInNewContext("gc") as () => void;
}
const gc = exposeGc();

/**
 * Heap in use after several full GCs: V8 drops the bytecode of functions that have not run for a few GCs
 * (warm-up code, test-runner setup), which would otherwise show up as noise of hundreds of KB between two
 * readings.
 */
function heapAfterGc(): number {
	for (let round = 0; round < 8; round++) gc();
	return process.memoryUsage().heapUsed;
}

const model: Model = {
	id: "bench",
	name: "Bench",
	api: "bench",
	provider: "bench",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1_000_000,
	maxTokens: 1_000,
};

const noopTool: AgentTool = {
	name: "noop",
	label: "noop",
	description: "Does nothing",
	parameters: Type.Object({ n: Type.Number() }),
	execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }),
};

/** Answers call k with a tool call while k < turns, then with text. `onCall` may pause the loop. */
function createInstantStream(turns: number, onCall?: (turn: number) => Promise<void> | undefined): StreamFn {
	let turn = 0;
	return (streamModel) => {
		turn++;
		const current = turn;
		const play = () => {
			const stream = createAssistantMessageEventStream();
			const message: AssistantMessage = {
				role: "assistant",
				content: [],
				api: streamModel.api,
				provider: streamModel.provider,
				model: streamModel.id,
				usage: emptyUsage(),
				stopReason: current < turns ? "toolUse" : "stop",
				timestamp: Date.now(),
			};
			stream.push({ type: "start", partial: message });
			if (current < turns) {
				const toolCall = {
					type: "toolCall" as const,
					id: `call_${current}`,
					name: "noop",
					arguments: { n: current },
				};
				message.content.push(toolCall);
				stream.push({ type: "toolcall_start", contentIndex: 0, partial: message });
				stream.push({ type: "toolcall_end", contentIndex: 0, toolCall, partial: message });
				stream.push({ type: "done", reason: "toolUse", message });
			} else {
				message.content.push({ type: "text", text: "done" });
				stream.push({ type: "text_start", contentIndex: 0, partial: message });
				stream.push({ type: "text_end", contentIndex: 0, content: "done", partial: message });
				stream.push({ type: "done", reason: "stop", message });
			}
			return stream;
		};
		const pause = onCall?.(current);
		return pause ? pause.then(play) : play();
	};
}

it("agent loop: per-turn overhead and heap growth over a 1,000-turn run", async () => {
	// Warm-up (JIT, AJV schema compilation) outside the measurements.
	await new Agent({ initialState: { model, tools: [noopTool] }, streamFn: createInstantStream(50) }).prompt("warm");

	// Time: the whole stack (Agent state updates and a listener included), best of three runs since the
	// machine is shared; then the bare loop the same way.
	let agentMs = Number.POSITIVE_INFINITY;
	let events = 0;
	for (let attempt = 0; attempt < 3; attempt++) {
		const timed = new Agent({ initialState: { model, tools: [noopTool] }, streamFn: createInstantStream(TURNS) });
		events = 0;
		timed.subscribe(() => {
			events++;
		});
		const started = performance.now();
		await timed.prompt("go");
		agentMs = Math.min(agentMs, performance.now() - started);
	}
	let loopMs = Number.POSITIVE_INFINITY;
	for (let attempt = 0; attempt < 3; attempt++) {
		const started = performance.now();
		await runAgentLoop(
			[{ role: "user", content: "go", timestamp: Date.now() }],
			{ systemPrompt: "", messages: [], tools: [noopTool] },
			{ model, convertToLlm: defaultConvertToLlm },
			() => {},
			undefined,
			createInstantStream(TURNS),
		);
		loopMs = Math.min(loopMs, performance.now() - started);
	}

	// Memory, in a fresh run, after GCs that drop the bytecode the warm-up no longer needs.
	heapAfterGc();
	let heapAtEarlyTurn = 0;
	let heapAtLastTurn = 0;
	const measured = new Agent({
		initialState: { model, tools: [noopTool] },
		streamFn: createInstantStream(TURNS, (turn) => {
			if (turn !== EARLY_TURN && turn !== TURNS) return undefined;
			return new Promise<void>((resolve) => {
				setImmediate(() => {
					if (turn === EARLY_TURN) heapAtEarlyTurn = heapAfterGc();
					else heapAtLastTurn = heapAfterGc();
					resolve();
				});
			});
		}),
	});
	await measured.prompt("go");
	const growthPerTurn = (heapAtLastTurn - heapAtEarlyTurn) / (TURNS - EARLY_TURN);
	// The size of the history itself: what reset() gives back.
	const messageCount = measured.state.messages.length;
	const withHistory = heapAfterGc();
	measured.reset();
	const withoutHistory = heapAfterGc();
	const historyPerTurn = (withHistory - withoutHistory) / TURNS;

	// Flat heap across many short (two-turn) runs.
	const repeated = new Agent({ initialState: { model, tools: [noopTool] } });
	const runOnce = async () => {
		repeated.streamFn = createInstantStream(2);
		await repeated.prompt("go");
		repeated.reset();
	};
	// Warm-up first: the JIT's own allocations settle within the first few hundred runs.
	for (let i = 0; i < TURNS; i++) await runOnce();
	const REPEATED_RUNS = 4 * TURNS;
	const heapBeforeRuns = heapAfterGc();
	for (let i = 0; i < REPEATED_RUNS; i++) await runOnce();
	const heapAfterRuns = heapAfterGc();

	reportBenchmark("agent-loop", [
		{
			name: "turns per second (Agent, 1,000-turn run)",
			value: Math.round(TURNS / (agentMs / 1000)),
			unit: "turns/s",
			target: { min: 2_000 },
			note: `${events} events delivered`,
		},
		{ name: "overhead per turn (Agent)", value: (agentMs * 1000) / TURNS, unit: "µs", target: { max: 500 } },
		{ name: "overhead per turn (bare runAgentLoop)", value: (loopMs * 1000) / TURNS, unit: "µs" },
		{
			name: "heap growth per turn, turn 100 → 1000",
			value: Math.round(growthPerTurn),
			unit: "bytes",
			note: "includes the history the run keeps",
		},
		{
			name: "history retained per turn",
			value: Math.round(historyPerTurn),
			unit: "bytes",
			note: `${messageCount} messages dropped by reset()`,
		},
		{
			name: "heap growth per turn beyond the history",
			value: Math.round(growthPerTurn - historyPerTurn),
			unit: "bytes",
			note: "run-scoped arrays and JIT code; within noise of the history",
		},
		{
			name: "heap growth per two-turn run with reset()",
			value: Math.round((heapAfterRuns - heapBeforeRuns) / REPEATED_RUNS),
			unit: "bytes",
			target: { max: 256 },
		},
	]);
});
