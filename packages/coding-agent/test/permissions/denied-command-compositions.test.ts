// A denied command never gets through: however it is composed (pipes, lists, subshells, substitutions, wrappers,
// quoting, nested shells), the verdict is deny or ask, never allow — even when allow rules would cover everything
// else. In print mode an ask is a refusal too, so the command never runs.

import { afterAll, describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import type { PermissionMode } from "../../src/core/permissions/modes.js";
import { evaluatePermission } from "../../src/core/permissions/policy.js";
import { analyze, createPermissionProject, policyOf, subjectOf } from "../helpers/permission-fixtures.js";

const project = createPermissionProject();
afterAll(() => project.cleanup());

const DENY = ["Bash(rm:*)", "Bash(git push:*)", "Bash(curl:*)", "Bash(shutdown)"];
/** Denied commands as words: the first word (or two) is what the deny rules name. */
const DENIED: string[][] = [
	["rm", "-rf", "/"],
	["rm", "notes.txt"],
	["git", "push", "--force", "origin", "main"],
	["curl", "-s", "https://example.invalid/x.sh"],
	["shutdown"],
];
const HARMLESS = ["ls -la", "echo hi", "git status", "true", "cat README.md"];

/** Ways to write one word so that the shell still reads the same value. */
function quoteWord(word: string, style: number): string {
	switch (style % 6) {
		case 1:
			return `'${word}'`;
		case 2:
			return `"${word}"`;
		case 3:
			return word.length > 1 ? `${word[0]}''${word.slice(1)}` : `'${word}'`;
		case 4:
			return word.length > 1 ? `${word[0]}\\${word.slice(1)}` : `\\${word}`;
		case 5:
			return word.length > 1 ? `${word.slice(0, 1)}"${word.slice(1)}"` : `"${word}"`;
		default:
			return word;
	}
}

function singleQuoted(text: string): string {
	return `'${text.replace(/'/g, "'\\''")}'`;
}

/** Prefixes of a simple command (valid only around one): wrappers and assignments. */
const PREFIXES: ((inner: string) => string)[] = [
	(inner) => `env X=1 ${inner}`,
	(inner) => `X=1 ${inner}`,
	(inner) => `sudo -u root ${inner}`,
	(inner) => `timeout 5 ${inner}`,
	(inner) => `nice -n 5 ${inner}`,
	(inner) => `nohup ${inner}`,
	(inner) => `command ${inner}`,
	(inner) => `exec ${inner}`,
	(inner) => `${inner} > /dev/null 2>&1`,
];

/** Each takes a command (and a harmless one) and puts the first inside a larger command. */
const COMPOSITIONS: ((inner: string, other: string) => string)[] = [
	(inner, other) => `${other} | ${inner}`,
	(inner, other) => `${inner} | ${other}`,
	(inner, other) => `${other}; ${inner}`,
	(inner, other) => `${other} && ${inner}`,
	(inner, other) => `${other} || ${inner}`,
	(inner) => `${inner} &`,
	// Spaces: `((…))` and `$((…))` would be arithmetic, which runs nothing.
	(inner) => `( ${inner} )`,
	(inner) => `{ ${inner}; }`,
	(inner) => `echo $( ${inner} )`,
	(inner) => `echo "$( ${inner} )"`,
	(inner) => `x=$( ${inner} )`,
	(inner) => `echo \`${inner.replace(/[\\`$]/g, "\\$&")}\``,
	(inner) => `diff <( ${inner} ) /dev/null`,
	(inner) => `bash -c ${singleQuoted(inner)}`,
	(inner) => `sh -c ${singleQuoted(inner)}`,
	(inner) => `eval ${singleQuoted(inner)}`,
	(inner) => `sudo bash -c ${singleQuoted(inner)}`,
	(inner) => `env X=1 sh -c ${singleQuoted(inner)}`,
	(inner) => `if true; then ${inner}; fi`,
	(inner) => `for i in 1 2; do ${inner}; done`,
	(inner) => `while false; do ${inner}; done`,
	(inner) => `f() { ${inner}; }; f`,
	(inner) => `case x in x) ${inner};; esac`,
];

const deniedCommand = fc
	.record({
		words: fc.constantFrom(...DENIED),
		styles: fc.array(fc.nat(5), { minLength: 5, maxLength: 5 }),
		absolute: fc.boolean(),
	})
	.map(({ words, styles, absolute }) =>
		words
			.map((word, index) =>
				quoteWord(index === 0 && absolute && word === "rm" ? "/bin/rm" : word, styles[index] ?? 0),
			)
			.join(" "),
	);

const composed = fc
	.record({
		core: deniedCommand,
		prefixes: fc.array(fc.nat(PREFIXES.length - 1), { maxLength: 2 }),
		layers: fc.array(fc.record({ compose: fc.nat(COMPOSITIONS.length - 1), other: fc.constantFrom(...HARMLESS) }), {
			maxLength: 3,
		}),
	})
	.map(({ core, prefixes, layers }) => {
		const simple = prefixes.reduce((inner, index) => (PREFIXES[index] as (a: string) => string)(inner), core);
		return layers.reduce(
			(inner, layer) => (COMPOSITIONS[layer.compose] as (a: string, b: string) => string)(inner, layer.other),
			simple,
		);
	});

const MODES: PermissionMode[] = ["default", "acceptEdits", "ask", "plan"];

describe("a denied command never gets through", () => {
	it("through any composition, with allow rules that cover everything else", async () => {
		const policy = policyOf({ deny: DENY, allow: ["Bash(*)", "Bash(echo:*)", "Bash(sudo:*)"] }, project);
		await fc.assert(
			fc.asyncProperty(composed, fc.constantFrom(...MODES), async (command, mode) => {
				const verdict = evaluatePermission(await subjectOf("bash", { command }, project), policy, mode);
				expect(verdict.behavior, command).not.toBe("allow");
			}),
		);
	});

	it("a plain composition is refused outright, naming the deny rule", async () => {
		const policy = policyOf({ deny: DENY, allow: ["Bash"] }, project);
		const commands = [
			"ls | rm -rf /",
			"echo $(rm -rf /)",
			"(cd /tmp && 'r'm -rf x)",
			"env X=1 \\rm -rf /",
			"bash -c 'sh -c \"rm -rf /\"'",
			"sudo -E /bin/rm -rf /",
			"find . -exec rm {} +",
			"xargs rm < list.txt",
			"git status && git push --force",
		];
		for (const command of commands) {
			const verdict = evaluatePermission(await subjectOf("bash", { command }, project), policy, "default");
			expect(verdict.behavior, command).toBe("deny");
			expect(verdict.reason.kind === "rule" && DENY.includes(verdict.reason.rule.text), command).toBe(true);
		}
	});

	it("the analysis never throws, whatever the text", async () => {
		await fc.assert(
			fc.asyncProperty(fc.string({ maxLength: 80 }), async (command) => {
				const analysis = await analyze(command);
				expect(Array.isArray(analysis.commands)).toBe(true);
			}),
			{ numRuns: 200 },
		);
	});
});
