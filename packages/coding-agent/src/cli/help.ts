// `agent --help` and the one-line usage hint that follows every command-line error.
import { APP_NAME } from "../config.js";
import { type Args, type ExtensionFlagDefinition, suggestFlag } from "./args.js";

/** Printed under a command-line error so the user knows where to look. */
export const USAGE_HINT = `Run '${APP_NAME} --help' for usage.`;

/** Where the CLI writes (process.stdout / process.stderr, or test streams). */
export interface CliIo {
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
}

/** `Error: …` lines for bad values and unknown flags (with a "did you mean"), then the usage hint. */
export function formatUsageErrors(args: Pick<Args, "errors" | "unknownFlags">): string {
	const lines = args.errors.map((error) => `Error: ${error}`);
	for (const flag of args.unknownFlags) {
		const suggestion = suggestFlag(flag);
		lines.push(`Error: Unknown option: ${flag}${suggestion ? ` (did you mean ${suggestion}?)` : ""}`);
	}
	lines.push(USAGE_HINT);
	return `${lines.join("\n")}\n`;
}

/** Exit codes, one scheme for every mode (documented in --help and the README). */
export const EXIT_SUCCESS = 0;
/** Any failure: bad arguments, missing files, unknown model, no credentials, a failed or aborted run. */
export const EXIT_FAILURE = 1;
/** Killed by a signal: 128 + the signal number, as shells report it. */
export const EXIT_SIGINT = 130;
export const EXIT_SIGTERM = 143;

export interface ExtensionFlagHelp extends ExtensionFlagDefinition {
	name: string;
	description?: string;
}

/** The help text. `extensionFlags` are appended once extensions are loaded. */
export function formatHelp(version: string, extensionFlags: readonly ExtensionFlagHelp[] = []): string {
	const name = APP_NAME;
	const lines = [
		`${name} ${version} — a coding agent for your terminal`,
		"",
		"Usage:",
		`  ${name} [options] [@files...] [messages...]`,
		"",
		"Packages (first word only; see docs/packages.md):",
		`  ${name} install <source> [-l]   install an npm:, git: or local package and add it to settings`,
		`  ${name} remove <source> [-l]    remove it (alias: uninstall)`,
		`  ${name} update [source]         update packages that are not pinned to a version or ref`,
		`  ${name} list                    list the packages of the user and project settings`,
		`  ${name} config                  turn packages' extensions, skills, prompts and themes on or off`,
		`  ${name} <command> --help        options of a package command`,
		"",
		"Subscriptions (see docs/login.md):",
		`  ${name} login [provider]        sign in to ChatGPT Plus/Pro, GitHub Copilot, Gemini CLI or Antigravity`,
		`  ${name} logout [provider]       remove a sign-in's credentials from auth.json`,
		"",
		"Modes:",
		"  (default)                 interactive terminal UI when stdin and stdout are terminals",
		"  -p, --print               run the messages, print the final answer, exit",
		"  --mode text|json|rpc      text: like -p; json: JSON Lines event stream; rpc: JSON commands on stdin",
		"  --mode acp                serve an editor over the Agent Client Protocol (Zed, JetBrains, Neovim, Emacs)",
		"",
		"Model:",
		"  --model <pattern>         model id, provider/id or fuzzy pattern; optional :<thinking> suffix",
		"  --provider <name>         provider for --model",
		"  --api-key <key>           API key for this run (not saved)",
		"  --thinking <level>        off, minimal, low, medium, high, xhigh",
		"  --models <patterns>       comma-separated models to cycle through (globs allowed)",
		"  --list-models [search]    list models that have credentials and exit",
		"",
		"Sessions:",
		"  -c, --continue            continue the most recent session of this directory",
		"  -r, --resume              pick a session to resume",
		"  --session <path|id>       open a session file, or the session whose id starts with <id>",
		"  --session-dir <dir>       where sessions are stored and looked up",
		"  --no-session              keep the session in memory only",
		"  --export <file> [out]     export a session file to HTML and exit",
		"",
		"Tools and resources:",
		"  --tools <names>           enable exactly these tools: read, bash, edit, write, grep, find, ls",
		"                            (default: read,bash,edit,write)",
		"  --no-tools                no built-in tools",
		"  -e, --extension <source>  load an extension, or a package for this run (repeatable)",
		"  -ne, --no-extensions      skip extension discovery (-e still loads)",
		"  --trust-project           trust this project: load its .agent/ extensions and apply its",
		"                            settings that run code, e.g. shellPath (remembered)",
		"  --skill <path>            load a skill file or directory (repeatable)",
		"  -ns, --no-skills          skip skill discovery",
		"  --prompt-template <path>  load a prompt template file or directory (repeatable)",
		"  -np, --no-prompt-templates  skip prompt template discovery",
		"  --theme <path>            load a theme (repeatable)",
		"  --no-themes               skip theme discovery",
		"  --system-prompt <text>    replace the system prompt (text or a file path)",
		"  --append-system-prompt <text>  append to the system prompt (text or a file path)",
		"",
		"Permissions (docs/permissions.md):",
		"  --allow <rule>            run matching calls without asking, e.g. 'Bash(npm test:*)' (repeatable)",
		"  --deny <rule>             refuse matching calls, e.g. 'Bash(git push:*)', 'Edit(.env)' (repeatable)",
		"  --permission-mode <mode>  default, acceptEdits, plan (read-only), ask, or yolo (no rules)",
		"",
		"Other:",
		"  --offline                 no network at startup (same as AGENT_OFFLINE=1)",
		"  --verbose                 always show the startup header",
		"  --tui-mode <mode>         inline (default: in the terminal's scrollback) or fullscreen",
		"                            (alternate screen, own scrolling, mouse wheel, search)",
		"  -h, --help                show this help",
		"  -v, --version             print the version",
		"",
		"Input:",
		"  Each word is a separate message, sent in order. @path attaches a file to the first message",
		"  (text inlined, images attached). Piped stdin becomes the first message and implies --print;",
		"  a lone '-' reads the prompt from stdin even from a terminal.",
		"",
	];
	if (extensionFlags.length > 0) {
		lines.push("Extension flags:");
		for (const flag of extensionFlags) {
			const spelling = flag.type === "string" ? `--${flag.name} <value>` : `--${flag.name}`;
			lines.push(`  ${spelling.padEnd(26)}${flag.description ?? ""}`.trimEnd());
		}
		lines.push("");
	}
	lines.push(
		"Exit codes:",
		"  0    success (also --help, --version, --list-models, and --mode json after a model error)",
		"  1    any failure: unknown flag or bad value, missing @file, unknown model, no credentials,",
		"       a failed or aborted run in print mode",
		"  130  interrupted (SIGINT); 143 terminated (SIGTERM)",
		"",
		"Environment:",
		"  AGENT_DIR                 configuration directory (default ~/.agent)",
		"  ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, …  provider credentials",
		"  AGENT_OFFLINE=1           same as --offline",
		"",
		"Examples:",
		`  ${name}                                  start the interactive UI`,
		`  ${name} -p "explain src/main.ts"         one answer, printed to stdout`,
		`  git diff | ${name} -p "review this"      piped input becomes part of the prompt`,
		`  ${name} -c -p "and now add tests"        continue the last session`,
		`  ${name} --model openai/gpt-4o @img.png "what is this?"`,
		`  ${name} --mode json "fix the build" | jq -c 'select(.type=="message_end")'`,
		"",
	);
	return lines.join("\n");
}
