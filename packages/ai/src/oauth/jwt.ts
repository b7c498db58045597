/** The payload of a JWT, without verifying it (the token came from the issuer over TLS); undefined if malformed. */
export function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
	const payload = token.split(".")[1];
	if (!payload) return undefined;
	try {
		const value: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
		return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

const OPENAI_AUTH_CLAIM = "https://api.openai.com/auth";

/** The ChatGPT account a Codex access token belongs to (sent as `chatgpt-account-id`). */
export function chatgptAccountId(accessToken: string): string | undefined {
	const claim = decodeJwtPayload(accessToken)?.[OPENAI_AUTH_CLAIM];
	if (typeof claim !== "object" || claim === null) return undefined;
	const id = (claim as Record<string, unknown>).chatgpt_account_id;
	return typeof id === "string" && id.length > 0 ? id : undefined;
}
