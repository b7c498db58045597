// Replays histories produced by each provider to every other target model and checks the invariants
// every provider relies on: no foreign reasoning or signatures, tool calls and results
// paired exactly, normalized ids applied to calls and results alike.

import { describe, expect, it } from "vitest";
import fc from "../../../scripts/fast-check.js";
import { getModel, type Model, transformMessages } from "../src/index.js";
import type { AssistantMessage, Message, StopReason, ToolCall, ToolResultMessage } from "../src/types.js";
import { assistant, testModel, toolResult, user } from "./helpers/messages.js";

// --- Id normalizers the target APIs apply -------------------------

type Normalizer = (id: string, target: Model, source: AssistantMessage) => string;

const sanitize = (text: string) => text.replace(/[^a-zA-Z0-9_-]/g, "_");

const anthropicIds: Normalizer = (id) => sanitize(id).slice(0, 64);

const completionsIds: Normalizer = (id, target) => {
	if (id.includes("|")) return sanitize(id.slice(0, id.indexOf("|"))).slice(0, 40);
	return target.provider === "openai" && id.length > 40 ? id.slice(0, 40) : id;
};

const responsesIds: Normalizer = (id, target) => {
	if (!["openai", "openai-codex", "opencode"].includes(target.provider) || !id.includes("|")) return id;
	const [callId = "", itemId = ""] = id.split("|");
	const cut = (part: string) => part.slice(0, 64).replace(/_+$/, "");
	const item = sanitize(itemId);
	return `${cut(sanitize(callId))}|${cut(item.startsWith("fc") ? item : `fc_${item}`)}`;
};

const googleIds: Normalizer = (id, target) =>
	target.id.startsWith("claude-") || target.id.startsWith("gpt-oss-") ? sanitize(id).slice(0, 64) : id;

const NORMALIZERS: Record<string, Normalizer> = {
	"anthropic-messages": anthropicIds,
	"openai-completions": completionsIds,
	"openai-responses": responsesIds,
	"google-generative-ai": googleIds,
};

/** What each target API accepts as a tool-call id on the wire. */
const ACCEPTS_ID: Record<string, (id: string, target: Model) => boolean> = {
	"anthropic-messages": (id) => /^[a-zA-Z0-9_-]{1,64}$/.test(id),
	"openai-completions": (id, target) => !id.includes("|") && (target.provider !== "openai" || id.length <= 40),
	"openai-responses": (id) => !id.includes("|") || /^[a-zA-Z0-9_-]{1,64}\|fc[a-zA-Z0-9_-]{0,62}$/.test(id),
	"google-generative-ai": () => true,
};

// --- Models ---------------------------------------------------------------------------------------

function catalogModel(provider: string, id: string): Model {
	const model = getModel(provider, id);
	if (!model) throw new Error(`catalog lacks ${provider}/${id}`);
	return model;
}

const claude = catalogModel("anthropic", "claude-sonnet-4-5");
const gpt = catalogModel("openai", "gpt-5.4");
const gptOss = catalogModel("groq", "openai/gpt-oss-120b");
const gemini = catalogModel("google", "gemini-2.5-pro");

const TARGETS: Model[] = [
	claude,
	catalogModel("anthropic", "claude-opus-4-6"),
	gpt,
	catalogModel("openai", "gpt-5.1-codex"),
	gptOss,
	catalogModel("openrouter", "anthropic/claude-sonnet-4.5"),
	// A Chat Completions model on provider "openai" (e.g. a custom models.json entry) cuts ids to 40.
	testModel("openai", "openai-completions", "gpt-4o"),
	gemini,
	catalogModel("opencode", "gpt-5.4"),
];

// --- Realistic assistant turns per source ---------------------------------------------------------

interface Source {
	name: string;
	model: Model;
	/** One assistant turn with `calls` tool calls; `n` makes ids unique within a history. */
	turn(n: number, calls: number): AssistantMessage["content"];
}

const longTail = "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0";

const SOURCES: Source[] = [
	{
		name: "anthropic",
		model: claude,
		turn: (n, calls) => [
			{
				type: "thinking",
				thinking: "Let me look at the file first.",
				thinkingSignature: `EqQBCkgIARABGAIiQL${n}Zx==`,
			},
			{
				type: "thinking",
				thinking: "[Reasoning redacted]",
				thinkingSignature: `EmwKAhgBEgy3va${n}`,
				redacted: true,
			},
			{ type: "text", text: "I'll read it." },
			...Array.from({ length: calls }, (_, i) => call(`toolu_01A09q90qw90lq917835lq${n}x${i}`)),
		],
	},
	{
		name: "openai-responses",
		model: gpt,
		turn: (n, calls) => [
			{
				type: "thinking",
				thinking: "**Planning**\n\nRead the file.",
				thinkingSignature: JSON.stringify({
					type: "reasoning",
					id: `rs_68c1f0a4b2d0819${n}`,
					summary: [{ type: "summary_text", text: "**Planning**\n\nRead the file." }],
					encrypted_content: "gAAAAABoz...",
				}),
			},
			// Encrypted-only reasoning: no summary text, but the item must be replayed to the same model.
			{
				type: "thinking",
				thinking: "",
				thinkingSignature: JSON.stringify({ type: "reasoning", id: `rs_${n}b`, summary: [] }),
			},
			{
				type: "text",
				text: "Reading.",
				textSignature: JSON.stringify({ v: 1, id: `msg_68c1${n}`, phase: "commentary" }),
			},
			...Array.from({ length: calls }, (_, i) =>
				call(`call_kV3hYlZ8x2QF9mNwA7bC${n}x${i}|fc_68c1f0a4b2d08190${longTail}${n}`),
			),
		],
	},
	{
		name: "openai-completions",
		model: gptOss,
		turn: (n, calls) => [
			{ type: "thinking", thinking: "The user wants the file.", thinkingSignature: "reasoning_content" },
			{ type: "thinking", thinking: "  \n", thinkingSignature: "reasoning" },
			{ type: "text", text: "Sure." },
			// Kimi-style ids ("functions.<name>:<index>") and an OpenRouter encrypted reasoning detail.
			...Array.from({ length: calls }, (_, i) =>
				call(
					`functions.read:${n}${i}`,
					JSON.stringify({ type: "reasoning.encrypted", id: `functions.read:${n}${i}`, data: "Zm9v" }),
				),
			),
		],
	},
	{
		name: "google",
		model: gemini,
		turn: (n, calls) => [
			{ type: "thinking", thinking: "I should read the file.", thinkingSignature: `CiQB0e2Kb${n}A==` },
			{ type: "text", text: "Reading now.", textSignature: `CmkB0e2Kb${n}w==` },
			...Array.from({ length: calls }, (_, i) => call(`read_1736951234567_${n}${i}`, `CrcBAdHtim${n}${i}g==`)),
		],
	},
];

function call(id: string, thoughtSignature?: string): ToolCall {
	return {
		type: "toolCall",
		id,
		name: "read",
		arguments: { path: "src/index.ts" },
		...(thoughtSignature ? { thoughtSignature } : {}),
	};
}

function turnOf(source: Source, n: number, calls: number, stopReason?: StopReason): AssistantMessage {
	return assistant(source.model, source.turn(n, calls), stopReason);
}

function callIds(message: AssistantMessage): string[] {
	return message.content.filter((block): block is ToolCall => block.type === "toolCall").map((block) => block.id);
}

function resultsFor(message: AssistantMessage, only?: number): ToolResultMessage[] {
	return callIds(message)
		.slice(0, only)
		.map((id) => toolResult(id, `contents for ${id}`));
}

// --- Scenarios ------------------------------------------------------------------------------------

const SCENARIOS: Record<string, (source: Source) => Message[]> = {
	"a complete tool round trip": (source) => {
		const first = turnOf(source, 1, 2);
		return [user("read it"), first, ...resultsFor(first), turnOf(source, 2, 0), user("thanks")];
	},
	"an orphaned tool call before the next user message": (source) => {
		const first = turnOf(source, 1, 2);
		return [user("read it"), first, ...resultsFor(first, 1), user("never mind"), turnOf(source, 2, 0)];
	},
	"an aborted turn with tool results in the middle": (source) => {
		const aborted = turnOf(source, 1, 2, "aborted");
		const retry = turnOf(source, 2, 1);
		return [user("read it"), aborted, ...resultsFor(aborted), user("again"), retry, ...resultsFor(retry)];
	},
	"an errored turn in the middle": (source) => {
		const first = turnOf(source, 1, 1);
		return [user("read it"), first, turnOf(source, 2, 1, "error"), ...resultsFor(first), turnOf(source, 3, 0)];
	},
	"tool calls pending at the end": (source) => [user("read it"), turnOf(source, 1, 2)],
	"a mixed history from every provider": (source) => {
		const others = SOURCES.filter((other) => other !== source);
		const turns = [source, ...others].map((from, index) => turnOf(from, index + 1, 1));
		return [user("go"), ...turns.flatMap((turn, index) => [turn, ...resultsFor(turn), user(`step ${index}`)])];
	},
};

// --- Invariants -----------------------------------------------------------------------------------

const isFailed = (message: Message) =>
	message.role === "assistant" && (message.stopReason === "error" || message.stopReason === "aborted");

function isFrom(message: AssistantMessage, target: Model): boolean {
	return message.provider === target.provider && message.api === target.api && message.model === target.id;
}

function assertHandoffInvariants(input: Message[], output: Message[], target: Model): void {
	const normalize = NORMALIZERS[target.api] as Normalizer;
	const acceptsId = ACCEPTS_ID[target.api] as (id: string, target: Model) => boolean;

	// Nothing the target needs is lost: users in order, every replayable assistant turn, in order.
	expect(output.filter((m) => m.role === "user")).toEqual(input.filter((m) => m.role === "user"));
	const keptTurns = input.filter((m): m is AssistantMessage => m.role === "assistant" && !isFailed(m));
	const outTurns = output.filter((m): m is AssistantMessage => m.role === "assistant");
	const identity = (m: AssistantMessage) => [m.provider, m.api, m.model, m.timestamp];
	expect(outTurns.map(identity)).toEqual(keptTurns.map(identity));
	expect(output.some(isFailed)).toBe(false);

	// Expected id of every surviving call, by original id, per turn.
	const expectedIds = new Map<AssistantMessage, Map<string, string>>();
	keptTurns.forEach((turn, index) => {
		const out = outTurns[index] as AssistantMessage;
		const ids = new Map(callIds(turn).map((id) => [id, isFrom(turn, target) ? id : normalize(id, target, turn)]));
		expect(callIds(out)).toEqual([...ids.values()]);
		expectedIds.set(out, ids);
	});

	for (const turn of outTurns) {
		if (isFrom(turn, target)) continue;
		for (const block of turn.content) {
			expect(block.type, "another model's reasoning survives only as plain text").not.toBe("thinking");
			if (block.type === "text") expect(block.textSignature).toBeUndefined();
			if (block.type === "toolCall") expect(block.thoughtSignature).toBeUndefined();
		}
	}
	// Ids the target itself issued are its own business; every other id must be acceptable to it.
	for (const turn of outTurns) {
		if (isFrom(turn, target)) continue;
		for (const id of callIds(turn)) expect(acceptsId(id, target), id).toBe(true);
	}

	// Every real result that answers a call of the latest replayable turn (first answer, before the next
	// user message) reaches the target; only results of removed turns, strays and duplicates are dropped.
	const survivors = new Set<unknown>();
	let pending = new Set<string>();
	for (const message of input) {
		if (message.role === "user") pending = new Set();
		else if (message.role === "assistant") {
			if (!isFailed(message)) pending = new Set(callIds(message));
		} else if (pending.delete(message.toolCallId)) survivors.add(message.content);
	}
	const outputContents = new Set(output.map((m) => m.content));
	for (const content of survivors) expect(outputContents.has(content as Message["content"])).toBe(true);

	// Pairing: each turn's calls are answered exactly once, right after it; results answer nothing else.
	const inputResults = new Map(
		input.filter((m): m is ToolResultMessage => m.role === "toolResult").map((m) => [m.content, m]),
	);
	output.forEach((message, index) => {
		if (message.role !== "assistant") {
			if (message.role === "toolResult") {
				const previous = output[index - 1];
				expect(previous?.role === "assistant" || previous?.role === "toolResult").toBe(true);
			}
			return;
		}
		const results: ToolResultMessage[] = [];
		for (let next = index + 1; output[next]?.role === "toolResult"; next++)
			results.push(output[next] as ToolResultMessage);
		const calls = callIds(message);
		if (index === output.length - 1) return; // Reference quirk: a final turn's calls stay unanswered.
		expect(results.map((r) => r.toolCallId).sort()).toEqual([...calls].sort());
		const renamed = expectedIds.get(message) as Map<string, string>;
		for (const result of results) {
			const original = inputResults.get(result.content);
			if (original) expect(result.toolCallId).toBe(renamed.get(original.toolCallId));
			else expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "No result provided" }] });
		}
	});
}

// --- The matrix -----------------------------------------------------------------------------------

describe.each(SOURCES.map((source) => [source.name, source] as const))("history produced by %s", (_name, source) => {
	describe.each(Object.entries(SCENARIOS))("with %s", (_scenario, build) => {
		it.each(TARGETS.map((target) => [`${target.provider}/${target.id} (${target.api})`, target] as const))(
			"replays to %s with every invariant held",
			(_target, target) => {
				const input = build(source);
				const before = structuredClone(input);
				const output = transformMessages(input, target, NORMALIZERS[target.api]);
				assertHandoffInvariants(input, output, target);
				expect(input).toEqual(before);
			},
		);
	});
});

describe("handoff to the model that produced the history", () => {
	it.each(SOURCES.map((source) => [source.name, source] as const))(
		"keeps every %s block as it was, signed, redacted and encrypted-only reasoning included",
		(_name, source) => {
			const turn = turnOf(source, 1, 1);
			const output = transformMessages(
				[user("q"), turn, ...resultsFor(turn)],
				source.model,
				NORMALIZERS[source.model.api],
			);
			expect((output[1] as AssistantMessage).content).toEqual(turn.content);
		},
	);
});

// --- Property: invariants hold for arbitrary histories ---------------------------------------------

type Step =
	| { kind: "user" }
	| { kind: "turn"; source: number; calls: number; stopReason: StopReason; idTail: string }
	| { kind: "result"; pick: number; stray: boolean };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
	fc.constant<Step>({ kind: "user" }),
	fc.record({
		kind: fc.constant("turn" as const),
		source: fc.nat({ max: SOURCES.length - 1 }),
		calls: fc.nat({ max: 3 }),
		stopReason: fc.constantFrom<StopReason>("stop", "toolUse", "toolUse", "length", "error", "aborted"),
		idTail: fc.string({ maxLength: 80, unit: "binary" }),
	}),
	fc.record({ kind: fc.constant("result" as const), pick: fc.nat(), stray: fc.boolean() }),
);

/** Builds a history; every call id is unique even after any target's normalization (unique `<n>-` head). */
function buildHistory(steps: Step[]): Message[] {
	const messages: Message[] = [];
	const allCalls: string[] = [];
	let lastCalls: string[] = [];
	let n = 0;
	for (const step of steps) {
		if (step.kind === "user") messages.push(user("u"));
		else if (step.kind === "turn") {
			const source = SOURCES[step.source] as Source;
			n++;
			const content: AssistantMessage["content"] = source.turn(n, 0);
			for (let i = 0; i < step.calls; i++) {
				const head = `c${n}x${i}-`;
				content.push(
					call(
						source.name === "openai-responses"
							? `${head}${step.idTail}|fc_${step.idTail}`
							: `${head}${step.idTail}`,
						"sig",
					),
				);
			}
			const message = { ...assistant(source.model, content, step.stopReason), timestamp: n };
			lastCalls = callIds(message);
			allCalls.push(...lastCalls);
			messages.push(message);
		} else {
			const pool = step.stray ? allCalls : lastCalls;
			const id = pool.length > 0 ? (pool[step.pick % pool.length] as string) : "unknown-call";
			messages.push(toolResult(id, `r${messages.length}`));
		}
	}
	return messages;
}

describe("arbitrary histories", () => {
	it("hold every handoff invariant for every target", () => {
		fc.assert(
			fc.property(
				fc.array(stepArbitrary, { maxLength: 25 }),
				fc.nat({ max: TARGETS.length - 1 }),
				(steps, targetIndex) => {
					const target = TARGETS[targetIndex] as Model;
					const input = buildHistory(steps);
					const before = structuredClone(input);
					const output = transformMessages(input, target, NORMALIZERS[target.api]);
					assertHandoffInvariants(input, output, target);
					expect(input).toEqual(before);
				},
			),
			{ numRuns: 300 },
		);
	});
});
