// Proxies from the environment: which requests go through one, and requests sent through local proxies.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isProxyBypassed, parseProxyUrl, proxyFor } from "../src/providers/http-proxy.js";
import { HttpTransport } from "../src/providers/http-transport.js";
import { ReplyGuard } from "../src/providers/reply-guard.js";
import { FakeServer } from "./helpers/fake-server.js";
import { TestProxy } from "./helpers/proxy-server.js";
import { TEST_TLS_CERT, TEST_TLS_KEY } from "./helpers/tls-fixture.js";

const limits = { maxReplyBytes: 0, replyTimeoutMs: 0 };

describe("choosing the proxy", () => {
	const https = new URL("https://api.example.com/v1/messages");
	const http = new URL("http://llm.internal:8080/v1");

	it("https targets use https_proxy, falling back to http_proxy; http targets only http_proxy", () => {
		expect(proxyFor(https, { HTTPS_PROXY: "http://s:1", HTTP_PROXY: "http://p:2" })?.origin).toBe("http://s:1");
		expect(proxyFor(https, { HTTP_PROXY: "http://p:2" })?.origin).toBe("http://p:2");
		expect(proxyFor(http, { HTTPS_PROXY: "http://s:1" })).toBeUndefined();
		expect(proxyFor(http, { http_proxy: "p:3128" })?.origin).toBe("http://p:3128");
	});

	it("the lower-case variable wins over the upper-case one; empty ones are unset", () => {
		expect(proxyFor(https, { https_proxy: "http://low:1", HTTPS_PROXY: "http://up:2" })?.origin).toBe("http://low:1");
		expect(proxyFor(https, { https_proxy: " ", HTTPS_PROXY: "http://up:2" })?.origin).toBe("http://up:2");
		expect(proxyFor(https, {})).toBeUndefined();
	});

	it("user info becomes Basic proxy authorization and is kept out of the origin", () => {
		const proxy = parseProxyUrl("http://me%40corp:p%3Ass@proxy.corp:8080");
		expect(proxy.origin).toBe("http://proxy.corp:8080");
		expect(proxy.authorization).toBe(`Basic ${Buffer.from("me@corp:p:ss").toString("base64")}`);
		expect(parseProxyUrl("http://proxy.corp").port).toBe(80);
	});

	it("refuses proxies it cannot speak to, naming them without credentials", () => {
		expect(() => parseProxyUrl("socks5://u:secret@proxy:1080")).toThrow(
			"The proxy socks5://proxy:1080 is not supported: only http:// proxies are (HTTPS_PROXY/HTTP_PROXY)",
		);
	});

	it.each([
		["*", "https://anything.example.org", true],
		["example.com", "https://example.com", true],
		["example.com", "https://api.example.com", true],
		[".example.com", "https://example.com", true],
		[".example.com", "https://api.example.com", true],
		["*.example.com", "https://deep.api.example.com", true],
		["example.com", "https://notexample.com", false],
		["EXAMPLE.com.", "https://api.example.COM", true],
		["other.org, example.com", "https://example.com", true],
		["other.org example.com", "https://example.com", true],
		["example.com:8443", "https://example.com:8443", true],
		["example.com:8443", "https://example.com", false],
		["example.com:443", "https://example.com", true],
		["10.0.0.7", "http://10.0.0.7:8080", true],
		["10.0.0.7", "http://10.0.0.70", false],
		["[::1]:8080", "http://[::1]:8080", true],
		["::1", "http://[::1]:9", true],
		["", "https://example.com", false],
		["127.0.0.1", "http://localhost", false],
	])("NO_PROXY %j for %s → bypassed %s", (noProxy, url, bypassed) => {
		expect(isProxyBypassed(new URL(url), noProxy)).toBe(bypassed);
	});

	it("localhost is not implied: without NO_PROXY, local targets go through the proxy too", () => {
		expect(proxyFor(new URL("http://127.0.0.1:9"), { HTTP_PROXY: "http://p:1" })).toBeDefined();
		expect(
			proxyFor(new URL("http://localhost:9"), { HTTP_PROXY: "http://p:1", NO_PROXY: "localhost" }),
		).toBeUndefined();
	});
});

describe("requests through a proxy", () => {
	const proxy = new TestProxy();
	const refusing = new TestProxy({ refuseConnectWith: 407 });
	const plain = new FakeServer();
	const secure = new FakeServer({ cert: TEST_TLS_CERT, key: TEST_TLS_KEY });
	const transports: HttpTransport[] = [];
	beforeAll(() => Promise.all([proxy.listen(), refusing.listen(), plain.listen(), secure.listen()]));
	afterAll(async () => {
		for (const transport of transports) transport.close();
		await Promise.all([proxy.close(), refusing.close(), plain.close(), secure.close()]);
	});

	function guardWith(env: Record<string, string>): ReplyGuard {
		const transport = new HttpTransport({ env, ca: TEST_TLS_CERT });
		transports.push(transport);
		return new ReplyGuard(limits, "sse", transport);
	}

	const withCredentials = (url: string) => url.replace("http://", "http://agent:s3cret@");

	it("an http target is sent to the proxy by absolute URI, with the proxy's credentials for the proxy only", async () => {
		plain.enqueue({ kind: "sse", chunks: ["data: one\n\n"] });
		const guard = guardWith({ HTTP_PROXY: withCredentials(proxy.url) });
		const response = await guard.fetch(`${plain.url}/v1/chat?x=1`, { method: "POST", body: "{}" });
		expect(await response.text()).toBe("data: one\n\n");
		expect(proxy.requests.at(-1)).toEqual({
			kind: "forward",
			target: `${plain.url}/v1/chat?x=1`,
			authorization: `Basic ${Buffer.from("agent:s3cret").toString("base64")}`,
		});
		expect(plain.lastRequest?.headers["proxy-authorization"]).toBeUndefined();
		expect(plain.lastRequest?.rawBody).toBe("{}");
	});

	it("an https target goes through a CONNECT tunnel, with TLS to the target under its own name", async () => {
		const target = secure.url.replace("127.0.0.1", "localhost");
		secure.enqueue({ kind: "sse", chunks: ["data: secret\n\n"] });
		const guard = guardWith({ HTTPS_PROXY: withCredentials(proxy.url) });
		const response = await guard.fetch(`${target}/v1/messages`, { method: "POST", body: '{"q":1}' });
		expect(await response.text()).toBe("data: secret\n\n");
		const { port } = new URL(target);
		expect(proxy.requests.at(-1)).toMatchObject({ kind: "connect", target: `localhost:${port}` });
		expect(proxy.requests.at(-1)?.authorization).toMatch(/^Basic /);
		expect(secure.lastRequest).toMatchObject({ servername: "localhost", rawBody: '{"q":1}', url: "/v1/messages" });
	});

	it("a tunnel is kept alive and reused for the next request to the same target", async () => {
		const guardEnv = { HTTPS_PROXY: proxy.url };
		const transport = new HttpTransport({ env: guardEnv, ca: TEST_TLS_CERT });
		transports.push(transport);
		const connectsBefore = proxy.requests.filter((r) => r.kind === "connect").length;
		for (const text of ["a", "b"]) {
			secure.enqueue({ kind: "sse", chunks: [`data: ${text}\n\n`] });
			const response = await new ReplyGuard(limits, "sse", transport).fetch(`${secure.url}/x`, { method: "POST" });
			expect(await response.text()).toBe(`data: ${text}\n\n`);
		}
		expect(proxy.requests.filter((r) => r.kind === "connect").length - connectsBefore).toBe(1);
		expect(secure.requests.at(-1)?.remotePort).toBe(secure.requests.at(-2)?.remotePort);
	});

	it("the target's certificate is still checked through the tunnel", async () => {
		const transport = new HttpTransport({ env: { HTTPS_PROXY: proxy.url } });
		transports.push(transport);
		const before = secure.requests.length;
		const failure = await new ReplyGuard(limits, "sse", transport)
			.fetch(`${secure.url}/x`, { method: "POST" })
			.catch((error: Error) => error);
		expect((failure as Error).message).toBe("fetch failed");
		expect(((failure as Error).cause as { code?: string }).code).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");
		expect(secure.requests.length).toBe(before);
	});

	it("a proxy that refuses the tunnel fails the request with its status, naming it without credentials", async () => {
		const guard = guardWith({ HTTPS_PROXY: withCredentials(refusing.url) });
		const failure = await guard.fetch(`${secure.url}/v1/messages`, { method: "POST" }).catch((error: Error) => error);
		expect(failure).toBeInstanceOf(TypeError);
		const cause = (failure as Error).cause as Error;
		expect(cause.message).toBe(
			`The proxy ${refusing.url} refused to connect to 127.0.0.1:${new URL(secure.url).port} (HTTP 407)`,
		);
		expect(String(cause.message)).not.toContain("s3cret");
	});

	it.each(["https", "http"])("a proxy that is not there fails an %s request, naming the proxy", async (scheme) => {
		const unreachable = "http://u:s3cret@127.0.0.1:1";
		const guard = guardWith({ HTTPS_PROXY: unreachable, HTTP_PROXY: unreachable });
		const target = scheme === "https" ? secure.url : plain.url;
		const failure = await guard.fetch(`${target}/x`).catch((error: Error) => error);
		expect((failure as Error).message).toBe("fetch failed");
		expect(((failure as Error).cause as Error).message).toMatch(
			/^Could not reach the proxy http:\/\/127\.0\.0\.1:1: connect ECONNREFUSED/,
		);
	});

	it("NO_PROXY sends a matching target directly", async () => {
		const before = proxy.requests.length;
		plain.enqueue({ kind: "sse", chunks: ["data: direct\n\n"] });
		const guard = guardWith({ HTTP_PROXY: proxy.url, NO_PROXY: `example.com, 127.0.0.1:${new URL(plain.url).port}` });
		const response = await guard.fetch(`${plain.url}/x`);
		expect(await response.text()).toBe("data: direct\n\n");
		expect(proxy.requests.length).toBe(before);
	});
});
