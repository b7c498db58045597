/** Whether a process with this pid exists (a zombie not yet collected counts). */
export function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}
