// Keeps the model's write and edit tools (and obvious shell redirections) away from files that must not be
// changed by hand: secrets, the git directory, installed dependencies, lock files. Extend the list with
// `--protected "dist/,*.pem"`.

import { relative, resolve } from "node:path";
import type { ExtensionAPI } from "@agent/coding-agent";
import { isToolCallEventType } from "@agent/coding-agent";

const DEFAULT_PROTECTED = [".env", ".env.*", ".git/", "node_modules/", "package-lock.json", "pnpm-lock.yaml"];

function globToRegExp(glob: string): RegExp {
	const escaped = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
	return new RegExp(`^${escaped}$`);
}

/** True when `path` (relative to the project) is or lies inside a protected entry. */
export function isProtected(path: string, patterns: readonly string[]): boolean {
	const parts = path.split("/");
	return patterns.some((pattern) => {
		if (pattern.endsWith("/"))
			return parts.slice(0, -1).includes(pattern.slice(0, -1)) || path === pattern.slice(0, -1);
		const matcher = globToRegExp(pattern);
		return pattern.includes("/") ? matcher.test(path) : matcher.test(parts.at(-1) ?? path);
	});
}

/** Paths a shell command writes with `>`, `>>` or `tee`. */
function shellTargets(command: string): string[] {
	const targets: string[] = [];
	for (const match of command.matchAll(/(?:>>?|\btee\s+(?:-a\s+)?)\s*([^\s;&|]+)/g)) targets.push(match[1] as string);
	return targets;
}

export default function protectedPaths(pi: ExtensionAPI): void {
	pi.registerFlag("protected", { description: "More protected paths, comma-separated", type: "string" });

	const patterns = (): string[] => {
		const extra = pi.getFlag("protected");
		return [...DEFAULT_PROTECTED, ...(typeof extra === "string" ? extra.split(",").map((p) => p.trim()) : [])];
	};

	pi.on("tool_call", (event, ctx) => {
		let targets: string[] = [];
		if (isToolCallEventType("write", event) || isToolCallEventType("edit", event)) targets = [event.input.path];
		else if (isToolCallEventType("bash", event)) targets = shellTargets(event.input.command);
		for (const target of targets) {
			const path = relative(ctx.cwd, resolve(ctx.cwd, target.replace(/^@/, "")));
			if (isProtected(path, patterns())) {
				return { block: true, reason: `Path "${path}" is protected; leave it to the user.` };
			}
		}
		return undefined;
	});
}
