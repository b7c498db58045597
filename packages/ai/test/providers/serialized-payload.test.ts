// A request body is framed in the buffer that keeps its conversation's JSON and lent to the request: these tests
// fail if a body changes while lent (another request of the same conversation built meanwhile), if the bytes
// differ from JSON.stringify, or if the buffer is not reused once given back.

import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import { stream } from "../../src/index.js";
import { runProviderStream } from "../../src/providers/run-stream.js";
import { type LentBody, lendPayload } from "../../src/providers/serialized-payload.js";
import { user } from "../helpers/messages.js";
import { finish, textChunks } from "../helpers/openai-completions-sse.js";
import { openaiTestModel, useFakeServer } from "../helpers/provider-test-harness.js";
import { collect } from "../helpers/stream-events.js";

type Payload = { model: string; messages: object[]; stream: true };

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("a lent request body", () => {
	it("stays as it was while another request of its conversation is built, and its buffer is reused once given back", () => {
		const system = { role: "system", content: "sys" };
		const first: Payload = { model: "m", messages: [system, { role: "user", content: "one" }], stream: true };
		const lent = lendPayload(first, "messages");
		const bytes = lent.body.slice();
		const second: Payload = { ...first, messages: [system, { role: "user", content: "other, longer text" }] };
		const other = lendPayload(second, "messages");
		expect(decode(other.body)).toBe(JSON.stringify(second));
		expect(lent.body).toEqual(bytes);
		expect(other.body.buffer).not.toBe(lent.body.buffer);
		other.release();
		lent.release();
		const third: Payload = { ...first, messages: [...first.messages, { role: "assistant", content: "two" }] };
		const next = lendPayload(third, "messages");
		expect(decode(next.body)).toBe(JSON.stringify(third));
		expect(next.body.buffer).toBe(lent.body.buffer);
		next.release();
	});

	it("holds fields before the history longer than the room kept for them", () => {
		const first = { role: "user", content: "q" };
		for (const size of [10, 5_000, 50_000]) {
			const payload = {
				model: "m",
				system: "s".repeat(size),
				messages: [first, { role: "user", content: `${size}` }],
			};
			const lent = lendPayload(payload, "messages");
			expect(decode(lent.body)).toBe(JSON.stringify(payload));
			lent.release();
		}
	});

	it("matches JSON.stringify for every body still lent, whatever requests of the conversation come between", () => {
		const step = fc.oneof(
			fc.record({
				op: fc.constant("lend" as const),
				texts: fc.array(fc.string({ unit: "binary" }), { maxLength: 4 }),
			}),
			fc.record({ op: fc.constant("release" as const), which: fc.nat() }),
		);
		fc.assert(
			fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
				const system = { role: "system", content: "shared first message" };
				let history: object[] = [system];
				const open: { lent: LentBody; json: string }[] = [];
				for (const s of steps) {
					if (s.op === "lend") {
						// Grows the history or, with an odd count of texts, starts another conversation with the same first message.
						const added = s.texts.map((text) => ({ role: "user", content: text }));
						history = s.texts.length % 2 === 1 ? [system, ...added] : [...history, ...added];
						const payload: Payload = { model: "m", messages: history, stream: true };
						open.push({ lent: lendPayload(payload, "messages"), json: JSON.stringify(payload) });
					} else if (open.length > 0) {
						open.splice(s.which % open.length, 1)[0]?.lent.release();
					}
					for (const { lent, json } of open) expect(decode(lent.body)).toBe(json);
				}
				for (const { lent } of open) lent.release();
			}),
		);
	});
});

describe("requests of two conversations with the same system prompt, at once", () => {
	const server = useFakeServer();

	it("each send their own history", async () => {
		const model = openaiTestModel("openai-completions", `${server.url}/v1`);
		server.enqueue(
			{ kind: "sse", chunks: [...textChunks("a"), ...finish()] },
			{ kind: "sse", chunks: [...textChunks("b"), ...finish()] },
		);
		// Both bodies are built before either is written: the second must not be framed in the first's buffer.
		const [a, b] = await Promise.all([
			collect(stream(model, { systemPrompt: "same", messages: [user("first conversation")] }, { apiKey: "k" })),
			collect(stream(model, { systemPrompt: "same", messages: [user("second, a longer one")] }, { apiKey: "k" })),
		]);
		expect([a.result.stopReason, b.result.stopReason]).toEqual(["stop", "stop"]);
		const sent = server.requests.map((request) => (request.body as Payload).messages.at(-1));
		expect(sent).toEqual(
			expect.arrayContaining([
				{ role: "user", content: "first conversation" },
				{ role: "user", content: "second, a longer one" },
			]),
		);
	});
});

describe("what a request registers to run when it is over", () => {
	const model = openaiTestModel("openai-completions", "http://127.0.0.1:1/v1");

	/** A provider stream whose request is `send()`; `over` records when what it registered ran. */
	function start(send: () => Promise<AsyncIterable<unknown>>, signal?: AbortSignal) {
		const over: string[] = [];
		const events = runProviderStream<object, unknown>({
			model,
			options: { signal },
			describeError: (error) => String(error),
			prepare: () => ({
				payload: {},
				send: (_payload, transport) => {
					transport.whenOver(() => over.push("over"));
					return send();
				},
				createProcessor: () => ({
					handle: () => {},
					isComplete: true,
					terminalEvent: "done",
					finish: () => {},
					abandon: () => {},
				}),
			}),
		});
		return { over, stopReason: events.result().then((message) => message.stopReason) };
	}

	const settled = () => new Promise((resolve) => setImmediate(resolve));

	it("runs once the reply was read", async () => {
		let end: () => void = () => {};
		const reply = (async function* () {
			yield "event";
			await new Promise<void>((resolve) => (end = resolve));
		})();
		const run = start(async () => reply);
		await settled();
		expect(run.over).toEqual([]);
		end();
		expect(await run.stopReason).toBe("stop");
		expect(run.over).toEqual(["over"]);
	});

	it("runs once the request failed", async () => {
		let fail: (error: Error) => void = () => {};
		const run = start(() => new Promise((_, reject) => (fail = reject)));
		await settled();
		expect(run.over).toEqual([]);
		fail(new Error("connection reset"));
		expect(await run.stopReason).toBe("error");
		expect(run.over).toEqual(["over"]);
	});

	it("runs once the request was aborted", async () => {
		const controller = new AbortController();
		const run = start(
			() =>
				new Promise((_, reject) =>
					controller.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }),
				),
			controller.signal,
		);
		await settled();
		expect(run.over).toEqual([]);
		controller.abort();
		expect(await run.stopReason).toBe("aborted");
		expect(run.over).toEqual(["over"]);
	});
});
