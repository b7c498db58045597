// Web Crypto (the global `crypto`) rather than node:crypto: an ES-module import of node:crypto reads every export
// of it, Web Crypto included (~6 ms on Node 20), and a program importing the package need not pay that for a login
// it may never start.

/** A PKCE pair (RFC 7636): a random verifier and its S256 challenge. */
export async function generatePKCE(): Promise<{ verifier: string; challenge: string }> {
	const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
	return { verifier, challenge: Buffer.from(digest).toString("base64url") };
}

/** An unguessable `state` value for an authorization request. */
export function createState(): string {
	return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");
}
