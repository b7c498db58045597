// Runs the built `agent` binary in a throw-away world: its own AGENT_DIR, HOME and working directory, a
// models.json pointing at a local fake model server, and an environment without real credentials.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RpcClient } from "../../src/modes/rpc/rpc-client.js";

/** The `agent` bin, as users run it: it runs BUNDLE_PATH. */
export const CLI_PATH = fileURLToPath(new URL("../../bin/agent.cjs", import.meta.url));
/** The built command line; `pnpm test` builds first (in a loop: `pnpm build`). */
export const BUNDLE_PATH = fileURLToPath(new URL("../../dist/agent.cjs", import.meta.url));

export const FAKE_PROVIDER = "fake";
export const FAKE_MODEL = "fake-model";
/** A second model of the fake provider, with reasoning (thinking levels, model cycling). */
export const FAKE_REASONING_MODEL = "fake-reasoner";

export interface CliSandbox {
	root: string;
	agentDir: string;
	home: string;
	/** The working directory the agent runs in. */
	cwd: string;
	env: NodeJS.ProcessEnv;
	cleanup(): void;
}

export interface CliSandboxOptions {
	/** Base URL of the fake model server (`server.baseUrl`); without it no models.json is written. */
	modelServerUrl?: string;
	/** Written to `<agentDir>/settings.json`. Default: instant retries so failure tests stay fast. */
	settings?: Record<string, unknown>;
	/** Extra environment variables. */
	env?: NodeJS.ProcessEnv;
}

/** The models.json of the sandbox: one OpenAI-compatible provider served by the fake server. */
export function fakeModelsJson(baseUrl: string): Record<string, unknown> {
	return {
		providers: {
			[FAKE_PROVIDER]: {
				baseUrl,
				api: "openai-completions",
				apiKey: "fake-key",
				compat: { supportsDeveloperRole: false, supportsStore: false },
				models: [
					{
						id: FAKE_MODEL,
						name: "Fake Model",
						input: ["text", "image"],
						contextWindow: 128000,
						maxTokens: 4096,
					},
					{
						id: FAKE_REASONING_MODEL,
						name: "Fake Reasoner",
						reasoning: true,
						contextWindow: 200000,
						maxTokens: 8192,
					},
				],
			},
		},
	};
}

export function createCliSandbox(options: CliSandboxOptions = {}): CliSandbox {
	const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-cli-")));
	const agentDir = join(root, "agent-dir");
	const home = join(root, "home");
	const cwd = join(root, "project");
	// The agent's temporary paths (launcher, checkpoint barrier, bash output files), removed with the sandbox: an agent a
	// test kills leaves them, and the machine's $TMPDIR must not collect them.
	const temp = join(root, "temp");
	for (const dir of [agentDir, home, cwd, temp]) mkdirSync(dir, { recursive: true });
	if (options.modelServerUrl) {
		writeFileSync(join(agentDir, "models.json"), JSON.stringify(fakeModelsJson(options.modelServerUrl), null, 2));
	}
	const settings = options.settings ?? { retry: { baseDelayMs: 1, maxDelayMs: 10 } };
	writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings, null, 2));
	const env: NodeJS.ProcessEnv = {
		PATH: process.env.PATH,
		HOME: home,
		AGENT_DIR: agentDir,
		AGENT_OFFLINE: "1",
		TMPDIR: temp,
		...options.env,
	};
	return { root, agentDir, home, cwd, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface CliResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface RunCliOptions {
	/** Written to stdin, then stdin is closed. Without it stdin is closed right away (not a TTY). */
	stdin?: string;
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** A safety net against hangs: the child is killed and the result says so. */
	timeoutMs?: number;
	/** Arguments for Node itself, before the script (e.g. `--import`). */
	nodeArgs?: string[];
}

/** Runs `agent <args>` to completion. */
export function runCli(sandbox: CliSandbox, args: string[], options: RunCliOptions = {}): Promise<CliResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI_PATH, ...args], {
			cwd: options.cwd ?? sandbox.cwd,
			env: { ...sandbox.env, ...options.env },
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8");
		child.stderr.setEncoding("utf8");
		child.stdout.on("data", (text: string) => {
			stdout += text;
		});
		child.stderr.on("data", (text: string) => {
			stderr += text;
		});
		const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 15_000);
		child.once("error", reject);
		child.once("close", (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr });
		});
		child.stdin.on("error", () => {});
		child.stdin.end(options.stdin ?? "");
	});
}

/** Parses JSON Lines output, failing loudly on a line that is not JSON. */
export function parseJsonLines(text: string): Record<string, unknown>[] {
	return text
		.split("\n")
		.filter((line) => line.length > 0)
		.map((line) => {
			try {
				return JSON.parse(line) as Record<string, unknown>;
			} catch {
				throw new Error(`stdout line is not JSON: ${line}`);
			}
		});
}

/** Starts `agent --mode rpc` in the sandbox through the package's RpcClient. */
export async function startRpcAgent(sandbox: CliSandbox, args: string[] = []): Promise<RpcClient> {
	const client = new RpcClient({ cliPath: CLI_PATH, cwd: sandbox.cwd, env: sandbox.env, args });
	await client.start();
	return client;
}
