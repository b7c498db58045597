import { createHash, randomBytes } from "node:crypto";

/** A PKCE pair (RFC 7636): a random verifier and its S256 challenge. */
export async function generatePKCE(): Promise<{ verifier: string; challenge: string }> {
	const verifier = randomBytes(32).toString("base64url");
	const challenge = createHash("sha256").update(verifier).digest("base64url");
	return { verifier, challenge };
}

/** An unguessable `state` value for an authorization request. */
export function createState(): string {
	return randomBytes(16).toString("hex");
}
