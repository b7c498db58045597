// Which session a run uses (docs/cli.md "Sessions"): --no-session > --session > --continue > new.

import { noSessionFoundMessage, resolveSessionArgument } from "../core/session/session-listing.js";
import { SessionManager } from "../core/session/session-manager.js";
import type { Args } from "./args.js";

export type SessionSelection =
	| { kind: "session"; sessionManager: SessionManager }
	/** Stop without running: print `message` (stderr unless `toStdout`) and exit with `exitCode`. */
	| { kind: "exit"; exitCode: number; message: string; toStdout?: boolean };

export interface SessionSelectionOptions {
	cwd: string;
	agentDir: string;
	/**
	 * Asks `Fork this session into current directory? [y/N] ` for a session of another project. Undefined when
	 * nobody can answer (stdin is not a terminal): the run stops with an explanation instead.
	 */
	askToFork?: (question: string) => Promise<boolean>;
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Opens or creates the session the flags ask for. Never throws for user errors: they become `exit`. */
export async function selectSession(args: Args, options: SessionSelectionOptions): Promise<SessionSelection> {
	const { cwd, agentDir } = options;
	const sessionDir = args.sessionDir;
	try {
		if (args.noSession) return { kind: "session", sessionManager: SessionManager.inMemory(cwd) };

		if (args.session !== undefined) {
			const resolution = await resolveSessionArgument(args.session, cwd, { sessionDir, agentDir });
			switch (resolution.kind) {
				case "path":
					return { kind: "session", sessionManager: SessionManager.open(resolution.path, sessionDir, cwd) };
				case "project":
					return {
						kind: "session",
						sessionManager: SessionManager.open(resolution.session.path, sessionDir, cwd),
					};
				case "not-found":
					return { kind: "exit", exitCode: 1, message: noSessionFoundMessage(args.session) };
				case "other-project": {
					const found = `Session found in different project: ${resolution.session.cwd}`;
					if (!options.askToFork) {
						return {
							kind: "exit",
							exitCode: 1,
							message: `${found}\nRun it from a terminal to fork it here, or pass the session file path: --session ${resolution.session.path}`,
						};
					}
					const fork = await options.askToFork(`${found}\nFork this session into current directory? [y/N] `);
					if (!fork) return { kind: "exit", exitCode: 0, message: "Aborted.", toStdout: true };
					return {
						kind: "session",
						sessionManager: SessionManager.forkFrom(resolution.session.path, cwd, sessionDir),
					};
				}
			}
		}

		if (args.continue) return { kind: "session", sessionManager: SessionManager.continueRecent(cwd, sessionDir) };
		return { kind: "session", sessionManager: SessionManager.create(cwd, sessionDir) };
	} catch (error) {
		// A locked file (another agent has it open) or a file that is not a session: say so, touch nothing.
		return { kind: "exit", exitCode: 1, message: errorText(error) };
	}
}
