// Removes secrets from what tools return before the model sees them (and before they are stored in the
// session): API keys, tokens, private keys and `KEY=value` lines of .env-style files. Tool results that
// failed are not changed (the session does not apply patches to them).
import type { ExtensionAPI } from "@agent/coding-agent";

const REDACTED = "[REDACTED]";

const PATTERNS: RegExp[] = [
	/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
	/\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}\b/g,
	/\bgh[pousr]_[A-Za-z0-9]{20,}\b/g,
	/\bAKIA[0-9A-Z]{16}\b/g,
	/\bxox[abpr]-[A-Za-z0-9-]{10,}\b/g,
	/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g,
];

/** Assignments whose name says they hold a secret: `API_KEY=…`, `db_password: …`, `"token": "…"`. */
const SECRET_ASSIGNMENT =
	/((?:^|[\s"'{,])[A-Za-z0-9_.-]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD)["']?\s*[:=]\s*["']?)([^\s"',}]+)/gi;

export function redactSecrets(text: string): string {
	let result = text;
	for (const pattern of PATTERNS) result = result.replace(pattern, REDACTED);
	return result.replace(SECRET_ASSIGNMENT, (_match, name: string, value: string) =>
		value === REDACTED ? `${name}${value}` : `${name}${REDACTED}`,
	);
}

export default function redact(pi: ExtensionAPI): void {
	pi.on("tool_result", (event) => {
		let changed = false;
		const content = event.content.map((block) => {
			if (block.type !== "text") return block;
			const text = redactSecrets(block.text);
			if (text !== block.text) changed = true;
			return { ...block, text };
		});
		return changed ? { content } : undefined;
	});
}
