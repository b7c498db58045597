// What building a request body costs as a session grows: a 1,000-turn `bash`-style history (an assistant
// tool call and its result per turn), one request per turn, built and serialized the way each adapter does
// without an onPayload hook (each message converted once, the body assembled from the previous request's JSON),
// and the same requests converted and serialized afresh (what an onPayload hook, or an adapter without reuse,
// costs). Reported: the median time per request over turns 10–109 and over the last 100. What still grows is a
// pass over the history per request (identity checks, one WeakMap lookup per message, one copy of the body's
// bytes): a fraction of a millisecond at 2,000 messages, against the tens of milliseconds of converting afresh.
import { expect, it } from "vitest";
import { median, reportBenchmark } from "../../../scripts/bench-report.js";
import { buildRequestParams } from "../src/providers/anthropic/build-request.js";
import { resolveAuth } from "../src/providers/anthropic/headers.js";
import { buildCompletionsPayload } from "../src/providers/openai-completions/build-payload.js";
import { detectCompletionsCompat } from "../src/providers/openai-completions/compat.js";
import { buildResponsesPayload } from "../src/providers/openai-responses/build-payload.js";
import { serializePayload } from "../src/providers/serialized-payload.js";
import type { Context, Message, Model } from "../src/types.js";
import { assistant, toolCall, toolResult, user } from "../test/helpers/messages.js";
import { claudeSonnet4, openaiTestModel } from "../test/helpers/provider-test-harness.js";

const TURNS = 1000;
const SYSTEM_PROMPT = "You are a coding agent. ".repeat(400);
const encoder = new TextEncoder();

type BuildBody = (context: Context, reuse: boolean) => Uint8Array;

function anthropicBody(model: Model<"anthropic-messages">): BuildBody {
	const auth = resolveAuth(model, "sk-ant-api03-bench");
	return (context, reuse) => {
		const params = buildRequestParams(model, context, {}, auth, undefined, { reuseConversions: reuse });
		return reuse ? serializePayload(params, "messages") : encoder.encode(JSON.stringify(params));
	};
}

function completionsBody(model: Model<"openai-completions">): BuildBody {
	const compat = detectCompletionsCompat(model);
	return (context, reuse) => {
		const payload = buildCompletionsPayload(model, context, {}, compat, { reuseConversions: reuse });
		return reuse ? serializePayload(payload, "messages") : encoder.encode(JSON.stringify(payload));
	};
}

function responsesBody(model: Model<"openai-responses">): BuildBody {
	return (context, reuse) => {
		const payload = buildResponsesPayload(model, context, {}, { reuseConversions: reuse });
		return reuse ? serializePayload(payload, "input") : encoder.encode(JSON.stringify(payload));
	};
}

/** Median ms per request over turns 10–109 and the last 100 of a growing history. */
function measure(model: Model, build: BuildBody, reuse: boolean): { early: number; late: number; bytes: number } {
	const messages: Message[] = [user("fix the build")];
	const early: number[] = [];
	const late: number[] = [];
	let bytes = 0;
	for (let turn = 0; turn < TURNS; turn++) {
		messages.push(
			assistant(model, [toolCall(`call_${turn}`, "bash", { arguments: { command: `make step${turn}` } })]),
		);
		messages.push(toolResult(`call_${turn}`, `step ${turn} ok\n${"compiler output line\n".repeat(8)}`, "bash"));
		const context: Context = { systemPrompt: SYSTEM_PROMPT, messages: [...messages] };
		const started = performance.now();
		bytes = build(context, reuse).byteLength;
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
		const reused = measure(model, build, true);
		const fresh = measure(model, build, false);
		expect(reused.bytes).toBe(fresh.bytes);
		return [
			{ name: `${name}: per request, turns 10–109`, value: reused.early, unit: "ms" },
			{
				name: `${name}: per request, last 100 turns`,
				value: reused.late,
				unit: "ms",
				note: `${Math.round(reused.bytes / 1000)} kB body`,
			},
			{ name: `${name}: per request, last 100 turns, converted afresh`, value: fresh.late, unit: "ms" },
		];
	});
	reportBenchmark("long-history-requests", figures);
});
