// Ours: an untrusted project's context and prompt files are read only from inside it. A repository can hold a
// symbolic link — `AGENTS.md`, a prompt template, a skill, `.agent/SYSTEM.md` — to a file elsewhere on the
// machine (`~/.ssh/id_rsa`); reading it would put that file into the model's context and send it to the provider.
// Until the project is trusted, such files are left out, and the trust notice names them.
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { realPathOf } from "./path-probes.js";

/** A project file left out because it leads out of the (untrusted) project. */
export interface FileOutsideProject {
	/** Where it was found. */
	path: string;
	/** Where it really is. */
	target: string;
}

/** The project's tree: the nearest directory at or above `cwd` with a `.git`, else `cwd` itself. */
export function findProjectRoot(cwd: string): string {
	const start = resolve(cwd);
	for (let dir = start; ; dir = dirname(dir)) {
		if (existsSync(join(dir, ".git"))) return dir;
		if (dirname(dir) === dir) return start;
	}
}

function isWithin(root: string, path: string): boolean {
	const rel = relative(root, path);
	return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

export class ProjectBoundary {
	readonly root: string;
	private readonly realRoot: string;

	constructor(cwd: string) {
		this.root = findProjectRoot(cwd);
		this.realRoot = realPathOf(this.root);
	}

	/** Whether `path` lies in the project's tree as written (before links are followed). */
	contains(path: string): boolean {
		return isWithin(this.root, resolve(path)) || isWithin(this.realRoot, resolve(path));
	}

	/** Where `path` really is, when that is outside the project; undefined when it stays inside. */
	outsideTarget(path: string): string | undefined {
		const target = realPathOf(path);
		return isWithin(this.realRoot, target) ? undefined : target;
	}
}
