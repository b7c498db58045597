// The guarded fetch every adapter gives its SDK, driven directly (the contract suite drives it through the SDKs).
import { describe, expect, it } from "vitest";
import { ReplyGuard } from "../src/providers/reply-guard.js";
import { useFakeServer } from "./helpers/provider-test-harness.js";

const server = useFakeServer();
const limits = { maxReplyBytes: 0, replyTimeoutMs: 0 };

function post(guard: ReplyGuard, path: string, body: NonNullable<RequestInit["body"]> = '{"q":1}') {
	// undici needs `duplex` for a stream body.
	const init = {
		method: "POST",
		body,
		headers: { "content-type": "application/json", "x-api-key": "k" },
		duplex: "half",
	};
	return guard.fetch(`${server.url}${path}`, init as RequestInit);
}

describe("same-origin redirects", () => {
	it("a 307 repeats the method, the body and the headers", async () => {
		const before = server.requests.length;
		server.enqueue({ kind: "redirect", status: 307, location: "/next" }, { kind: "sse", chunks: [": ok\n\n"] });
		const response = await post(new ReplyGuard(limits), "/first");
		expect(response.status).toBe(200);
		const second = server.requests[before + 1];
		expect(second).toMatchObject({ method: "POST", url: "/next", rawBody: '{"q":1}' });
		expect(second.headers["x-api-key"]).toBe("k");
	});

	it.each([303, 301, 302])("a %i after a POST continues as a GET without the body, as fetch does", async (status) => {
		const before = server.requests.length;
		server.enqueue({ kind: "redirect", status, location: "/next" }, { kind: "sse", chunks: [": ok\n\n"] });
		await post(new ReplyGuard(limits), "/first");
		const second = server.requests[before + 1];
		expect(second).toMatchObject({ method: "GET", url: "/next", rawBody: "" });
		expect(second.headers["content-type"]).toBeUndefined();
	});

	it("a body that cannot be sent twice is not sent again", async () => {
		const before = server.requests.length;
		server.enqueue({ kind: "redirect", status: 307, location: "/next" });
		const guard = new ReplyGuard(limits);
		const once = new ReadableStream({
			start(controller) {
				controller.enqueue(new TextEncoder().encode("{}"));
				controller.close();
			},
		});
		await expect(post(guard, "/first", once)).rejects.toThrow(
			`The provider at ${server.url} redirected the request (HTTP 307) but its body cannot be sent again.`,
		);
		expect(guard.failure).toBeDefined();
		expect(server.requests.length - before).toBe(1);
	});
});

describe("messages", () => {
	it("never show a query string, which may hold a key", async () => {
		server.enqueue({ kind: "raw", status: 200, body: "<html></html>", headers: { "content-type": "text/html" } });
		const guard = new ReplyGuard(limits);
		await expect(guard.fetch(`${server.url}/v1/x?key=secret`, { method: "POST", body: "{}" })).rejects.toThrow(
			`Expected an event stream from ${server.url}/v1/x but got HTTP 200 text/html: "<html></html>"`,
		);
	});

	it("show at most 200 characters of the body, marked as cut", async () => {
		server.enqueue({ kind: "raw", status: 200, body: "y".repeat(5000), headers: { "content-type": "text/plain" } });
		const guard = new ReplyGuard(limits);
		await expect(guard.fetch(`${server.url}/x`)).rejects.toThrow(`text/plain: "${"y".repeat(200)}…"`);
	});
});

describe("limits", () => {
	it("an error body is counted too: the size limit stops a huge one", async () => {
		server.enqueue({
			kind: "raw",
			status: 500,
			body: "z".repeat(100_000),
			headers: { "content-type": "text/plain" },
		});
		const guard = new ReplyGuard({ maxReplyBytes: 1024, replyTimeoutMs: 0 });
		const response = await guard.fetch(`${server.url}/x`);
		expect(response.status).toBe(500);
		await expect(response.text()).rejects.toThrow(/reply size limit of 1 KiB/);
		expect(guard.failure?.message).toMatch(/limits\.replyMaxBytes/);
	});

	it("an event-stream line longer than 8 MiB is refused, however the size limit is set", async () => {
		const before = server.requests.length;
		server.enqueue({ kind: "endless", head: ": hello\n\ndata: ", chunk: "x".repeat(64 * 1024) });
		const guard = new ReplyGuard(limits);
		const response = await guard.fetch(`${server.url}/x`);
		const reader = (response.body as ReadableStream<Uint8Array>).getReader();
		let received = 0;
		const failure = await (async () => {
			for (;;) {
				const { done, value } = await reader.read();
				if (done) return undefined;
				received += value.byteLength;
			}
		})().catch((error: unknown) => error);
		expect(String(failure)).toContain(
			`Malformed event stream from ${server.url}/x (HTTP 200 text/event-stream): a line longer than 8 MiB; the body began ": hello\\n\\ndata: xxx`,
		);
		expect(received).toBeLessThanOrEqual(8 * 1024 * 1024 + 64 * 1024 + 20);
		await server.requests[before].closed;
	});

	it("lines of an event stream may add up to any size", async () => {
		server.enqueue({ kind: "endless", chunk: `data: ${"y".repeat(1000)}\n\n` });
		const guard = new ReplyGuard({ maxReplyBytes: 10 * 1024 * 1024, replyTimeoutMs: 0 });
		const reader = ((await guard.fetch(`${server.url}/x`)).body as ReadableStream<Uint8Array>).getReader();
		const failure = await (async () => {
			for (;;) if ((await reader.read()).done) return undefined;
		})().catch((error: unknown) => error);
		expect(String(failure)).toMatch(/reply size limit of 10 MiB/);
	});

	it("close() after the body was read to its end aborts nothing: the SDK's listeners are not woken", async () => {
		server.enqueue({ kind: "sse", chunks: ["data: 1\n\n", "data: 2\n\n"] });
		const guard = new ReplyGuard(limits);
		const response = await guard.fetch(`${server.url}/x`, { signal: guard.signal });
		let woken = 0;
		guard.signal.addEventListener("abort", () => woken++);
		expect(await response.text()).toBe("data: 1\n\ndata: 2\n\n");
		guard.close();
		expect(woken).toBe(0);
		expect(guard.signal.aborted).toBe(false);
	});

	it("close() before the body was read to its end aborts the request's signal", async () => {
		server.enqueue({ kind: "sse", chunks: ["data: 1\n\n", "data: 2\n\n"] });
		const guard = new ReplyGuard(limits);
		const response = await guard.fetch(`${server.url}/x`, { signal: guard.signal });
		const reader = (response.body as ReadableStream<Uint8Array>).getReader();
		await reader.read();
		guard.close();
		expect(guard.signal.aborted).toBe(true);
		await expect(reader.read()).rejects.toThrow();
	});

	it("close() ends a request that is still open", async () => {
		const arrived = server.enqueueHang();
		const guard = new ReplyGuard(limits);
		const pending = guard.fetch(`${server.url}/x`);
		await arrived;
		const request = server.requests.at(-1);
		guard.close();
		await expect(pending).rejects.toThrow();
		await request?.closed;
	});
});
