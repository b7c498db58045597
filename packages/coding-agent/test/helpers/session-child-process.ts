// Runs session code in a separate Node process (sources loaded through jiti), for tests that kill writers
// or need a second process holding a session file. Synchronisation is by lines the child prints.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const JITI_CLI = join(require.resolve("jiti/package.json"), "..", "lib", "jiti-cli.mjs");
const CHILD_SCRIPT = join(import.meta.dirname, "session-child-main.ts");

export interface SessionChild {
	process: ChildProcessWithoutNullStreams;
	/** Resolves with the first printed line that starts with `prefix` (without the prefix). */
	waitForLine(prefix: string): Promise<string>;
	/** Resolves once `count` lines starting with `prefix` have been printed. */
	waitForCount(prefix: string, count: number): Promise<void>;
	/** Every line printed so far. */
	lines(): string[];
	/** Resolves with the exit code (null when killed by a signal) when the process has exited. */
	exited: Promise<number | null>;
	/** Everything printed on stderr so far. */
	stderr(): string;
	killHard(): Promise<void>;
}

/** Starts `session-child-main.ts <mode> <...args>`. */
export function startSessionChild(mode: "append" | "hold", ...args: string[]): SessionChild {
	return watchChild(
		spawn(process.execPath, [JITI_CLI, CHILD_SCRIPT, mode, ...args], { stdio: ["pipe", "pipe", "pipe"] }),
	);
}

function watchChild(child: ChildProcessWithoutNullStreams): SessionChild {
	const lines: string[] = [];
	const waiters: { prefix: string; resolve: (rest: string) => void }[] = [];
	const counters: { prefix: string; count: number; resolve: () => void }[] = [];
	let buffered = "";
	let stderr = "";
	child.stderr.on("data", (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	child.stdout.on("data", (chunk: Buffer) => {
		buffered += chunk.toString();
		let newline = buffered.indexOf("\n");
		while (newline >= 0) {
			const line = buffered.slice(0, newline);
			buffered = buffered.slice(newline + 1);
			lines.push(line);
			for (const counter of [...counters]) {
				if (!line.startsWith(counter.prefix) || --counter.count > 0) continue;
				counters.splice(counters.indexOf(counter), 1);
				counter.resolve();
			}
			for (const waiter of [...waiters]) {
				if (!line.startsWith(waiter.prefix)) continue;
				waiters.splice(waiters.indexOf(waiter), 1);
				waiter.resolve(line.slice(waiter.prefix.length));
			}
			newline = buffered.indexOf("\n");
		}
	});
	const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
	return {
		process: child,
		lines: () => [...lines],
		stderr: () => stderr,
		exited,
		waitForLine(prefix) {
			const seen = lines.find((line) => line.startsWith(prefix));
			if (seen !== undefined) return Promise.resolve(seen.slice(prefix.length));
			return new Promise((resolve, reject) => {
				waiters.push({ prefix, resolve });
				void exited.then(() => reject(new Error(`child exited before printing "${prefix}": ${stderr}`)));
			});
		},
		waitForCount(prefix, count) {
			const remaining = count - lines.filter((line) => line.startsWith(prefix)).length;
			if (remaining <= 0) return Promise.resolve();
			return new Promise((resolve, reject) => {
				counters.push({ prefix, count: remaining, resolve });
				void exited.then(() =>
					reject(new Error(`child exited before printing ${count} "${prefix}" lines: ${stderr}`)),
				);
			});
		},
		async killHard() {
			child.kill("SIGKILL");
			await exited;
		},
	};
}

const AI_SOURCES = join(import.meta.dirname, "..", "..", "..", "ai", "src", "index.ts");
const AGENT_CORE_SOURCES = join(import.meta.dirname, "..", "..", "..", "agent", "src", "index.ts");

/**
 * Starts an ES module body in a child Node process, with `load(path)` importing TypeScript sources (workspace
 * packages aliased to their sources, or to the modules given in `alias` to load less). The body can print lines
 * for `waitForLine` and read stdin (e.g. a "go" line, to start several children at the same moment).
 */
export function startSourcesInChild(body: string, alias: Record<string, string> = {}): SessionChild {
	const aliases = { "@agent/ai": AI_SOURCES, "@agent/agent-core": AGENT_CORE_SOURCES, ...alias };
	const script = `
import { createJiti } from ${JSON.stringify(join(require.resolve("jiti/package.json"), "..", "lib", "jiti.mjs"))};
const jiti = createJiti(import.meta.url, { alias: ${JSON.stringify(aliases)} });
const load = (path) => jiti.import(path);
${body}
`;
	return watchChild(
		spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "pipe"] }),
	);
}
