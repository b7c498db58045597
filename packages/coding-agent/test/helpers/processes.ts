import { readdirSync, readFileSync } from "node:fs";

/**
 * The fields of `/proc/<pid>/stat` after the command's name (state first, then the parent's pid); undefined when
 * the process is gone or there is no /proc.
 */
export function procStatFields(pid: number): string[] | undefined {
	try {
		// `pid (comm) state ppid …`; comm may hold spaces and parentheses.
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	} catch {
		return undefined;
	}
}

/** Whether a process with this pid exists and has not exited: a zombie (exited, not yet collected) has. */
export function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	// No /proc to ask (or it just went): it existed a moment ago.
	return procStatFields(pid)?.[0] !== "Z";
}

/** The pids of the processes whose parent is `pid` (none where there is no /proc). */
export function childrenOf(pid: number): number[] {
	let pids: string[];
	try {
		pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
	} catch {
		return [];
	}
	return pids.map(Number).filter((child) => Number(procStatFields(child)?.[1]) === pid);
}
