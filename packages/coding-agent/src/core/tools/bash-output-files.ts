// Full-output files of bash commands (`<tmpdir>/agent-bash-<pid>.<start time>-<hex>.log`): the model is told their
// path, so they must stay readable while the session lasts, and they are removed when it ends.
//
// Ours: the reference never deleted them. Each session owns a `BashOutputFiles` registry (AgentSession creates
// it and calls `dispose()` when the session ends); tools made outside a session use a process-wide one. Files
// still here when the process exits are removed then, and those of a killed process by a later one's sweep
// (temp-paths.ts).
import { closeSync, openSync, writeSync } from "node:fs";
import { removeTempPath, tempFilePath, trackTempPath } from "../temp-paths.js";
import { formatSize } from "./truncate.js";

export function createBashTempFilePath(): string {
	return tempFilePath("agent-bash-", ".log");
}

/** The full-output files created for one session (or one process), removed together. */
export class BashOutputFiles {
	private readonly paths = new Set<string>();

	/** Creates an empty file only the user can read (0600, never an existing file); returns its path and fd. */
	create(): { path: string; fd: number } {
		const path = createBashTempFilePath();
		const fd = openSync(path, "wx", 0o600);
		this.paths.add(path);
		trackTempPath(path);
		return { path, fd };
	}

	/** Paths of the files that exist now. */
	list(): string[] {
		return [...this.paths];
	}

	/** Removes every file created here. Files created later are registered again. */
	dispose(): void {
		for (const path of this.paths) removeTempPath(path);
		this.paths.clear();
	}
}

let processFiles: BashOutputFiles | undefined;

/** The registry of tools created outside a session: its files are removed when the process exits. */
export function processBashOutputFiles(): BashOutputFiles {
	processFiles ??= new BashOutputFiles();
	return processFiles;
}

/** Model-facing: ends a result whose full-output file stopped growing at `limits.bashOutputFileBytes`. */
export function fullOutputCappedNotice(maxBytes: number): string {
	return `[The full output file stopped at ${formatSize(maxBytes)} (limits.bashOutputFileBytes in settings.json); output after that is not in it.]`;
}

/**
 * One command's full-output file, created on first write in a registry, that stops growing at `maxBytes`
 * (0: no limit). Writes are synchronous: the file always holds everything written so far.
 */
export class FullOutputFile {
	private fd: number | undefined;
	private written = 0;
	path: string | undefined;
	/** Output was dropped because the file reached `maxBytes`. */
	capped = false;

	constructor(
		private readonly files: BashOutputFiles,
		/** 0: no limit. */
		readonly maxBytes: number,
	) {}

	get isOpen(): boolean {
		return this.fd !== undefined;
	}

	/** Creates the file (if not yet) and returns its path. */
	open(): string {
		if (this.path === undefined) {
			const { path, fd } = this.files.create();
			this.path = path;
			this.fd = fd;
		}
		return this.path;
	}

	write(data: Buffer | string): void {
		if (this.fd === undefined || this.capped) return;
		const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
		let length = bytes.length;
		if (this.maxBytes > 0 && this.written + length > this.maxBytes) {
			length = this.maxBytes - this.written;
			this.capped = true;
		}
		let offset = 0;
		while (offset < length) offset += writeSync(this.fd, bytes, offset, length - offset);
		this.written += length;
	}

	close(): void {
		if (this.fd !== undefined) closeSync(this.fd);
		this.fd = undefined;
	}
}
