// Whether a process named in a file (a lock's holder, a checkpoint pack's writer) still runs: its pid and, on
// Linux, its kernel start time, so that a pid reused by another program is not taken for it.
import { readFileSync } from "node:fs";

/** Kernel start time of a process (Linux `/proc/<pid>/stat` field 22); undefined elsewhere or when it is gone. */
function processStartTime(pid: number | "self"): string | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		// Field 2 (comm) may contain spaces and parentheses; the fields after it start past the last ')'.
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		return fields[19];
	} catch {
		return undefined;
	}
}

/** This process's start time (see `processStartTime`). */
export const OWN_START_TIME = processStartTime("self");

/**
 * Whether the process `pid`, started at `startTime` when that is known, has ended: no process has the pid, or the
 * one that has it started at another time. False when that cannot be told.
 */
export function processEnded(pid: number, startTime: string | undefined): boolean {
	try {
		process.kill(pid, 0);
	} catch (error) {
		// EPERM: a process of another user has the pid.
		if ((error as NodeJS.ErrnoException).code === "ESRCH") return true;
	}
	if (startTime === undefined) return false;
	const current = processStartTime(pid);
	return current !== undefined && current !== startTime;
}
