// The fetch for the agent's HTTP requests other than a provider's reply (streamProxy, remote MCP servers): the
// same client as provider requests (http-transport.ts), so HTTP(S)_PROXY and NO_PROXY apply to them too. The
// client is loaded on first use, so importing the package does not load node:https, TLS and zlib.

/**
 * `fetch` over the agent's HTTP client: proxy variables honoured, a standard `Response`, gzip/deflate/br
 * decoded. Redirects are returned, not followed (credentials are never sent on to another server by it).
 */
export async function httpFetch(input: string | URL, init?: RequestInit): Promise<Response> {
	const { defaultHttpTransport } = await import("./http-transport.js");
	return defaultHttpTransport.fetch(input, init);
}
