// Bare git repositories in a temporary directory for package tests, reached through a made-up https host: git's
// `url.<base>.insteadOf` (set through GIT_CONFIG_* variables, so no config file of the user is read or changed)
// rewrites `https://git.example.test/…` to `file://<dir>/…`. The real `git` clones them; nothing leaves the machine.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const FAKE_GIT_HOST = "git.example.test";

const IDENTITY = {
	GIT_AUTHOR_NAME: "Test",
	GIT_AUTHOR_EMAIL: "test@example.test",
	GIT_COMMITTER_NAME: "Test",
	GIT_COMMITTER_EMAIL: "test@example.test",
};

export class GitRepos {
	private constructor(readonly root: string) {}

	static create(parent: string): GitRepos {
		mkdirSync(parent, { recursive: true });
		return new GitRepos(mkdtempSync(join(parent, "git-")));
	}

	/** The environment under which `https://git.example.test/<owner>/<repo>` clones the local bare repository. */
	env(): NodeJS.ProcessEnv {
		return {
			GIT_CONFIG_NOSYSTEM: "1",
			GIT_CONFIG_GLOBAL: join(this.root, "gitconfig"),
			GIT_CONFIG_COUNT: "2",
			GIT_CONFIG_KEY_0: `url.file://${this.root}/bare/.insteadOf`,
			GIT_CONFIG_VALUE_0: `https://${FAKE_GIT_HOST}/`,
			GIT_CONFIG_KEY_1: "protocol.file.allow",
			GIT_CONFIG_VALUE_1: "always",
		};
	}

	private git(cwd: string, args: string[]): string {
		return execFileSync("git", args, {
			cwd,
			env: { ...process.env, ...IDENTITY, ...this.env() },
			encoding: "utf8",
			stdio: ["ignore", "pipe", "pipe"],
		});
	}

	private work(name: string): string {
		return join(this.root, "work", name);
	}

	/** Creates `<owner>/<repo>` with one commit of `files` on `main`; tags it when `tag` is given. */
	createRepo(name: string, files: Record<string, string>, tag?: string): string {
		const work = this.work(name);
		mkdirSync(work, { recursive: true });
		this.git(work, ["init", "--quiet", "--initial-branch=main"]);
		this.commit(name, files, "first", tag, false);
		const bare = join(this.root, "bare", name);
		mkdirSync(dirname(bare), { recursive: true });
		this.git(this.root, ["clone", "--quiet", "--bare", work, bare]);
		this.git(work, ["remote", "add", "origin", bare]);
		return `https://${FAKE_GIT_HOST}/${name}`;
	}

	/** Commits `files` (written over the work tree) and pushes them, with the tag if given. */
	commit(name: string, files: Record<string, string>, message = "change", tag?: string, push = true): string {
		const work = this.work(name);
		for (const [path, content] of Object.entries(files)) {
			mkdirSync(dirname(join(work, path)), { recursive: true });
			writeFileSync(join(work, path), content);
		}
		this.git(work, ["add", "--all"]);
		this.git(work, ["commit", "--quiet", "--allow-empty", "-m", message]);
		if (tag) this.git(work, ["tag", tag]);
		if (push) this.git(work, ["push", "--quiet", "--tags", "origin", "main"]);
		return this.git(work, ["rev-parse", "HEAD"]).trim();
	}

	remove(): void {
		rmSync(this.root, { recursive: true, force: true });
	}
}
