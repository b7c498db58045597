// The HTTP client under the provider requests, against a local server: it must read like fetch to the SDKs.
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { HttpTransport } from "../src/providers/http-transport.js";
import { ReplyGuard } from "../src/providers/reply-guard.js";
import type { FakeReply } from "./helpers/fake-server.js";
import { useFakeServer } from "./helpers/provider-test-harness.js";

const server = useFakeServer();
const transport = new HttpTransport({ env: {} });
afterAll(() => transport.close());

const SSE = "data: hello\n\n";

describe("content-encoding, decoded as fetch decodes it", () => {
	it.each([
		["gzip", gzipSync(SSE)],
		["x-gzip", gzipSync(SSE)],
		["deflate", deflateSync(SSE)],
		["deflate", deflateRawSync(SSE)],
		["br", brotliCompressSync(SSE)],
		["deflate, gzip", gzipSync(deflateSync(SSE))],
		["identity", Buffer.from(SSE)],
	])("%s", async (encoding, body) => {
		server.enqueue({ kind: "raw", status: 200, body, headers: { "content-encoding": encoding } });
		const response = await transport.fetch(`${server.url}/x`);
		expect(await response.text()).toBe(SSE);
		expect(response.headers.get("content-encoding")).toBe(encoding);
	});

	it("asks for the encodings it decodes", async () => {
		server.enqueue({ kind: "raw", status: 200, body: "" });
		await (await transport.fetch(`${server.url}/x`)).text();
		expect(server.lastRequest?.headers["accept-encoding"]).toBe("gzip, deflate");
	});

	it("an encoding it does not know is passed on as it came", async () => {
		server.enqueue({ kind: "raw", status: 200, body: "opaque", headers: { "content-encoding": "zstd-future" } });
		expect(await (await transport.fetch(`${server.url}/x`)).text()).toBe("opaque");
	});

	it("the guard's size limit counts the decoded bytes: a small compressed reply cannot inflate past it", async () => {
		const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, "a"));
		expect(bomb.byteLength).toBeLessThan(64 * 1024);
		server.enqueue({ kind: "raw", status: 500, body: bomb, headers: { "content-encoding": "gzip" } });
		const guard = new ReplyGuard({ maxReplyBytes: 1024 * 1024, replyTimeoutMs: 0 }, "sse", transport);
		const response = await guard.fetch(`${server.url}/x`);
		await expect(response.text()).rejects.toThrow(/reply size limit of 1 MiB/);
	});
});

describe("requests and responses", () => {
	it.each([
		["a string", "héllo", "héllo", "text/plain;charset=UTF-8"],
		["bytes", new TextEncoder().encode("bytes"), "bytes", undefined],
		["an ArrayBuffer", new TextEncoder().encode("buffer").buffer, "buffer", undefined],
		["a Blob", new Blob(["blob"], { type: "application/x-test" }), "blob", "application/x-test"],
		[
			"URLSearchParams",
			new URLSearchParams({ a: "1 2" }),
			"a=1+2",
			"application/x-www-form-urlencoded;charset=UTF-8",
		],
	])(
		"a body given as %s is sent with its length and the content type fetch gives it",
		async (_kind, body, text, type) => {
			server.enqueue({ kind: "raw", status: 204, body: "" });
			await transport.fetch(`${server.url}/x`, { method: "POST", body: body as RequestInit["body"] });
			expect(server.lastRequest?.rawBody).toBe(text);
			expect(server.lastRequest?.headers["content-length"]).toBe(String(Buffer.byteLength(text)));
			expect(server.lastRequest?.headers["content-type"]).toBe(type);
		},
	);

	it("headers sent more than once are all kept, joined as fetch joins them", async () => {
		server.enqueue(() => ({
			kind: "raw",
			status: 200,
			body: "",
			headers: { "x-multi": ["a", "b"] as unknown as string },
		}));
		const response = await transport.fetch(`${server.url}/x`);
		expect(response.headers.get("x-multi")).toBe("a, b");
	});

	it("a redirect is returned, not followed", async () => {
		server.enqueue({ kind: "redirect", status: 302, location: "/elsewhere" });
		const before = server.requests.length;
		const response = await transport.fetch(`${server.url}/x`);
		expect(response.status).toBe(302);
		expect(response.headers.get("location")).toBe("/elsewhere");
		expect(server.requests.length - before).toBe(1);
	});

	it.each([
		["plain", { kind: "sse", chunks: [SSE] }],
		["gzip", { kind: "raw", status: 200, body: gzipSync(SSE), headers: { "content-encoding": "gzip" } }],
	] satisfies Array<[string, FakeReply]>)(
		"requests one after another share a kept-alive connection (%s body)",
		async (_kind, reply) => {
			server.enqueue(reply, reply);
			for (let i = 0; i < 2; i++) {
				expect(await (await transport.fetch(`${server.url}/x`, { method: "POST", body: "{}" })).text()).toBe(SSE);
			}
			expect(server.requests.at(-1)?.remotePort).toBe(server.requests.at(-2)?.remotePort);
		},
	);
});

describe("failures, as fetch reports them", () => {
	it("an abort before the response rejects with an AbortError", async () => {
		const arrived = server.enqueueHang();
		const controller = new AbortController();
		const pending = transport.fetch(`${server.url}/x`, { signal: controller.signal });
		await arrived;
		const closed = server.lastRequest?.closed;
		controller.abort();
		await expect(pending).rejects.toMatchObject({ name: "AbortError" });
		await closed;
	});

	it("an abort while the body streams errors the body with an AbortError", async () => {
		server.enqueue({ kind: "sse", chunks: [SSE], holdOpen: true });
		const controller = new AbortController();
		const response = await transport.fetch(`${server.url}/x`, { signal: controller.signal });
		const reader = (response.body as ReadableStream<Uint8Array>).getReader();
		expect(new TextDecoder().decode((await reader.read()).value)).toBe(SSE);
		controller.abort();
		await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
	});

	it("a refused connection is `fetch failed` with the system error as its cause", async () => {
		const failure = await transport.fetch("http://127.0.0.1:1/x").catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(TypeError);
		expect(failure).toMatchObject({ message: "fetch failed", cause: { code: "ECONNREFUSED" } });
	});

	it("a connection cut while the body streams is `terminated`, caused by the other side closing", async () => {
		server.enqueue({ kind: "sse", chunks: [SSE, SSE], cutAfter: 1, chunkDelayMs: 1 });
		const response = await transport.fetch(`${server.url}/x`);
		const failure = await response.text().catch((error: unknown) => error);
		expect(failure).toMatchObject({ message: "terminated", cause: { message: "other side closed" } });
	});

	it("a URL with credentials is refused, as fetch refuses it", async () => {
		const url = server.url.replace("http://", "http://user:pw@");
		await expect(transport.fetch(url)).rejects.toThrow(
			"Request cannot be constructed from a URL that includes credentials",
		);
	});
});
