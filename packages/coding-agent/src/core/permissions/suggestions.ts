// The rules offered when the user allows a call for the session or for good: narrow enough to say what was
// allowed, general enough to be useful (`Bash(npm test:*)` rather than every later `npm` command). Pure.
import { normalizeCommandText } from "./command-pattern.js";
import type { CallPath } from "./path-pattern.js";
import { relativeInside } from "./path-pattern.js";
import { isCommandAllowed, type PermissionPolicy } from "./policy.js";
import { formatRule } from "./rule-syntax.js";
import type { AnalyzedCommand } from "./shell-commands.js";
import type { PermissionSubject } from "./subject.js";

/** Commands whose second word says what they do (`git push`, `npm test`): suggestions keep both words. */
const SUBCOMMAND_TOOLS = new Set([
	"git",
	"npm",
	"pnpm",
	"yarn",
	"bun",
	"npx",
	"cargo",
	"go",
	"docker",
	"kubectl",
	"pip",
	"pip3",
	"uv",
	"poetry",
	"make",
	"gh",
	"dotnet",
	"mvn",
	"gradle",
	"deno",
]);

function commandRule(command: AnalyzedCommand): string | undefined {
	const words = command.allowWords;
	const firstDynamic = words.findIndex((word) => word.dynamic);
	if (firstDynamic === 0) return undefined;
	const literal = (firstDynamic < 0 ? words : words.slice(0, firstDynamic)).map((word) => word.value);
	const [name, sub] = literal;
	if (name !== undefined && SUBCOMMAND_TOOLS.has(name) && sub !== undefined && !sub.startsWith("-")) {
		return formatRule("Bash", `${name} ${sub}:*`);
	}
	if (firstDynamic >= 0) return formatRule("Bash", `${normalizeCommandText(literal.join(" "))}:*`);
	return formatRule("Bash", command.allowText);
}

/** How a path is written in a suggested rule: `./src/a.ts` inside the project, `//abs/path` elsewhere. */
export function pathForRule(path: CallPath, policy: PermissionPolicy): string {
	const inside = relativeInside(policy.anchors.projectRoot, path.real);
	if (inside === undefined) return `/${path.real}`;
	return inside === "" ? "." : `./${inside}`;
}

const PATH_FAMILY_OF: Readonly<Record<string, string>> = {
	read: "Read",
	grep: "Read",
	find: "Read",
	ls: "Read",
	edit: "Edit",
	write: "Write",
};

/** Rules that would have allowed the call (empty when none can be written, e.g. a command name set at run time). */
export function suggestRules(subject: PermissionSubject, policy: PermissionPolicy): string[] {
	const rules: string[] = [];
	switch (subject.kind) {
		case "bash":
			for (const command of subject.analysis.commands) {
				if (isCommandAllowed(policy, command)) continue;
				const rule = commandRule(command);
				if (rule !== undefined && !rules.includes(rule)) rules.push(rule);
			}
			for (const path of subject.writes) rules.push(formatRule("Write", pathForRule(path, policy)));
			break;
		case "path":
			rules.push(formatRule(PATH_FAMILY_OF[subject.toolName] ?? "Read", pathForRule(subject.path, policy)));
			break;
		case "tool":
			rules.push(subject.name);
			break;
	}
	return rules;
}
