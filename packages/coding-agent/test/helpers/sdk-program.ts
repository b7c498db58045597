// A program run against the built packages, in a process of its own: a fresh temporary root holding `project/`
// (the program's cwd), `agent-home/` ($AGENT_DIR) and `program.mjs`. The program imports the coding agent from
// $CODING_AGENT and @agent/ai (FauxProvider, getModel) from $AI.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CODING_AGENT = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
const AI = fileURLToPath(new URL("../../../ai/dist/index.js", import.meta.url));

export interface SdkProgramRun {
	/** The exit code; 1 when the process could not be started or was killed. */
	code: number;
	stdout: string;
	stderr: string;
}

export interface SdkProgramOptions {
	stdin?: string;
	/** Node options before the program, e.g. `--import <hook>`. */
	nodeArgs?: string[];
	/** More environment variables. */
	env?: Record<string, string>;
}

export class SdkProgramSandbox {
	readonly root = realpathSync(mkdtempSync(join(tmpdir(), "agent-sdk-program-")));
	readonly cwd = join(this.root, "project");
	readonly agentDir = join(this.root, "agent-home");

	constructor() {
		mkdirSync(this.cwd);
		mkdirSync(this.agentDir);
	}

	run(source: string, options: SdkProgramOptions = {}): Promise<SdkProgramRun> {
		const program = join(this.root, "program.mjs");
		writeFileSync(program, source);
		const env = {
			PATH: process.env.PATH,
			HOME: this.root,
			CODING_AGENT,
			AI,
			AGENT_DIR: this.agentDir,
			...options.env,
		};
		return new Promise((resolve) => {
			const child = execFile(
				process.execPath,
				[...(options.nodeArgs ?? []), program],
				{ cwd: this.cwd, env },
				(error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
			);
			child.stdin?.end(options.stdin ?? "");
		});
	}

	cleanup(): void {
		rmSync(this.root, { recursive: true, force: true });
	}
}

/**
 * The start of a program: the packages imported as `sdk` and `ai`, then `session`, an in-memory session with an
 * Anthropic model and a test key. `before` runs first (it may make a `faux` provider); `streamFn` is a source
 * expression for the session's stream function, or none for the built-in provider.
 */
export function sessionProgram(options: { before?: string; streamFn?: string } = {}): string {
	return `const sdk = await import(process.env.CODING_AGENT);
const ai = await import(process.env.AI);
${options.before ?? ""}
const { session } = await sdk.createAgentSession({
	cwd: process.cwd(),
	agentDir: process.env.AGENT_DIR,
	model: ai.getModel("anthropic", "claude-sonnet-4-5"),
	authStorage: sdk.AuthStorage.inMemory({ anthropic: { type: "api_key", key: "sk-test" } }, {}),
	sessionManager: sdk.SessionManager.inMemory(),
	${options.streamFn ? `streamFn: ${options.streamFn},` : ""}
});
`;
}
