import { describe, expect, it } from "vitest";
import { parseArgs, suggestFlag } from "../../src/cli/args.js";

describe("flags and their values", () => {
	it("reads every value-taking option", () => {
		const args = parseArgs([
			"--mode",
			"json",
			"--provider",
			"openai",
			"--model",
			"gpt-4o",
			"--api-key",
			"sk-1",
			"--thinking",
			"high",
			"--session",
			"abc",
			"--session-dir",
			"/tmp/s",
			"--system-prompt",
			"be brief",
			"--append-system-prompt",
			"more",
			"--export",
			"s.jsonl",
		]);
		expect(args).toMatchObject({
			mode: "json",
			provider: "openai",
			model: "gpt-4o",
			apiKey: "sk-1",
			thinking: "high",
			session: "abc",
			sessionDir: "/tmp/s",
			systemPrompt: "be brief",
			appendSystemPrompt: "more",
			export: "s.jsonl",
		});
		expect(args.errors).toEqual([]);
		expect(args.unknownFlags).toEqual([]);
	});

	it("reads every boolean flag and its short alias", () => {
		const long = parseArgs([
			"--help",
			"--version",
			"--print",
			"--continue",
			"--resume",
			"--no-session",
			"--no-tools",
			"--no-extensions",
			"--no-skills",
			"--no-prompt-templates",
			"--no-themes",
			"--verbose",
			"--offline",
		]);
		const short = parseArgs(["-h", "-v", "-p", "-c", "-r", "-ne", "-ns", "-np"]);
		for (const args of [long, short]) {
			expect(args).toMatchObject({
				help: true,
				version: true,
				print: true,
				continue: true,
				resume: true,
				noExtensions: true,
				noSkills: true,
				noPromptTemplates: true,
			});
		}
		expect(long).toMatchObject({ noSession: true, noTools: true, noThemes: true, verbose: true, offline: true });
		expect(long.unknownFlags).toEqual([]);
	});

	it("takes the next argument verbatim as a value, even when it starts with a dash", () => {
		expect(parseArgs(["--system-prompt", "--be-terse"]).systemPrompt).toBe("--be-terse");
		expect(parseArgs(["--api-key", "-abc"]).apiKey).toBe("-abc");
	});

	it("accepts --flag=value for value-taking options", () => {
		expect(parseArgs(["--model=sonnet:high", "--tools=read,ls"])).toMatchObject({
			model: "sonnet:high",
			tools: ["read", "ls"],
		});
	});

	it("collects repeatable resource options in order", () => {
		const args = parseArgs(["-e", "a.ts", "--extension", "b", "--skill", "s1", "--skill", "s2"]);
		expect(args.extensions).toEqual(["a.ts", "b"]);
		expect(args.skills).toEqual(["s1", "s2"]);
		expect(parseArgs(["--prompt-template", "p", "--theme", "t"])).toMatchObject({
			promptTemplates: ["p"],
			themes: ["t"],
		});
	});

	it("splits --models and --tools on commas, trimming and dropping empty items", () => {
		expect(parseArgs(["--models", " sonnet , gpt-*:high ,,"]).models).toEqual(["sonnet", "gpt-*:high"]);
		expect(parseArgs(["--tools", "read, grep,read"]).tools).toEqual(["read", "grep"]);
	});
});

describe("--list-models", () => {
	it("takes the next argument as the search unless it is a flag or a file", () => {
		expect(parseArgs(["--list-models"]).listModels).toBe(true);
		expect(parseArgs(["--list-models", "sonnet"]).listModels).toBe("sonnet");
		expect(parseArgs(["--list-models", "--verbose"])).toMatchObject({ listModels: true, verbose: true });
		expect(parseArgs(["--list-models", "@f"])).toMatchObject({ listModels: true, fileArgs: ["f"] });
	});
});

describe("messages and files", () => {
	it("keeps each positional word as its own message, in order, and @paths as files", () => {
		const args = parseArgs(["first", "@a.md", "-p", "second", "@b.png"]);
		expect(args.messages).toEqual(["first", "second"]);
		expect(args.fileArgs).toEqual(["a.md", "b.png"]);
	});

	it("treats a lone dash as 'read the prompt from stdin'", () => {
		const args = parseArgs(["-p", "-"]);
		expect(args.readStdin).toBe(true);
		expect(args.unknownFlags).toEqual([]);
	});
});

describe("mistakes are reported, never silently ignored", () => {
	it("lists unknown flags (long and short) instead of dropping them", () => {
		const args = parseArgs(["--modle", "x", "-z"]);
		expect(args.unknownFlags).toEqual(["--modle", "-z"]);
		expect(args.messages).toEqual(["x"]);
	});

	it("reports an option given without its value", () => {
		expect(parseArgs(["--model"]).errors).toEqual(["Missing value for --model"]);
	});

	it("rejects an invalid --mode", () => {
		expect(parseArgs(["--mode", "yaml"]).errors).toEqual([
			'Invalid value for --mode: "yaml". Valid values: text, json, rpc, acp',
		]);
	});

	it("takes --tui-mode inline|fullscreen and rejects anything else", () => {
		expect(parseArgs(["--tui-mode", "fullscreen"]).tuiMode).toBe("fullscreen");
		expect(parseArgs(["--tui-mode=inline"]).tuiMode).toBe("inline");
		expect(parseArgs(["--tui-mode", "alt"]).errors).toEqual([
			'Invalid value for --tui-mode: "alt". Valid values: inline, fullscreen',
		]);
	});

	it("rejects an invalid thinking level with the valid values", () => {
		const args = parseArgs(["--thinking", "hgih"]);
		expect(args.thinking).toBeUndefined();
		expect(args.errors).toEqual([
			'Invalid thinking level "hgih". Valid values: off, minimal, low, medium, high, xhigh',
		]);
	});

	it("rejects unknown tool names with the valid tools", () => {
		expect(parseArgs(["--tools", "read,search"]).errors).toEqual([
			'Unknown tool "search". Valid tools: read, bash, edit, write, grep, find, ls',
		]);
	});

	it("suggests the flag a typo was meant to be", () => {
		expect(suggestFlag("--modle")).toBe("--model");
		expect(suggestFlag("--contineu")).toBe("--continue");
		expect(suggestFlag("--completely-different")).toBeUndefined();
	});
});

describe("second pass with extension flags", () => {
	const extensionFlags = new Map([
		["plan", { type: "boolean" as const }],
		["budget", { type: "string" as const }],
	]);

	it("claims flags extensions registered, with values for string flags", () => {
		const args = parseArgs(["--plan", "--budget", "5", "hello"], { extensionFlags });
		expect(args.unknownFlags).toEqual([]);
		expect(args.messages).toEqual(["hello"]);
		expect(Object.fromEntries(args.extensionFlagValues)).toEqual({ plan: true, budget: "5" });
	});

	it("leaves them unknown in the first pass (their values then read as messages)", () => {
		const args = parseArgs(["--plan", "--budget", "5"]);
		expect(args.unknownFlags).toEqual(["--plan", "--budget"]);
	});

	it("built-in flags win over an extension flag of the same name", () => {
		const args = parseArgs(["--model", "m"], { extensionFlags: new Map([["model", { type: "boolean" as const }]]) });
		expect(args.model).toBe("m");
		expect(args.extensionFlagValues.size).toBe(0);
	});
});
