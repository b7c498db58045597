// Asks before the model runs a dangerous shell command; without a UI to ask (print and JSON modes) such a
// command is blocked. Load it with `agent -e examples/extensions/permission-gate.ts`.
import type { ExtensionAPI } from "@agent/coding-agent";
import { isToolCallEventType } from "@agent/coding-agent";

const DANGEROUS: { pattern: RegExp; why: string }[] = [
	{ pattern: /\brm\s+(-[a-zA-Z]*[rf][a-zA-Z]*\s+)+/, why: "recursive or forced delete" },
	{ pattern: /\bsudo\b/, why: "runs as root" },
	{ pattern: /\bchmod\s+(-R\s+)?0?777\b/, why: "makes files world-writable" },
	{ pattern: /\b(mkfs|fdisk|wipefs)\b/, why: "formats a disk" },
	{ pattern: /\bdd\b.*\bof=\/dev\//, why: "writes to a device" },
	{ pattern: /\bgit\s+push\b.*(--force\b|-f\b)/, why: "force-pushes" },
	{ pattern: /\bgit\s+reset\s+--hard\b/, why: "discards changes" },
	{ pattern: /\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z)?sh\b/, why: "pipes a download into a shell" },
];

/** Why a command is dangerous, or undefined when it is not. */
export function dangerOf(command: string): string | undefined {
	return DANGEROUS.find(({ pattern }) => pattern.test(command))?.why;
}

/** How long the user has to answer before the command is blocked. */
const ANSWER_TIMEOUT_MS = 60_000;

export default function permissionGate(pi: ExtensionAPI): void {
	pi.on("tool_call", async (event, ctx) => {
		if (!isToolCallEventType("bash", event)) return undefined;
		const why = dangerOf(event.input.command);
		if (!why) return undefined;
		if (!ctx.hasUI) {
			return { block: true, reason: `Blocked a dangerous command (${why}); no user is here to allow it.` };
		}
		const allowed = await ctx.ui.confirm(`Allow a dangerous command? (${why})`, event.input.command, {
			timeout: ANSWER_TIMEOUT_MS,
		});
		return allowed ? undefined : { block: true, reason: `The user did not allow this command (${why}).` };
	});
}
