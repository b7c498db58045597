// The provider contract: what every built-in API guarantees, run against real local HTTP servers with the real
// SDKs. A reply is finished only when its terminal event arrived; tool calls whose arguments did not arrive
// whole are marked invalid; anything that is not the API's wire format fails loudly; replies are bounded in
// size and time; redirects never carry credentials or the conversation to another origin.
import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_REPLY_BYTES, DEFAULT_REPLY_TIMEOUT_MS, isContextOverflow, stream } from "../../src/index.js";
import {
	ARGUMENTS_CUT_BY_OUTPUT_LIMIT,
	ARGUMENTS_CUT_OFF,
	ARGUMENTS_NOT_AN_OBJECT,
} from "../../src/providers/tool-arguments.js";
import type { AssistantMessage, Context, StreamOptions, ToolCall } from "../../src/types.js";
import {
	encodeChunks,
	eventStreamHead,
	type FakeReply,
	FakeServer,
	type RecordedRequest,
	type SseChunk,
	StallingServer,
} from "../helpers/fake-server.js";
import { PROVIDER_DIALECTS, type ProviderDialect } from "../helpers/provider-dialects.js";
import { expectNoUnhandledRejections } from "../helpers/provider-test-harness.js";
import { type CollectedStream, collect, collectAbortingWhen, expectBalancedBlocks } from "../helpers/stream-events.js";

expectNoUnhandledRejections();

const KEY = "secret-key-123";
const context: Context = { messages: [{ role: "user", content: "clean up keep/tmp", timestamp: 1 }] };

const server = new FakeServer();
/** Another origin (another port): what a redirect must never reach. */
const elsewhere = new FakeServer();
beforeAll(() => Promise.all([server.listen(), elsewhere.listen()]));
afterAll(() => Promise.all([server.close(), elsewhere.close()]));

function toolCallOf(message: AssistantMessage): ToolCall {
	const call = message.content.find((block) => block.type === "toolCall");
	if (!call) throw new Error(`no tool call in ${JSON.stringify(message.content)}`);
	return call;
}

/** Queues `reply`, runs one call; resolves with what the caller saw and the request the server received. */
async function exchange(
	dialect: ProviderDialect,
	reply: FakeReply | ((request: RecordedRequest) => FakeReply),
	options: StreamOptions = {},
): Promise<CollectedStream & { request: RecordedRequest | undefined }> {
	const before = server.requests.length;
	server.enqueue(reply);
	const outcome = await collect(stream(dialect.model(server.url), context, { apiKey: KEY, ...options }));
	return { ...outcome, request: server.requests[before] };
}

/** A streamed reply in the dialect's framing and content type. */
function streamed(
	dialect: ProviderDialect,
	chunks: SseChunk[],
	extra: Partial<Extract<FakeReply, { kind: "sse" }>> = {},
): FakeReply {
	return { kind: "sse", chunks, headers: { "content-type": dialect.contentType }, ...extra };
}

/** The call failed: one terminal `error`, never `done`. */
function expectFailed(outcome: CollectedStream): string {
	expect(outcome.types.at(-1)).toBe("error");
	expect(outcome.types).not.toContain("done");
	expect(outcome.result.stopReason).toBe("error");
	return outcome.result.errorMessage ?? "";
}

const pathOf = (request: RecordedRequest | undefined) => (request?.url ?? "").split("?")[0];

it("exports the default limits", () => {
	expect(DEFAULT_MAX_REPLY_BYTES).toBe(64 * 1024 * 1024);
	expect(DEFAULT_REPLY_TIMEOUT_MS).toBe(30 * 60 * 1000);
});

describe.each(PROVIDER_DIALECTS)("$api", (dialect) => {
	describe("complete replies", () => {
		it("a text reply ends with done and the text", async () => {
			const { types, events, result } = await exchange(dialect, streamed(dialect, dialect.text("Hello")));
			expect(types[0]).toBe("start");
			expect(types.at(-1)).toBe("done");
			expect(result.stopReason).toBe("stop");
			expect(result.content).toEqual([expect.objectContaining({ type: "text", text: "Hello" })]);
			expectBalancedBlocks(events);
		});

		it("a tool call with valid arguments is a toolUse reply with the parsed arguments and no invalid mark", async () => {
			const { result } = await exchange(
				dialect,
				streamed(dialect, dialect.toolCall('{"command":"rm -rf keep/tmp"}', "toolUse")),
			);
			expect(result.stopReason).toBe("toolUse");
			const call = toolCallOf(result);
			expect(call).toMatchObject({ name: "bash", arguments: { command: "rm -rf keep/tmp" } });
			expect(call).not.toHaveProperty("invalidArguments");
		});
	});

	describe("replies that did not finish", () => {
		it("a body that ends before the terminal event is an error, and its cut tool call is never a toolUse", async () => {
			const outcome = await exchange(
				dialect,
				streamed(dialect, dialect.toolCallCut('{"command":"rm -rf keep/tmp"}')),
			);
			const message = expectFailed(outcome);
			expect(message).toMatch(
				/^The response stream ended before the provider finished the reply \(no .+ received\)$/,
			);
			const call = toolCallOf(outcome.result);
			if (dialect.streamsArguments) {
				// The issue's case: the arguments must not be "repaired" into a command that runs.
				const cut = await exchange(dialect, streamed(dialect, dialect.toolCallCut('{"command":"rm -rf keep/')));
				expectFailed(cut);
				expect(toolCallOf(cut.result)).toMatchObject({
					arguments: { command: "rm -rf keep/" },
					invalidArguments: ARGUMENTS_CUT_OFF,
				});
			} else {
				expect(call.name).toBe("bash");
			}
		});

		it("a body cut in the middle of an event is an error", async () => {
			const outcome = await exchange(dialect, {
				kind: "raw",
				status: 200,
				headers: { "content-type": dialect.contentType },
				body: dialect.cutInsideEvent(),
			});
			expectFailed(outcome);
		});

		it("a dropped connection is an error naming it", async () => {
			const outcome = await exchange(
				dialect,
				streamed(dialect, [...dialect.textStart("Hello"), ...dialect.text("never")], {
					cutAfter: dialect.textStart("Hello").length,
					chunkDelayMs: 1,
				}),
			);
			expect(expectFailed(outcome)).toMatch(/terminated|other side closed/);
		});

		it("a length stop inside a tool call is a length reply whose call is marked invalid", async () => {
			const args = dialect.streamsArguments ? '{"command":"rm -rf keep/' : '{"command":"rm -rf keep/"}';
			const { types, result } = await exchange(dialect, streamed(dialect, dialect.toolCall(args, "length")));
			expect(types.at(-1)).toBe("done");
			expect(result.stopReason).toBe("length");
			expect(toolCallOf(result).invalidArguments).toBe(ARGUMENTS_CUT_BY_OUTPUT_LIMIT);
		});

		it("a length stop after complete arguments still marks the last call", async () => {
			const { result } = await exchange(dialect, streamed(dialect, dialect.toolCall('{"command":"ls"}', "length")));
			expect(result.stopReason).toBe("length");
			expect(toolCallOf(result)).toMatchObject({
				arguments: { command: "ls" },
				invalidArguments: ARGUMENTS_CUT_BY_OUTPUT_LIMIT,
			});
		});

		it("arguments that are not a valid JSON object mark the call invalid instead of being repaired", async () => {
			const { result } = await exchange(dialect, streamed(dialect, dialect.malformedToolCall));
			expect(result.stopReason).toBe("toolUse");
			const reason = toolCallOf(result).invalidArguments;
			if (dialect.streamsArguments) expect(reason).toMatch(/^arguments are not valid JSON: .+/);
			else expect(reason).toBe(ARGUMENTS_NOT_AN_OBJECT);
		});
	});

	describe("HTTP errors", () => {
		it("a 401 keeps its status and the provider's text, with no start event", async () => {
			const outcome = await exchange(dialect, dialect.httpError(401, "invalid api key given"));
			const message = expectFailed(outcome);
			expect(outcome.types).toEqual(["error"]);
			expect(message.startsWith(dialect.statusPrefix(401))).toBe(true);
			expect(message).toContain("invalid api key given");
		});

		it("a 429 carries the server's wait as ' (retry after Ns)'", async () => {
			const message = expectFailed(await exchange(dialect, dialect.rateLimited(7)));
			expect(message.startsWith(dialect.statusPrefix(429))).toBe(true);
			expect(message).toMatch(/ \(retry after 7s\)$/);
		});

		it("a context overflow is recognised as one", async () => {
			const { result } = await exchange(dialect, dialect.overflow);
			expect(result.stopReason).toBe("error");
			expect(isContextOverflow(result)).toBe(true);
		});
	});

	describe("replies that are not the API's wire format", () => {
		const urlPattern = (request: RecordedRequest | undefined) =>
			`${server.url}${pathOf(request)}`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

		it.each([
			[
				"an HTML portal page",
				"text/html; charset=utf-8",
				`<!doctype html><html><head><title>Sign in to the Wi-Fi</title></head><body>${"x".repeat(500)}</body></html>`,
				'"<!doctype html><html><head><title>Sign in to the Wi-Fi</title>',
			],
			[
				"non-streaming JSON",
				"application/json",
				JSON.stringify({ id: "msg_1", content: [{ type: "text", text: "hi" }] }),
				'"{\\"id\\":\\"msg_1\\"',
			],
			[
				"garbage text labelled as an event stream",
				dialect.contentType,
				"hello, this is not an event stream\n\n",
				'"hello, this is not an event stream',
			],
			[
				"binary bytes without a content type",
				undefined,
				"\u0000\u0001\u0002\u0003binary\u00ff\u00fe",
				'"\\u0000\\u0001',
			],
			["an empty body", dialect.contentType, "", "an empty body"],
		])(
			"%s is an error naming the URL, status, content type and the start of the body",
			async (_name, type, body, shown) => {
				const outcome = await exchange(dialect, {
					kind: "raw",
					status: 200,
					headers: type ? { "content-type": type } : {},
					body,
				});
				const message = expectFailed(outcome);
				const label = type ?? "no content type";
				expect(message).toMatch(
					new RegExp(`^Expected an event stream from ${urlPattern(outcome.request)} but got HTTP 200 `),
				);
				expect(message).toContain(`HTTP 200 ${label}: ${shown}`);
				// The message stays short: 200 characters of the body at most.
				expect(message.length).toBeLessThan(400);
			},
		);

		it.each([
			["with a charset parameter", { "content-type": `${dialect.contentType.toUpperCase()}; charset=utf-8` }],
			["without a content type", {}],
		])("an event stream %s is read as one", async (_name, headers) => {
			const body = encodeChunks(dialect.text("Hello"));
			const { result } = await exchange(dialect, { kind: "raw", status: 200, headers, body });
			expect(result.stopReason).toBe("stop");
			expect(result.content).toEqual([expect.objectContaining({ type: "text", text: "Hello" })]);
		});

		it("an event stream with none of the API's events is an error", async () => {
			const outcome = await exchange(dialect, streamed(dialect, dialect.noApiEvents));
			expect(expectFailed(outcome)).toMatch(
				/^Malformed event stream from .*: it carried none of the API's events; the body began "/,
			);
		});

		it.each(dialect.outOfOrder)("$name is an error naming the problem", async ({ problem, chunks }) => {
			const outcome = await exchange(dialect, streamed(dialect, chunks));
			const message = expectFailed(outcome);
			expect(message).toMatch(
				new RegExp(
					`^Malformed event stream from ${urlPattern(outcome.request)} \\(HTTP 200 ${dialect.contentType}\\): `,
				),
			);
			expect(message).toMatch(problem);
		});

		// Chat Completions has no content blocks, so nothing of the kind to check there.
		const serverToolReply = dialect.serverToolReply;
		if (serverToolReply) {
			it("a server-side tool's blocks are skipped: the server ran them, the text carries the result", async () => {
				const { types, result } = await exchange(dialect, streamed(dialect, serverToolReply));
				expect(types.at(-1)).toBe("done");
				expect(result.stopReason).toBe("stop");
				expect(result.content).toEqual([expect.objectContaining({ type: "text", text: "Found it" })]);
			});
		}
		const unknownRequiredBlock = dialect.unknownRequiredBlock;
		if (unknownRequiredBlock) {
			it("a block this client cannot represent is an error, not skipped", async () => {
				const outcome = await exchange(dialect, streamed(dialect, unknownRequiredBlock));
				expect(expectFailed(outcome)).toMatch(/^Malformed event stream from .*(cannot represent|cannot act on)/);
			});
		}
	});

	describe("limits", () => {
		it.each(dialect.endless)(
			"%s is stopped at maxReplyBytes and the request is closed",
			async (_name, headAfterStart, chunk) => {
				const before = server.requests.length;
				const maxReplyBytes = 256 * 1024;
				const head = Buffer.concat([encodeChunks(dialect.textStart("Hello")), Buffer.from(headAfterStart)]);
				server.enqueue({ kind: "endless", head, chunk, headers: { "content-type": dialect.contentType } });
				const outcome = await collect(stream(dialect.model(server.url), context, { apiKey: KEY, maxReplyBytes }));
				expect(expectFailed(outcome)).toBe(
					"The reply was stopped: it exceeded the reply size limit of 256 KiB. Raise limits.replyMaxBytes in settings.json (0 = no limit) if replies this large are expected.",
				);
				const request = server.requests[before];
				await request.closed;
				expect(request.bytesWritten).toBeGreaterThan(maxReplyBytes);
			},
		);

		// Raw TCP servers that stall: the 50 ms limit may fire before or after the response head arrives
		// (machine load decides), and either way the reply must end with the time-limit error.
		it.each([
			["a reply still streaming", () => eventStreamHead(dialect.textStart("Hello"), dialect.contentType)],
			["a server that never answers", () => ""],
		])("%s at replyTimeoutMs is stopped and the connection closed", async (_name, response) => {
			const stalling = new StallingServer(response());
			await stalling.listen();
			try {
				const outcome = await collect(
					stream(dialect.model(stalling.url), context, { apiKey: KEY, replyTimeoutMs: 50 }),
				);
				expect(expectFailed(outcome)).toBe(
					"The reply was stopped: it was still streaming after the reply time limit of 50 ms. Raise limits.replyTimeoutMs in settings.json (0 = no limit) if replies this long are expected.",
				);
				await Promise.all(stalling.connectionsClosed);
			} finally {
				await stalling.close();
			}
		});

		it("0 turns both limits off", async () => {
			const { result } = await exchange(dialect, streamed(dialect, dialect.text("Hello")), {
				maxReplyBytes: 0,
				replyTimeoutMs: 0,
			});
			expect(result.stopReason).toBe("stop");
		});
	});

	describe("abort", () => {
		it("aborting mid-stream ends with aborted, keeps the partial text and closes the request", async () => {
			const before = server.requests.length;
			server.enqueue(streamed(dialect, dialect.textStart("Hello"), { holdOpen: true }));
			const controller = new AbortController();
			const { types, result } = await collectAbortingWhen(
				stream(dialect.model(server.url), context, { apiKey: KEY, signal: controller.signal }),
				controller,
				(event) => event.type === "text_delta",
			);
			expect(types.at(-1)).toBe("error");
			expect(result.stopReason).toBe("aborted");
			expect(result.errorMessage).toBe("Request was aborted");
			expect(result.content).toEqual([expect.objectContaining({ type: "text", text: "Hello" })]);
			await server.requests[before].closed;
		});

		it("aborting while waiting for the response ends with aborted and no start", async () => {
			const arrived = server.enqueueHang();
			const controller = new AbortController();
			const pending = collect(
				stream(dialect.model(server.url), context, { apiKey: KEY, signal: controller.signal }),
			);
			await arrived;
			controller.abort();
			const { types, result } = await pending;
			expect(types).toEqual(["error"]);
			expect(result.stopReason).toBe("aborted");
			expect(result.errorMessage).toBe("Request was aborted");
		});
	});

	describe("the caller's signal", () => {
		it("keeps no listener from the requests it was given to, however many", async () => {
			const controller = new AbortController();
			for (let request = 0; request < 3; request++) {
				const { result } = await exchange(dialect, streamed(dialect, dialect.text("Hello")), {
					signal: controller.signal,
				});
				expect(result.stopReason).toBe("stop");
			}
			expect(getEventListeners(controller.signal, "abort")).toEqual([]);
		});
	});

	describe("redirects", () => {
		it("a same-origin redirect is followed with the key and the body", async () => {
			const before = server.requests.length;
			server.enqueue((request) => ({ kind: "redirect", status: 307, location: `/moved${request.url}` }));
			server.enqueue(streamed(dialect, dialect.text("Hello")));
			const outcome = await collect(stream(dialect.model(server.url), context, { apiKey: KEY }));
			expect(outcome.result.stopReason).toBe("stop");
			const [first, second] = server.requests.slice(before);
			expect(second.url).toBe(`/moved${first.url}`);
			expect(String(second.headers[dialect.keyHeader])).toContain(KEY);
			expect(second.rawBody).toBe(first.rawBody);
			expect(second.rawBody).toContain("clean up keep/tmp");
		});

		it.each([
			["another port", 307, () => elsewhere.url],
			["another host name for the same server", 308, () => server.url.replace("127.0.0.1", "localhost")],
			["another port, by a 302", 302, () => elsewhere.url],
		])("a redirect to %s is refused: the key and the conversation never leave", async (_name, status, target) => {
			const seenElsewhere = elsewhere.requests.length;
			const seenHere = server.requests.length;
			server.enqueue((request) => ({ kind: "redirect", status, location: `${target()}${request.url}` }));
			const outcome = await collect(stream(dialect.model(server.url), context, { apiKey: KEY }));
			const message = expectFailed(outcome);
			expect(outcome.types).toEqual(["error"]);
			const request = server.requests[seenHere];
			expect(message).toBe(
				`The provider at ${server.url} redirected to ${target()}${pathOf(request)} (HTTP ${status}); not following it: credentials and the conversation are never sent to another origin. Set the model's baseUrl to the final address if you trust it.`,
			);
			expect(elsewhere.requests.length).toBe(seenElsewhere);
			expect(server.requests.length).toBe(seenHere + 1);
		});

		it("a redirect loop on the same origin stops after a few hops", async () => {
			const before = server.requests.length;
			for (let i = 0; i < 6; i++) server.enqueue({ kind: "redirect", status: 307, location: `/loop/${i}` });
			const message = expectFailed(await collect(stream(dialect.model(server.url), context, { apiKey: KEY })));
			expect(message).toBe(`The provider at ${server.url} redirected more than 5 times; not following further.`);
			expect(server.requests.length - before).toBe(6);
		});
	});

	describe("requests", () => {
		it("never sends invalidArguments back to the provider", async () => {
			const assistant: AssistantMessage = {
				role: "assistant",
				content: [
					{
						type: "toolCall",
						id: "call_1",
						name: "bash",
						arguments: { command: "rm -rf keep/" },
						invalidArguments: ARGUMENTS_CUT_OFF,
					},
				],
				api: dialect.api,
				provider: dialect.model(server.url).provider,
				model: dialect.model(server.url).id,
				usage: {
					input: 0,
					output: 0,
					cacheRead: 0,
					cacheWrite: 0,
					totalTokens: 0,
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
				},
				stopReason: "toolUse",
				timestamp: 2,
			};
			server.enqueue(streamed(dialect, dialect.text("ok")));
			const before = server.requests.length;
			await collect(
				stream(
					dialect.model(server.url),
					{
						messages: [
							...context.messages,
							assistant,
							{
								role: "toolResult",
								toolCallId: "call_1",
								toolName: "bash",
								content: [{ type: "text", text: "not run" }],
								isError: true,
								timestamp: 3,
							},
						],
					},
					{ apiKey: KEY },
				),
			);
			const body = server.requests[before].rawBody;
			expect(body).toContain("rm -rf keep/");
			expect(body).not.toContain("invalidArguments");
			expect(body).not.toContain(ARGUMENTS_CUT_OFF);
		});
	});
});
