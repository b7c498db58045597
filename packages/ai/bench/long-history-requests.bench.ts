// What building a request body costs as a session grows: a 1,000-turn `bash`-style history (an assistant
// tool call and its result per turn), one request per turn, built and serialized the way each adapter does
// without an onPayload hook (the handoff and the conversion resume where the previous request's stopped, the body
// is assembled from the previous request's JSON), and the same requests converted and serialized afresh (what an
// onPayload hook, or an adapter without reuse, costs). A second history has its first 500 turns written by
// another model (a session that switched models), whose turns are adapted for the target. Reported: the median
// time per request over turns 10–109 and over the last 100, and the payload alone (handoff and conversion, no
// serializing) over the last 100. What still grows is one identity check per message
// (does the history still start with what the previous request saw?) and one copy of the body's bytes.
import { expect, it } from "vitest";
import { median, reportBenchmark } from "../../../scripts/bench-report.js";
import { buildRequestParams } from "../src/providers/anthropic/build-request.js";
import { resolveAuth } from "../src/providers/anthropic/headers.js";
import { buildCompletionsPayload } from "../src/providers/openai-completions/build-payload.js";
import { detectCompletionsCompat } from "../src/providers/openai-completions/compat.js";
import { buildResponsesPayload } from "../src/providers/openai-responses/build-payload.js";
import type { Context, Message, Model } from "../src/types.js";
import { assistant, toolCall, toolResult, user } from "../test/helpers/messages.js";
import { claudeSonnet4, openaiTestModel } from "../test/helpers/provider-test-harness.js";
import { serializePayload } from "../test/helpers/serialized-payload.js";

const TURNS = 1000;
const SYSTEM_PROMPT = "You are a coding agent. ".repeat(400);
const encoder = new TextEncoder();

/**
 * How a request is built: "reuse" as the adapter does without a hook, "fresh" converted and serialized afresh,
 * "payload" as with reuse but not serialized (the handoff and the conversion alone; no bytes).
 */
type BuildMode = "reuse" | "fresh" | "payload";
type BuildBody = (context: Context, mode: BuildMode) => Uint8Array;
const NO_BYTES = new Uint8Array(0);

function anthropicBody(model: Model<"anthropic-messages">): BuildBody {
	const auth = resolveAuth(model, "sk-ant-api03-bench");
	return (context, mode) => {
		const params = buildRequestParams(model, context, {}, auth, undefined, { reuseConversions: mode !== "fresh" });
		if (mode === "payload") return NO_BYTES;
		return mode === "reuse" ? serializePayload(params, "messages") : encoder.encode(JSON.stringify(params));
	};
}

function completionsBody(model: Model<"openai-completions">): BuildBody {
	const compat = detectCompletionsCompat(model);
	return (context, mode) => {
		const payload = buildCompletionsPayload(model, context, {}, compat, { reuseConversions: mode !== "fresh" });
		if (mode === "payload") return NO_BYTES;
		return mode === "reuse" ? serializePayload(payload, "messages") : encoder.encode(JSON.stringify(payload));
	};
}

function responsesBody(model: Model<"openai-responses">): BuildBody {
	return (context, mode) => {
		const payload = buildResponsesPayload(model, context, {}, { reuseConversions: mode !== "fresh" });
		if (mode === "payload") return NO_BYTES;
		return mode === "reuse" ? serializePayload(payload, "input") : encoder.encode(JSON.stringify(payload));
	};
}

/** The model that wrote the first turns of the handoff history: another API's. */
function otherModelThan(model: Model): Pick<Model, "provider" | "api" | "id"> {
	return model.api === "anthropic-messages"
		? { provider: "openai", api: "openai-responses", id: "gpt-5.4" }
		: { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" };
}

/**
 * Median ms per request over turns 10–109 and the last 100 of a growing history; `handoffTurns` of its first
 * turns written by another model (with reasoning, and tool-call ids of the other API's shape).
 */
function measure(
	model: Model,
	build: BuildBody,
	mode: BuildMode,
	handoffTurns = 0,
): { early: number; late: number; bytes: number } {
	const messages: Message[] = [user("fix the build")];
	const early: number[] = [];
	const late: number[] = [];
	let bytes = 0;
	for (let turn = 0; turn < TURNS; turn++) {
		const id = turn < handoffTurns ? `call_${turn}|fc_${turn}` : `call_${turn}`;
		const call = toolCall(id, "bash", { arguments: { command: `make step${turn}` } });
		if (turn < handoffTurns) {
			const thinking = { type: "thinking" as const, thinking: `step ${turn} next`, thinkingSignature: "sig" };
			messages.push(assistant(otherModelThan(model), [thinking, call]));
		} else {
			messages.push(assistant(model, [call]));
		}
		messages.push(toolResult(id, `step ${turn} ok\n${"compiler output line\n".repeat(8)}`, "bash"));
		const context: Context = { systemPrompt: SYSTEM_PROMPT, messages: [...messages] };
		const started = performance.now();
		bytes = build(context, mode).byteLength;
		const elapsed = performance.now() - started;
		if (turn >= 10 && turn < 110) early.push(elapsed);
		if (turn >= TURNS - 100) late.push(elapsed);
	}
	return { early: median(early), late: median(late), bytes };
}

it("builds each request of a 1,000-turn history from the previous request's conversions and JSON", () => {
	const adapters: [string, Model, BuildBody][] = [
		["anthropic-messages", claudeSonnet4("http://127.0.0.1:1"), anthropicBody(claudeSonnet4("http://127.0.0.1:1"))],
		[
			"openai-completions",
			openaiTestModel("openai-completions", "http://127.0.0.1:1/v1"),
			completionsBody(openaiTestModel("openai-completions", "http://127.0.0.1:1/v1")),
		],
		[
			"openai-responses",
			openaiTestModel("openai-responses", "http://127.0.0.1:1/v1"),
			responsesBody(openaiTestModel("openai-responses", "http://127.0.0.1:1/v1")),
		],
	];
	const figures = adapters.flatMap(([name, model, build]) => {
		const reused = measure(model, build, "reuse");
		const fresh = measure(model, build, "fresh");
		expect(reused.bytes).toBe(fresh.bytes);
		const handoff = measure(model, build, "reuse", TURNS / 2);
		const payloadOnly = measure(model, build, "payload");
		return [
			{ name: `${name}: per request, turns 10–109`, value: reused.early, unit: "ms" },
			{
				name: `${name}: per request, last 100 turns`,
				value: reused.late,
				unit: "ms",
				note: `${Math.round(reused.bytes / 1000)} kB body`,
			},
			{ name: `${name}: per request, last 100 turns, converted afresh`, value: fresh.late, unit: "ms" },
			{ name: `${name}: payload only (handoff, conversion), last 100 turns`, value: payloadOnly.late, unit: "ms" },
			{
				name: `${name}: per request, last 100 turns, first 500 by another model`,
				value: handoff.late,
				unit: "ms",
			},
		];
	});
	reportBenchmark("long-history-requests", figures);
});
