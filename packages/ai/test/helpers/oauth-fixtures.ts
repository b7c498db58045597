// Fixtures for the sign-in flows: a Codex-style access token (a JWT naming a ChatGPT account), a browser that
// follows an authorization URL to the local callback server, and a deferred value for pasted input.
import { createHash } from "node:crypto";

export function codexAccessToken(accountId: string, extra: Record<string, unknown> = {}): string {
	const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
	return `${part({ alg: "none" })}.${part({ "https://api.openai.com/auth": { chatgpt_account_id: accountId }, ...extra })}.sig`;
}

/** What a browser does after the user signs in: it loads the redirect URI with the code and the state. */
export async function followRedirect(authorizationUrl: string, code: string, state?: string): Promise<Response> {
	const url = new URL(authorizationUrl);
	const redirect = new URL(url.searchParams.get("redirect_uri") as string);
	redirect.searchParams.set("code", code);
	redirect.searchParams.set("state", state ?? (url.searchParams.get("state") as string));
	return fetch(redirect);
}

export function s256(verifier: string): string {
	return createHash("sha256").update(verifier).digest("base64url");
}

export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
	let resolve: (value: T) => void = () => undefined;
	const promise = new Promise<T>((r) => {
		resolve = r;
	});
	return { promise, resolve };
}

export function formOf(rawBody: string): Record<string, string> {
	return Object.fromEntries(new URLSearchParams(rawBody));
}
