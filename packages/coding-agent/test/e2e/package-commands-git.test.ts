// Packages from git repositories and local paths, and the packages start-up installs (settings that name a
// package the disk lacks, `-e npm:…`), through the built binary: the real `git` clones bare repositories in a
// temporary directory (test/helpers/git-repos.ts), the real `npm` installs from a registry on 127.0.0.1.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startFakeModelServerForFile, textReply } from "../helpers/fake-model-server.js";
import { FAKE_GIT_HOST } from "../helpers/git-repos.js";
import {
	createPackageSandbox,
	PACKAGE_TEST_TIMEOUT_MS,
	type PackageSandbox,
	skillFiles,
	skillPackage,
	startRegistryForFile,
} from "../helpers/package-sandbox.js";

vi.setConfig({ testTimeout: PACKAGE_TEST_TIMEOUT_MS });

const server = startFakeModelServerForFile();
const registry = startRegistryForFile();
let sandbox: PackageSandbox | undefined;
afterEach(() => {
	sandbox?.cleanup();
	sandbox = undefined;
});

function newSandbox(): PackageSandbox {
	sandbox = createPackageSandbox(registry.current, { modelServerUrl: server.baseUrl });
	return sandbox;
}

async function systemPromptOf(box: PackageSandbox, args: string[] = [], env?: NodeJS.ProcessEnv) {
	server.setFallback(textReply("ok"));
	const before = server.requests.length;
	const result = await box.agent([...args, "-p", "hi"], env ? { env } : {});
	expect(result.code, result.stderr).toBe(0);
	const system = server.requests[before]?.body.messages.find((message) => message.role === "system");
	return { prompt: String(system?.content ?? ""), stderr: result.stderr };
}

const promptFile = (text: string) => ({ "prompts/review.md": `---\ndescription: ${text}\n---\n${text}\n` });

describe("git packages", () => {
	it("installs a repository at a tag, skips it on update while pinned, and follows the branch once unpinned", async () => {
		const box = newSandbox();
		box.repos.createRepo("acme/prompts", promptFile("first review"), "v1");
		box.repos.commit("acme/prompts", promptFile("second review"));
		const source = `git:${FAKE_GIT_HOST}/acme/prompts@v1`;
		const installed = await box.agent(["install", source]);
		expect(installed).toMatchObject({
			code: 0,
			stdout: `Installing ${source}...\nInstalled ${source}\n`,
			stderr: "",
		});
		const dir = join(box.agentDir, "git", FAKE_GIT_HOST, "acme", "prompts");
		expect(readFileSync(join(dir, "prompts", "review.md"), "utf8")).toContain("first review");
		expect(readFileSync(join(box.agentDir, "git", ".gitignore"), "utf8")).toBe("*\n!.gitignore\n");
		expect((await box.agent(["list"])).stdout).toBe(`User packages:\n  ${source}\n    ${dir}\n`);

		expect((await box.agent(["update"])).stdout).toBe("Updated packages\n");
		expect(readFileSync(join(dir, "prompts", "review.md"), "utf8")).toContain("first review");

		// The https URL of the same repository, without a ref: the one settings entry now follows main.
		const https = `https://${FAKE_GIT_HOST}/acme/prompts`;
		expect((await box.agent(["install", https])).code).toBe(0);
		expect(box.packages()).toEqual([https]);
		expect(readFileSync(join(dir, "prompts", "review.md"), "utf8")).toContain("second review");
		expect((await box.agent(["update"])).stdout).toBe(
			`Updating ${https}...\n  already up to date\nUpdated packages\n`,
		);

		const third = box.repos.commit("acme/prompts", promptFile("third review"));
		const updated = await box.agent(["update", https]);
		expect(updated).toMatchObject({
			code: 0,
			stdout: `Updating ${https}...\n  now at ${third.slice(0, 7)}\nUpdated ${https}\n`,
		});
		expect(readFileSync(join(dir, "prompts", "review.md"), "utf8")).toContain("third review");

		const removed = await box.agent(["remove", `git:${FAKE_GIT_HOST}/acme/prompts`]);
		expect(removed.code).toBe(0);
		expect(box.tree(join(box.agentDir, "git"))).toEqual([".gitignore"]);
	});

	it("fails on a ref the repository does not have, and installs nothing", async () => {
		const box = newSandbox();
		box.repos.createRepo("acme/tools", skillFiles("tooling"), "v1");
		const source = `git:${FAKE_GIT_HOST}/acme/tools@v9`;
		const result = await box.agent(["install", source]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`Error: Could not install ${source}: git checkout v9 exited with code 128:\n`);
		expect(result.stderr).toContain(
			`Check that "v9" is a tag, branch or commit of https://${FAKE_GIT_HOST}/acme/tools.\nNothing was installed.\n`,
		);
		expect(box.tree(join(box.agentDir, "git"))).toEqual([".gitignore"]);
		expect(box.packages()).toEqual([]);
	});

	it("fails on a repository that cannot be reached, and installs nothing", async () => {
		const box = newSandbox();
		const source = `https://${FAKE_GIT_HOST}/acme/missing`;
		const result = await box.agent(["install", source]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`Error: Could not install ${source}: git clone ${source} exited with code 128`);
		expect(result.stderr).toContain(
			`Check the repository address and that you can reach it: git ls-remote ${source}`,
		);
		expect(box.tree(join(box.agentDir, "git"))).toEqual([".gitignore"]);
	});

	it("installs a repository's npm dependencies inside its clone, without scripts", async () => {
		registry.current.publish({ name: "helper-lib", version: "1.0.0", files: { "index.js": "module.exports = 2;" } });
		const box = newSandbox();
		const marker = join(box.root, "git-postinstall-ran");
		box.repos.createRepo("acme/with-deps", {
			...skillFiles("with-deps"),
			"package.json": JSON.stringify({
				name: "with-deps",
				dependencies: { "helper-lib": "^1.0.0" },
				scripts: { postinstall: `node -e "require('fs').writeFileSync(process.argv[1], '')" ${marker}` },
			}),
		});
		expect((await box.agent(["install", `git:${FAKE_GIT_HOST}/acme/with-deps`])).code).toBe(0);
		const dir = join(box.agentDir, "git", FAKE_GIT_HOST, "acme", "with-deps");
		expect(existsSync(join(dir, "node_modules", "helper-lib", "index.js"))).toBe(true);
		expect(existsSync(marker)).toBe(false);
	});
});

describe("local paths", () => {
	it("adds a directory to the settings relative to the settings file, without copying it", async () => {
		const box = newSandbox();
		const pack = join(box.cwd, "my-pack");
		mkdirSync(join(pack, "skills", "local-skill"), { recursive: true });
		writeFileSync(join(pack, "skills", "local-skill", "SKILL.md"), "---\nname: local-skill\ndescription: x\n---\n");
		expect(await box.agent(["install", "./my-pack"])).toMatchObject({
			code: 0,
			stdout: "Installing ./my-pack...\nInstalled ./my-pack\n",
		});
		expect(box.packages()).toEqual(["../project/my-pack"]);
		expect((await box.agent(["list"])).stdout).toBe(`User packages:\n  ../project/my-pack\n    ${pack}\n`);
		expect((await box.agent(["install", "./my-pack"])).code).toBe(0);
		expect(box.packages()).toEqual(["../project/my-pack"]);
		expect((await box.agent(["remove", "./my-pack"])).stdout).toBe("Removing ./my-pack...\nRemoved ./my-pack\n");
		expect(existsSync(pack)).toBe(true);
		expect(box.packages()).toEqual([]);
	});

	it("refuses a path that does not exist", async () => {
		const box = newSandbox();
		expect(await box.agent(["install", "./nowhere"])).toMatchObject({
			code: 1,
			stderr: `Error: Path does not exist: ${join(box.cwd, "nowhere")}\n`,
		});
		expect(box.packages()).toEqual([]);
	});
});

describe("start-up", () => {
	it("installs a package the settings name but the disk lacks; offline it says how to install it", async () => {
		registry.current.publish(skillPackage("shared-skills", "1.0.0", "shared-review"));
		const box = newSandbox();
		writeFileSync(join(box.agentDir, "settings.json"), JSON.stringify({ packages: ["npm:shared-skills"] }));

		const offline = await systemPromptOf(box, [], { AGENT_OFFLINE: "1" });
		expect(offline.prompt).not.toContain("shared-review");
		expect(offline.stderr).toContain(
			'Warning: package "npm:shared-skills" is not installed (run: agent install npm:shared-skills)',
		);

		const online = await systemPromptOf(box);
		expect(online.stderr).toContain("Installing npm:shared-skills...\n");
		expect(online.prompt).toContain("<name>shared-review</name>");
		expect(existsSync(join(box.agentDir, "npm", "node_modules", "shared-skills"))).toBe(true);
		expect((await systemPromptOf(box)).stderr).toBe("");
	});

	it("installs a trusted project's missing packages, and an untrusted project's never", async () => {
		registry.current.publish(skillPackage("project-skills", "1.0.0", "project-review"));
		const box = newSandbox();
		mkdirSync(join(box.cwd, ".agent"));
		writeFileSync(join(box.cwd, ".agent", "settings.json"), JSON.stringify({ packages: ["npm:project-skills"] }));
		const untrusted = await systemPromptOf(box);
		expect(untrusted.stderr).not.toContain("Installing");
		expect(existsSync(join(box.cwd, ".agent", "npm"))).toBe(false);

		const trusted = await systemPromptOf(box, ["--trust-project"]);
		expect(trusted.stderr).toContain("Installing npm:project-skills...\n");
		expect(trusted.prompt).toContain("<name>project-review</name>");
		expect(existsSync(join(box.cwd, ".agent", "npm", "node_modules", "project-skills"))).toBe(true);
	});

	it("installs -e npm:… for the run into AGENT_DIR's cache, and reuses it", async () => {
		registry.current.publish(skillPackage("try-me", "1.0.0", "try-me"));
		const box = newSandbox();
		const first = await systemPromptOf(box, ["-e", "npm:try-me"]);
		expect(first.stderr).toContain("Installing npm:try-me...\n");
		expect(first.prompt).toContain("<name>try-me</name>");
		expect(box.packages()).toEqual([]);
		const cache = box.tree(join(box.agentDir, "cache", "packages", "npm"));
		expect(cache.some((path) => path.endsWith(join("node_modules", "try-me")))).toBe(true);

		const requests = registry.current.requests.length;
		const second = await systemPromptOf(box, ["-e", "npm:try-me"]);
		expect(second.stderr).toBe("");
		expect(second.prompt).toContain("<name>try-me</name>");
		expect(registry.current.requests.length).toBe(requests);
	});
});
