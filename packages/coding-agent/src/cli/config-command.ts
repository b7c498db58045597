import type { CliIo } from "./help.js";

export interface ConfigCommandContext {
	cwd: string;
	agentDir: string;
	io: CliIo;
}

export async function runConfigCommand(_context: ConfigCommandContext): Promise<number> {
	return 0;
}
