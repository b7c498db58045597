// The local end of an authorization-code flow: a server on 127.0.0.1 that receives the browser's redirect, and
// the fallback for a browser on another machine, where the user pastes the redirect URL (or the code) instead.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { nodeHttp } from "../providers/node-http.js";
import { LOGIN_CANCELLED_MESSAGE, type OAuthLoginCallbacks } from "./types.js";

export const STATE_MISMATCH_MESSAGE = "OAuth state mismatch: the authorization did not come from this login";
export const NO_CODE_MESSAGE = "No authorization code received";
export const PASTE_PROMPT = "Paste the redirect URL from the browser's address bar (or the authorization code):";

const page = (title: string, text: string) =>
	`<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p>`;
const SUCCESS_PAGE = page("Signed in", "You can close this tab and return to the terminal.");

export interface CallbackServerOptions {
	/** The port the provider has registered for this client (0 in tests: any free port). */
	port: number;
	path: string;
	/** The state sent with the authorization request; a redirect with another one is refused. */
	state: string;
	/** Host name in the redirect URI (what the provider registered); the server listens on 127.0.0.1 only. */
	redirectHost?: string;
}

export interface CallbackServer {
	readonly redirectUri: string;
	/** Resolves with the code of the first redirect that carries this login's state. */
	readonly code: Promise<string>;
	close(): void;
}

/** Starts the callback server; undefined when its port cannot be bound (another login running, a remote shell). */
export async function startCallbackServer(options: CallbackServerOptions): Promise<CallbackServer | undefined> {
	let deliver: (code: string) => void = () => undefined;
	const code = new Promise<string>((resolve) => {
		deliver = resolve;
	});
	const server: Server = nodeHttp().createServer((request, response) => {
		const url = new URL(request.url ?? "/", "http://127.0.0.1");
		if (url.pathname !== options.path) {
			response.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
			return;
		}
		const error = url.searchParams.get("error");
		const received = url.searchParams.get("code");
		if (url.searchParams.get("state") !== options.state) {
			response.writeHead(400, { "Content-Type": "text/html" }).end(page("Sign-in failed", STATE_MISMATCH_MESSAGE));
			return;
		}
		if (error || !received) {
			const reason = (url.searchParams.get("error_description") ?? error ?? NO_CODE_MESSAGE).replace(/[<&>]/g, "");
			response.writeHead(400, { "Content-Type": "text/html" }).end(page("Sign-in failed", reason));
			return;
		}
		response.writeHead(200, { "Content-Type": "text/html" }).end(SUCCESS_PAGE);
		deliver(received);
	});
	const bound = await new Promise<boolean>((resolve) => {
		server.once("error", () => resolve(false));
		server.listen(options.port, "127.0.0.1", () => resolve(true));
	});
	if (!bound) return undefined;
	const { port } = server.address() as AddressInfo;
	return {
		redirectUri: `http://${options.redirectHost ?? "localhost"}:${port}${options.path}`,
		code,
		close: () => {
			server.close();
			server.closeAllConnections();
		},
	};
}

/**
 * What a user pasted: a full redirect URL, `code#state`, a query string (`code=…&state=…`), or the bare code.
 */
export function parseAuthorizationInput(input: string): { code?: string; state?: string } {
	const value = input.trim();
	if (!value) return {};
	try {
		const url = new URL(value);
		return {
			code: url.searchParams.get("code") ?? undefined,
			state: url.searchParams.get("state") ?? undefined,
		};
	} catch {
		// Not a URL.
	}
	if (value.includes("#")) {
		const [code, state] = value.split("#", 2);
		return { code: code || undefined, state: state || undefined };
	}
	if (value.includes("code=")) {
		const params = new URLSearchParams(value.startsWith("?") ? value.slice(1) : value);
		return { code: params.get("code") ?? undefined, state: params.get("state") ?? undefined };
	}
	return { code: value };
}

function codeFromPaste(input: string, state: string): string {
	const parsed = parseAuthorizationInput(input);
	if (parsed.state !== undefined && parsed.state !== state) throw new Error(STATE_MISMATCH_MESSAGE);
	if (!parsed.code) throw new Error(NO_CODE_MESSAGE);
	return parsed.code;
}

function cancelled(signal: AbortSignal | undefined): Promise<never> {
	return new Promise((_, reject) => {
		if (signal?.aborted) reject(new Error(LOGIN_CANCELLED_MESSAGE));
		signal?.addEventListener("abort", () => reject(new Error(LOGIN_CANCELLED_MESSAGE)), { once: true });
	});
}

/**
 * The authorization code, from whichever comes first: the browser's redirect to the callback server, or what the
 * user pastes (`onManualCodeInput`). Without a server (its port was taken) the user is asked to paste.
 */
export async function obtainAuthorizationCode(
	server: CallbackServer | undefined,
	state: string,
	callbacks: OAuthLoginCallbacks,
): Promise<string> {
	const sources: Promise<string>[] = [cancelled(callbacks.signal)];
	if (server) sources.push(server.code);
	if (callbacks.onManualCodeInput) {
		sources.push(callbacks.onManualCodeInput().then((input) => codeFromPaste(input, state)));
	} else if (!server) {
		sources.push(callbacks.onPrompt({ message: PASTE_PROMPT }).then((input) => codeFromPaste(input, state)));
	}
	return Promise.race(sources);
}
