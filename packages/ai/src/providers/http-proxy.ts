/**
 * Which proxy a request goes through, from the usual environment variables, and the CONNECT tunnel for https
 * targets. The rules follow undici's EnvHttpProxyAgent, which the reference installs for all its requests:
 * - `https_proxy`/`HTTPS_PROXY` for https targets (falling back to the http one), `http_proxy`/`HTTP_PROXY` for
 *   http targets; the lower-case name wins, as curl reads it.
 * - `no_proxy`/`NO_PROXY`: entries split by commas or spaces; `*` bypasses every host; `example.com`,
 *   `.example.com` and `*.example.com` all match example.com and its subdomains; an entry with a port
 *   (`host:8080`, `[::1]:8080`) matches that port only; IP literals match exactly. localhost is not implied.
 */
import type { Socket } from "node:net";
import { nodeHttp } from "./node-http.js";

export type ProxyEnv = Readonly<Record<string, string | undefined>>;

/** A proxy to send a request through. */
export interface ProxyServer {
	/** `http://host:port` of the proxy (its credentials removed), used in messages and as a pool key. */
	origin: string;
	hostname: string;
	port: number;
	/** The `Proxy-Authorization` value from the proxy URL's user info, if it has any. */
	authorization: string | undefined;
}

interface NoProxyEntry {
	host: string;
	port: number | undefined;
}

function envValue(env: ProxyEnv, name: string): string | undefined {
	for (const value of [env[name.toLowerCase()], env[name.toUpperCase()]]) {
		if (value !== undefined && value.trim() !== "") return value.trim();
	}
	return undefined;
}

/** Host names compare without the brackets of an IPv6 literal, a trailing dot or case. */
function normalizeHost(host: string): string {
	return host
		.replace(/^\[(.*)\]$/, "$1")
		.replace(/\.$/, "")
		.toLowerCase();
}

function defaultPort(protocol: string): number {
	return protocol === "https:" ? 443 : 80;
}

function parseNoProxyEntry(raw: string): NoProxyEntry | "all" | undefined {
	if (raw === "*") return "all";
	let entry = raw;
	let port: number | undefined;
	const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
	if (bracketed) {
		entry = bracketed[1];
		port = bracketed[2] === undefined ? undefined : Number(bracketed[2]);
	} else {
		// One colon is a port; more are a bare IPv6 literal.
		const withPort = /^([^:]+):(\d+)$/.exec(entry);
		if (withPort) {
			entry = withPort[1];
			port = Number(withPort[2]);
		}
	}
	const host = normalizeHost(entry.replace(/^\*?\./, ""));
	return host === "" ? undefined : { host, port };
}

/** True when NO_PROXY says `url` is reached directly. */
export function isProxyBypassed(url: URL, noProxy: string | undefined): boolean {
	if (!noProxy) return false;
	const host = normalizeHost(url.hostname);
	const port = url.port === "" ? defaultPort(url.protocol) : Number(url.port);
	for (const raw of noProxy.split(/[\s,]+/)) {
		if (raw === "") continue;
		const entry = parseNoProxyEntry(raw);
		if (entry === undefined) continue;
		if (entry === "all") return true;
		if (entry.port !== undefined && entry.port !== port) continue;
		if (host === entry.host || host.endsWith(`.${entry.host}`)) return true;
	}
	return false;
}

/** Parses a proxy variable's value; a value without a scheme is taken as `http://`. */
export function parseProxyUrl(value: string): ProxyServer {
	let url: URL;
	try {
		url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
	} catch {
		throw new Error("The proxy set in the environment (HTTPS_PROXY/HTTP_PROXY) is not a valid URL");
	}
	if (url.protocol !== "http:") {
		throw new Error(
			`The proxy ${url.protocol}//${url.host} is not supported: only http:// proxies are (HTTPS_PROXY/HTTP_PROXY)`,
		);
	}
	const user = decodeURIComponent(url.username);
	const password = decodeURIComponent(url.password);
	return {
		origin: `http://${url.host}`,
		hostname: normalizeHost(url.hostname),
		port: url.port === "" ? 80 : Number(url.port),
		authorization:
			user === "" && password === "" ? undefined : `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
	};
}

/** The proxy for a request to `url` under `env`, or undefined to connect directly. */
export function proxyFor(url: URL, env: ProxyEnv): ProxyServer | undefined {
	const value =
		url.protocol === "https:"
			? (envValue(env, "https_proxy") ?? envValue(env, "http_proxy"))
			: envValue(env, "http_proxy");
	if (value === undefined || isProxyBypassed(url, envValue(env, "no_proxy"))) return undefined;
	return parseProxyUrl(value);
}

export function proxyRefusedMessage(proxy: ProxyServer, target: string, status: number): string {
	return `The proxy ${proxy.origin} refused to connect to ${target} (HTTP ${status})`;
}

export function proxyUnreachable(proxy: ProxyServer, error: Error): Error {
	return new Error(`Could not reach the proxy ${proxy.origin}: ${error.message}`, { cause: error });
}

/** How long the proxy may take to answer a CONNECT (it connects to the target first) before the tunnel fails. */
const CONNECT_TIMEOUT_MS = 30_000;

/** Opens a CONNECT tunnel through `proxy` to `host:port`: the raw socket, for TLS to the target on top. */
export function openTunnel(proxy: ProxyServer, host: string, port: number): Promise<Socket> {
	const target = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
	return new Promise((resolve, reject) => {
		const headers: Record<string, string> = { host: target };
		if (proxy.authorization) headers["proxy-authorization"] = proxy.authorization;
		const request = nodeHttp().request({
			hostname: proxy.hostname,
			port: proxy.port,
			method: "CONNECT",
			path: target,
			headers,
			agent: false,
			timeout: CONNECT_TIMEOUT_MS,
		});
		request.once("connect", (response, socket, head) => {
			const status = response.statusCode ?? 0;
			if (status < 200 || status >= 300) {
				socket.destroy();
				reject(new Error(proxyRefusedMessage(proxy, target, status)));
				return;
			}
			// Bytes the proxy sent past its reply would be the target's: none may come before our TLS hello.
			if (head.byteLength > 0) {
				socket.destroy();
				reject(new Error(`The proxy ${proxy.origin} sent data before the tunnel to ${target} was in use`));
				return;
			}
			resolve(socket);
		});
		// A proxy that answers CONNECT with a plain response (no upgrade) is a refusal too.
		request.once("response", (response) => {
			response.destroy();
			reject(new Error(proxyRefusedMessage(proxy, target, response.statusCode ?? 0)));
		});
		request.once("timeout", () => request.destroy(new Error(`The proxy ${proxy.origin} did not answer in time`)));
		request.once("error", (error) => reject(proxyUnreachable(proxy, error)));
		request.end();
	});
}
