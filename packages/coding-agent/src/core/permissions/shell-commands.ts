// What a bash command runs, for permission rules: every simple command of the script (shell-parser.ts), each
// seen through the programs that run other programs. Pure (given the parser).
//
// Deny and ask rules must not be dodged: each command is offered to them as written, without its wrappers
// (`env X=1`, `sudo`, `timeout 5`, `nice`, `xargs`, …, also every tail after such a wrapper, so an option we do
// not know cannot hide the command), and with the command name's directory dropped (`/bin/rm` → `rm`). Commands
// that run other commands contribute those too: `bash -c "…"`, `sh -c`, `eval`, `su -c`, `watch`, `alias x='…'`
// (parsed again), `find -exec … ;`, `xargs cmd`. Allow rules are stricter: a command is allowed only as written,
// minus wrappers that change nothing about what runs (`env X=1`, `timeout`, `nice`, `nohup`, `time`, `command`,
// `exec`, `stdbuf`), and setting PATH, LD_PRELOAD, NODE_OPTIONS and the like keeps a command from matching.
import { normalizeCommandText } from "./command-pattern.js";
import type { ShellAssignment, ShellCall, ShellParser, ShellWord } from "./shell-parser.js";

/** One command of a bash call, as the rules see it. */
export interface AnalyzedCommand {
	/** The command as written (dynamic words as written): for messages. */
	text: string;
	/** What allow rules are matched against. */
	allowText: string;
	/** The words of `allowText` (for suggested rules). */
	allowWords: readonly ShellWord[];
	/** Everything deny and ask rules are matched against. */
	denyTexts: readonly string[];
	/**
	 * For each form with a word only known at run time: its literal words before that one (with a trailing
	 * space). A deny or ask rule that could match a command starting so makes the call ask.
	 */
	dynamicPrefixes: readonly string[];
	/** Cannot change anything on its own (plan mode runs it). */
	readOnly: boolean;
}

export interface BashAnalysis {
	commands: AnalyzedCommand[];
	/** Files output redirections create or change (`> out.txt`), as written. */
	writes: string[];
	/** Why some of what runs can only be known when it runs; each makes the call ask (when anything could object). */
	unknowns: string[];
}

const MAX_NESTING = 4;

/** Variables that change which program runs or what it loads: setting one keeps a command from allow rules. */
const RISKY_VARIABLE =
	/^(PATH|IFS|ENV|BASH_ENV|CDPATH|GLOBIGNORE|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|LD_\w+|DYLD_\w+|NODE_OPTIONS|NODE_PATH|PYTHON\w*|PERL5\w*|PERLLIB|RUBY\w*|GIT_\w+|PAGER|MANPAGER|EDITOR|VISUAL|BROWSER|npm_config_\w+|NPM_CONFIG_\w+)$/i;

export function isRiskyVariable(name: string): boolean {
	return RISKY_VARIABLE.test(name);
}

const DEVICE_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox-sh"]);

function basenameOf(name: string): string {
	const slash = name.lastIndexOf("/");
	return slash >= 0 && slash < name.length - 1 ? name.slice(slash + 1) : name;
}

function join(words: readonly ShellWord[]): string {
	return normalizeCommandText(words.map((word) => word.value).join(" "));
}

function nameOf(words: readonly ShellWord[]): string | undefined {
	const first = words[0];
	return first && !first.dynamic ? basenameOf(first.value) : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Option scanning of wrappers
// ---------------------------------------------------------------------------------------------------------

interface OptionSpec {
	/** Options followed by a value (`-u root`; `-uroot` and `--user=root` are recognised too). */
	valued: readonly string[];
	/** Operands before the command (timeout's duration, flock's file). */
	operands?: number;
	/** Stop at the first word that does not start with `-` (most wrappers); `env` also skips NAME=VALUE. */
	assignments?: boolean;
}

/** The index of the wrapped command's first word, or undefined when there is none. */
function wrappedCommandIndex(words: readonly ShellWord[], spec: OptionSpec): number | undefined {
	let index = 1;
	while (index < words.length) {
		const word = words[index] as ShellWord;
		if (word.dynamic) return index;
		const value = word.value;
		if (value === "--") {
			index++;
			break;
		}
		if (value.startsWith("-") && value.length > 1) {
			const long = value.startsWith("--");
			const name = long ? value.split("=", 1)[0] : value.slice(0, 2);
			const attached = long ? value.includes("=") : value.length > 2;
			index += spec.valued.includes(name as string) && !attached ? 2 : 1;
			continue;
		}
		if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) {
			index++;
			continue;
		}
		break;
	}
	index += spec.operands ?? 0;
	return index < words.length ? index : undefined;
}

interface Wrapper extends OptionSpec {
	/** Changes nothing about what the wrapped command does: allow rules see through it. */
	harmless: boolean;
}

const WRAPPERS: Readonly<Record<string, Wrapper>> = {
	env: { harmless: true, valued: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"], assignments: true },
	timeout: { harmless: true, valued: ["-k", "--kill-after", "-s", "--signal"], operands: 1 },
	nice: { harmless: true, valued: ["-n", "--adjustment"] },
	nohup: { harmless: true, valued: [] },
	time: { harmless: true, valued: ["-f", "--format", "-o", "--output"] },
	stdbuf: { harmless: true, valued: ["-i", "-o", "-e", "--input", "--output", "--error"] },
	command: { harmless: true, valued: [] },
	builtin: { harmless: true, valued: [] },
	exec: { harmless: true, valued: ["-a"] },
	sudo: {
		harmless: false,
		valued: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group", "--chdir", "--prompt"],
	},
	doas: { harmless: false, valued: ["-u", "-C"] },
	setsid: { harmless: false, valued: [] },
	ionice: { harmless: false, valued: ["-c", "-n", "-t", "--class", "--classdata"] },
	chrt: { harmless: false, valued: [], operands: 1 },
	taskset: { harmless: false, valued: [], operands: 1 },
	chroot: { harmless: false, valued: ["--userspec", "--groups"], operands: 1 },
	flock: { harmless: false, valued: ["-w", "--timeout", "-E", "--conflict-exit-code"], operands: 1 },
	unbuffer: { harmless: false, valued: [] },
	busybox: { harmless: false, valued: [] },
	strace: { harmless: false, valued: ["-o", "-e", "-p", "-s", "-u"] },
	ltrace: { harmless: false, valued: ["-o", "-e", "-p", "-s", "-u"] },
	xargs: {
		harmless: false,
		valued: [
			"-a",
			"-d",
			"-E",
			"-I",
			"-L",
			"-n",
			"-P",
			"-s",
			"--arg-file",
			"--delimiter",
			"--eof",
			"--replace",
			"--max-lines",
			"--max-args",
			"--max-procs",
			"--max-chars",
			"--process-slot-var",
		],
	},
};

/** `-c STRING` of shells, `su`, `script` and `flock`: the string is a script of its own. */
function commandStringOf(words: readonly ShellWord[]): ShellWord | undefined {
	for (let i = 1; i < words.length; i++) {
		const value = (words[i] as ShellWord).value;
		if (value === "-c" || value === "--command") return words[i + 1];
		if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(value) && !value.startsWith("--")) return words[i + 1];
		if (value.startsWith("--command=")) return { value: value.slice("--command=".length), dynamic: false };
	}
	return undefined;
}

/** `find … -exec cmd {} ;`: each embedded command (`{}` and what find adds are only known when it runs). */
function findExecCommands(words: readonly ShellWord[]): ShellWord[][] {
	const commands: ShellWord[][] = [];
	for (let i = 1; i < words.length; i++) {
		const value = (words[i] as ShellWord).value;
		if (value !== "-exec" && value !== "-execdir" && value !== "-ok" && value !== "-okdir") continue;
		const command: ShellWord[] = [];
		let j = i + 1;
		for (; j < words.length; j++) {
			const word = words[j] as ShellWord;
			if (!word.dynamic && (word.value === ";" || word.value === "+")) break;
			command.push(word.value.includes("{}") ? { value: word.value, dynamic: true } : word);
		}
		if (command.length > 0) commands.push(command);
		i = j;
	}
	return commands;
}

// ---------------------------------------------------------------------------------------------------------
// Read-only commands (plan mode)
// ---------------------------------------------------------------------------------------------------------

const READ_ONLY_COMMANDS = new Set([
	"ls",
	"cat",
	"head",
	"tail",
	"wc",
	"grep",
	"egrep",
	"fgrep",
	"tree",
	"pwd",
	"echo",
	"printf",
	"true",
	"false",
	"test",
	"[",
	"which",
	"type",
	"whereis",
	"file",
	"stat",
	"du",
	"df",
	"date",
	"uname",
	"whoami",
	"id",
	"hostname",
	"printenv",
	"basename",
	"dirname",
	"realpath",
	"readlink",
	"diff",
	"cmp",
	"comm",
	"cut",
	"tr",
	"nl",
	"od",
	"hexdump",
	"md5sum",
	"sha1sum",
	"sha256sum",
	"sha512sum",
	"cksum",
	"column",
	"seq",
	"cd",
	"jq",
	"less",
	"more",
	"ps",
	"uptime",
	"expr",
	"sleep",
]);

const READ_ONLY_GIT = new Set([
	"status",
	"log",
	"diff",
	"show",
	"blame",
	"grep",
	"ls-files",
	"ls-tree",
	"rev-parse",
	"rev-list",
	"describe",
	"shortlog",
	"cat-file",
	"merge-base",
	"name-rev",
]);

const FIND_ACTIONS_THAT_CHANGE = new Set([
	"-exec",
	"-execdir",
	"-ok",
	"-okdir",
	"-delete",
	"-fprint",
	"-fprint0",
	"-fprintf",
	"-fls",
]);

function isReadOnlyCommand(words: readonly ShellWord[]): boolean {
	const name = nameOf(words);
	if (name === undefined) return false;
	const args = words.slice(1).map((word) => word.value);
	if (READ_ONLY_COMMANDS.has(name)) return true;
	switch (name) {
		case "rg":
			return !args.some((arg) => arg === "--pre" || arg.startsWith("--pre="));
		case "fd":
		case "fdfind":
			return !args.some((arg) => ["-x", "-X", "--exec", "--exec-batch"].includes(arg.split("=", 1)[0] as string));
		case "find":
			return !args.some((arg) => FIND_ACTIONS_THAT_CHANGE.has(arg));
		case "sort":
			return !args.some((arg) => arg === "-o" || arg.startsWith("--output") || /^-[a-zA-Z]*o/.test(arg));
		case "env":
			return args.every((arg) => arg.startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg));
		case "command":
			return args.some((arg) => /^-[vV]$/.test(arg));
		case "git": {
			const sub = args[0];
			if (sub === undefined) return true;
			if (args.some((arg) => arg.startsWith("--output") || arg === "--ext-diff")) return false;
			if (READ_ONLY_GIT.has(sub)) return true;
			const rest = args.slice(1);
			if (sub === "branch")
				return rest.every((arg) => /^(-a|-r|-v|-vv|--all|--remotes|--list|--show-current)$/.test(arg));
			if (sub === "tag") return rest.length === 0 || rest.every((arg) => arg === "-l" || arg === "--list");
			if (sub === "remote") return rest.length === 0 || (rest.length === 1 && rest[0] === "-v");
			if (sub === "stash") return rest[0] === "list" || rest[0] === "show";
			if (sub === "config") return rest.some((arg) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(arg));
			return false;
		}
		default:
			return false;
	}
}

// ---------------------------------------------------------------------------------------------------------
// Analysis
// ---------------------------------------------------------------------------------------------------------

/** Every form the deny and ask rules see: as written, each tail after a wrapper, names without directories. */
function denyForms(words: readonly ShellWord[]): ShellWord[][] {
	const forms: ShellWord[][] = [[...words]];
	let current = words;
	for (let guard = 0; guard < 8; guard++) {
		const name = nameOf(current);
		if (name === undefined || !WRAPPERS[name]) break;
		// `command -v rm` only looks a name up.
		if (name === "command" && current.some((word, i) => i > 0 && /^-[vV]$/.test(word.value))) break;
		// Every tail: an option we read wrongly cannot hide the command after it.
		for (let i = 1; i < current.length; i++) forms.push(current.slice(i));
		const index = wrappedCommandIndex(current, WRAPPERS[name] as Wrapper);
		if (index === undefined) break;
		current = current.slice(index);
	}
	for (const form of [...forms]) {
		const first = form[0];
		if (first && !first.dynamic && first.value.includes("/")) {
			forms.push([{ value: basenameOf(first.value), dynamic: false }, ...form.slice(1)]);
		}
	}
	return forms;
}

/** The words allow rules see: harmless wrappers removed while every wrapper so far was harmless. */
function allowForm(words: readonly ShellWord[]): { words: ShellWord[]; throughHarmlessOnly: boolean } {
	let current = [...words];
	for (let guard = 0; guard < 8; guard++) {
		const name = nameOf(current);
		const wrapper = name === undefined ? undefined : WRAPPERS[name];
		if (!wrapper) return { words: current, throughHarmlessOnly: true };
		if (!wrapper.harmless) return { words: current, throughHarmlessOnly: false };
		// `env PATH=… cmd`: a risky variable keeps the wrapper (and so the command) from matching.
		if (name === "env" && current.some((word) => isRiskyAssignmentWord(word))) {
			return { words: current, throughHarmlessOnly: false };
		}
		if (name === "command" && current.some((word, i) => i > 0 && /^-[vV]$/.test(word.value))) {
			return { words: current, throughHarmlessOnly: true };
		}
		const index = wrappedCommandIndex(current, wrapper);
		if (index === undefined) return { words: current, throughHarmlessOnly: true };
		current = current.slice(index);
	}
	return { words: current, throughHarmlessOnly: false };
}

function isRiskyAssignmentWord(word: ShellWord): boolean {
	const match = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(word.value);
	return match !== null && isRiskyVariable(match[1] as string);
}

function literalPrefix(words: readonly ShellWord[]): string | undefined {
	const index = words.findIndex((word) => word.dynamic);
	if (index < 0) return undefined;
	const literal = words.slice(0, index).map((word) => word.value);
	return literal.length === 0 ? "" : `${normalizeCommandText(literal.join(" "))} `;
}

function assignmentWord(assignment: ShellAssignment): ShellWord {
	const value = assignment.value;
	return { value: `${assignment.name}=${value?.value ?? ""}`, dynamic: value?.dynamic ?? false };
}

class Analyzer {
	readonly result: BashAnalysis = { commands: [], writes: [], unknowns: [] };

	constructor(private readonly parser: ShellParser) {}

	source(source: string, depth: number): void {
		if (depth > MAX_NESTING) {
			this.result.unknowns.push(`commands nested more than ${MAX_NESTING} levels deep (bash -c, eval)`);
			return;
		}
		const parsed = this.parser.parse(source);
		if (!parsed.ok) {
			this.result.unknowns.push(`the command could not be parsed (${parsed.error})`);
			return;
		}
		this.result.unknowns.push(...parsed.script.uncertain);
		for (const redirect of parsed.script.redirects) {
			if (!redirect.writes) continue;
			if (redirect.target.dynamic) {
				this.result.unknowns.push(`output goes to a file named only when it runs (${redirect.target.value})`);
			} else if (!DEVICE_TARGETS.test(redirect.target.value)) {
				this.result.writes.push(redirect.target.value);
			}
		}
		for (const call of parsed.script.calls) this.call(call, depth);
	}

	private call(call: ShellCall, depth: number): void {
		const risky = call.assignments.filter((assignment) => isRiskyVariable(assignment.name));
		if (call.isDeclaration || call.words.length === 0) {
			// `PATH=/tmp/x` or `export LD_PRELOAD=…` changes what later commands run: a command of its own.
			for (const assignment of risky) {
				const text = assignmentWord(assignment).value;
				const words = [{ value: text, dynamic: false }];
				this.result.commands.push({
					text,
					allowText: text,
					allowWords: words,
					denyTexts: [text],
					dynamicPrefixes: [],
					readOnly: false,
				});
			}
			return;
		}
		this.add(call.words, risky.map(assignmentWord), depth);
	}

	/** Adds a command and what it runs; `prefix` holds the risky assignments written before it. */
	private add(words: readonly ShellWord[], prefix: readonly ShellWord[], depth: number): void {
		const { words: allowWords, throughHarmlessOnly } = allowForm(words);
		if (allowWords[0]?.dynamic) {
			this.result.unknowns.push(`the command name is only known when it runs (${allowWords[0].value})`);
		}
		const deny = denyForms(words);
		// Scripts in strings and commands in arguments, of every form (`sudo bash -c …` runs a script too).
		let transparent = false;
		const seen = new Set<string>();
		for (const form of [allowWords, ...deny]) {
			const name = nameOf(form);
			if (name === undefined || seen.has(join(form))) continue;
			seen.add(join(form));
			const nested = this.nestedScript(name, form);
			if (nested !== undefined) {
				if (nested.dynamic)
					this.result.unknowns.push(`${name} runs a script only known when it runs (${nested.value})`);
				else if (!seen.has(`\0${nested.value}`)) {
					seen.add(`\0${nested.value}`);
					this.source(nested.value, depth + 1);
				}
				// `bash -c "…"` and `eval …` (through harmless wrappers only) are nothing but their script.
				if (form === allowWords && !nested.dynamic && throughHarmlessOnly && prefix.length === 0) {
					transparent = name === "eval" || SHELLS.has(name);
				}
			} else if (SHELLS.has(name) && form.slice(1).every((word) => word.value.startsWith("-"))) {
				this.result.unknowns.push(`${name} reads the commands to run from its input`);
			}
			for (const embedded of this.embeddedCommands(name, form)) {
				if (seen.has(`\0${join(embedded)}`)) continue;
				seen.add(`\0${join(embedded)}`);
				this.add(embedded, [], depth);
			}
		}
		if (transparent) return;
		const allow = [...prefix, ...allowWords];
		const dynamicPrefixes = deny.map(literalPrefix).filter((value): value is string => value !== undefined);
		this.result.commands.push({
			text: join([...prefix, ...words]),
			allowText: join(allow),
			allowWords: allow,
			denyTexts: [...new Set(deny.map(join))],
			dynamicPrefixes: [...new Set(dynamicPrefixes)],
			readOnly: prefix.length === 0 && throughHarmlessOnly && isReadOnlyCommand(allowWords),
		});
	}

	/** The script a command runs from a string: `bash -c`, `eval`, `su -c`, `watch` (without -x), `alias`. */
	private nestedScript(name: string, words: readonly ShellWord[]): ShellWord | undefined {
		if (SHELLS.has(name) || name === "su" || name === "script" || name === "flock") return commandStringOf(words);
		if (name === "eval") return joinedWords(words.slice(1));
		if (name === "watch" && !words.some((word) => word.value === "-x" || word.value === "--exec")) {
			const index = wrappedCommandIndex(words, { valued: ["-n", "--interval", "-d", "--differences"] });
			return index === undefined ? undefined : joinedWords(words.slice(index));
		}
		if (name === "alias") {
			const values = words.slice(1).filter((word) => word.value.includes("="));
			if (values.length === 0) return undefined;
			return joinedWords(
				values.map((word) => ({ value: word.value.slice(word.value.indexOf("=") + 1), dynamic: word.dynamic })),
				"\n",
			);
		}
		return undefined;
	}

	/** Commands a command runs from its arguments: `find -exec`, `xargs cmd`, `watch -x cmd`. */
	private embeddedCommands(name: string, words: readonly ShellWord[]): ShellWord[][] {
		if (name === "find") return findExecCommands(words);
		if (name === "xargs") {
			const index = wrappedCommandIndex(words, WRAPPERS.xargs as Wrapper);
			// What xargs adds from its input is only known when it runs.
			const inner = index === undefined ? [{ value: "echo", dynamic: false }] : words.slice(index);
			return [[...inner, { value: "<input>", dynamic: true }]];
		}
		if (name === "watch" && words.some((word) => word.value === "-x" || word.value === "--exec")) {
			const index = wrappedCommandIndex(words, { valued: ["-n", "--interval"] });
			return index === undefined ? [] : [words.slice(index)];
		}
		return [];
	}
}

function joinedWords(words: readonly ShellWord[], separator = " "): ShellWord | undefined {
	if (words.length === 0) return undefined;
	const dynamic = words.some((word) => word.dynamic);
	return { value: words.map((word) => word.value).join(separator), dynamic };
}

const CHANGES_DIRECTORY = new Set(["cd", "pushd", "popd"]);

/** Every command a bash call would run, as permission rules see them. */
export function analyzeBashCommand(command: string, parser: ShellParser): BashAnalysis {
	const analyzer = new Analyzer(parser);
	analyzer.source(command, 0);
	const result = analyzer.result;
	// After `cd /etc`, `> passwd` is /etc/passwd: a relative output file can no longer be placed.
	const changesDirectory = result.commands.some((entry) => CHANGES_DIRECTORY.has(nameOf(entry.allowWords) ?? ""));
	const relative = result.writes.filter((target) => !target.startsWith("/") && !target.startsWith("~"));
	if (changesDirectory && relative.length > 0) {
		result.unknowns.push(`output goes to ${relative[0]} in a directory the command changes to`);
	}
	return result;
}
