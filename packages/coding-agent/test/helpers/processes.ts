import { readFileSync } from "node:fs";

/** Whether a process with this pid exists and has not exited: a zombie (exited, not yet collected) has. */
export function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		// `pid (comm) state …`; comm may hold spaces and parentheses.
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat[stat.lastIndexOf(")") + 2] !== "Z";
	} catch {
		// No /proc to ask (or it just went): it existed a moment ago.
		return true;
	}
}
