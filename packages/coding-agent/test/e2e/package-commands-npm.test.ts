// `agent install / remove / update / list` with npm packages, through the built binary: the real `npm` installs
// from a registry on 127.0.0.1 (test/helpers/npm-registry.ts), into the sandbox's AGENT_DIR or project.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startFakeModelServerForFile, textReply } from "../helpers/fake-model-server.js";
import {
	createPackageSandbox,
	PACKAGE_TEST_TIMEOUT_MS,
	type PackageSandbox,
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

function newSandbox(env?: NodeJS.ProcessEnv): PackageSandbox {
	sandbox = createPackageSandbox(registry.current, { modelServerUrl: server.baseUrl, ...(env ? { env } : {}) });
	return sandbox;
}

/** The system prompt the model got for `agent -p hi` (with extra arguments first). */
async function systemPromptOf(box: PackageSandbox, args: string[] = []): Promise<string> {
	server.setFallback(textReply("ok"));
	const before = server.requests.length;
	const result = await box.agent([...args, "-p", "hi"]);
	expect(result.code, result.stderr).toBe(0);
	const request = server.requests[before];
	return String(request?.body.messages.find((message) => message.role === "system")?.content ?? "");
}

function versionAt(dir: string): string {
	return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
}

const THROWING_EXTENSION = 'export default function () { throw new Error("the extension is broken"); }\n';
const WORKING_EXTENSION =
	"export default function (agent) { agent.registerCommand('hello', { handler: async () => {} }); }\n";

describe("installing, listing and removing an npm package", () => {
	it("installs it under AGENT_DIR, lists it, loads its skill, and removes it again", async () => {
		registry.current.publish(skillPackage("@acme/review-tools", "1.0.0", "code-review"));
		const box = newSandbox();
		const installed = await box.agent(["install", "npm:@acme/review-tools"]);
		expect(installed).toMatchObject({
			code: 0,
			stdout: "Installing npm:@acme/review-tools...\nInstalled npm:@acme/review-tools\n",
			stderr: "",
		});
		const dir = join(box.agentDir, "npm", "node_modules", "@acme", "review-tools");
		expect(existsSync(join(dir, "skills", "code-review", "SKILL.md"))).toBe(true);
		expect(box.packages()).toEqual(["npm:@acme/review-tools"]);

		const listed = await box.agent(["list"]);
		expect(listed.stdout).toBe(`User packages:\n  npm:@acme/review-tools\n    ${dir}\n`);
		expect(await systemPromptOf(box)).toContain("<name>code-review</name>");

		const removed = await box.agent(["remove", "npm:@acme/review-tools"]);
		expect(removed).toMatchObject({
			code: 0,
			stdout: "Removing npm:@acme/review-tools...\nRemoved npm:@acme/review-tools\n",
		});
		expect(existsSync(dir)).toBe(false);
		expect(box.packages()).toEqual([]);
		expect((await box.agent(["list"])).stdout).toBe("No packages installed.\n");
	});

	it("installs the package's dependencies below it and none of its peer dependencies", async () => {
		registry.current.publish({
			name: "left-pad-ish",
			version: "1.0.0",
			files: { "index.js": "module.exports = 1;" },
		});
		registry.current.publish(
			skillPackage("with-deps", "1.0.0", "deps", {
				dependencies: { "left-pad-ish": "^1.0.0" },
				peerDependencies: { "@mariozechner/pi-coding-agent": "*", "@agent/coding-agent": "*" },
			}),
		);
		const box = newSandbox();
		expect((await box.agent(["install", "npm:with-deps"])).code).toBe(0);
		const dir = join(box.agentDir, "npm", "node_modules", "with-deps");
		expect(existsSync(join(dir, "node_modules", "left-pad-ish", "index.js"))).toBe(true);
		expect(box.tree(join(box.agentDir, "npm", "node_modules"))).not.toContain("@mariozechner");
	});

	it("never runs lifecycle scripts unless asked with --allow-scripts", async () => {
		const box = newSandbox();
		const marker = join(box.root, "postinstall-ran");
		registry.current.publish(
			skillPackage("scripted", "1.0.0", "scripted", {
				scripts: { postinstall: `node -e "require('fs').writeFileSync(process.argv[1], '')" ${marker}` },
			}),
		);
		expect((await box.agent(["install", "npm:scripted"])).code).toBe(0);
		expect(existsSync(marker)).toBe(false);
		expect((await box.agent(["install", "--allow-scripts", "npm:scripted"])).code).toBe(0);
		expect(existsSync(marker)).toBe(true);
		expect(box.packages()).toEqual(["npm:scripted"]);
	});

	it("installs for the project with -l, loaded only once the project is trusted", async () => {
		registry.current.publish(skillPackage("team-skills", "1.0.0", "team-review"));
		const box = newSandbox();
		const installed = await box.agent(["install", "-l", "npm:team-skills"]);
		expect(installed.code, installed.stderr).toBe(0);
		expect(installed.stdout).toContain(`Note: ${box.cwd} is not a trusted project`);
		const dir = join(box.cwd, ".agent", "npm", "node_modules", "team-skills");
		expect(existsSync(dir)).toBe(true);
		expect(readFileSync(join(box.cwd, ".agent", "npm", ".gitignore"), "utf8")).toBe("*\n!.gitignore\n");
		expect(box.packages("project")).toEqual(["npm:team-skills"]);
		expect(box.packages("user")).toEqual([]);

		expect((await box.agent(["list"])).stdout).toBe(
			`Project packages (not loaded: this project is not trusted):\n  npm:team-skills\n    ${dir}\n`,
		);
		expect(await systemPromptOf(box)).not.toContain("team-review");
		expect(await systemPromptOf(box, ["--trust-project"])).toContain("<name>team-review</name>");
		expect((await box.agent(["list"])).stdout).toBe(`Project packages:\n  npm:team-skills\n    ${dir}\n`);

		const removed = await box.agent(["remove", "-l", "npm:team-skills"]);
		expect(removed.code).toBe(0);
		expect(existsSync(dir)).toBe(false);
		expect(box.packages("project")).toEqual([]);
	});

	it("replaces the settings entry when another version is installed, keeping its filters", async () => {
		registry.current.publish(skillPackage("versioned", "1.0.0", "versioned"));
		registry.current.publish(skillPackage("versioned", "2.0.0", "versioned"));
		const box = newSandbox();
		expect((await box.agent(["install", "npm:versioned@1.0.0"])).code).toBe(0);
		const settingsPath = join(box.agentDir, "settings.json");
		const settings = JSON.parse(readFileSync(settingsPath, "utf8")) as Record<string, unknown>;
		settings.packages = [{ source: "npm:versioned@1.0.0", prompts: [] }];
		writeFileSync(settingsPath, JSON.stringify(settings));
		expect((await box.agent(["install", "npm:versioned@2.0.0"])).code).toBe(0);
		expect(box.packages()).toEqual([{ source: "npm:versioned@2.0.0", prompts: [] }]);
		expect(versionAt(join(box.agentDir, "npm", "node_modules", "versioned"))).toBe("2.0.0");
		expect((await box.agent(["list"])).stdout).toContain("  npm:versioned@2.0.0 (filtered)\n");
	});
});

describe("updating", () => {
	it("moves unpinned packages to the latest version and leaves pinned ones", async () => {
		registry.current.publish(skillPackage("rolling", "1.0.0", "rolling"));
		registry.current.publish(skillPackage("pinned", "1.0.0", "pinned"));
		const box = newSandbox();
		expect((await box.agent(["install", "npm:rolling"])).code).toBe(0);
		expect((await box.agent(["install", "npm:pinned@1.0.0"])).code).toBe(0);
		registry.current.publish(skillPackage("rolling", "1.1.0", "rolling"));
		registry.current.publish(skillPackage("pinned", "1.1.0", "pinned"));

		const updated = await box.agent(["update"]);
		expect(updated).toMatchObject({
			code: 0,
			stdout: "Updating npm:rolling...\n  1.0.0 → 1.1.0\nUpdated packages\n",
			stderr: "",
		});
		expect(versionAt(join(box.agentDir, "npm", "node_modules", "rolling"))).toBe("1.1.0");
		expect(versionAt(join(box.agentDir, "npm", "node_modules", "pinned"))).toBe("1.0.0");

		const again = await box.agent(["update", "npm:rolling"]);
		expect(again.stdout).toBe("Updating npm:rolling...\n  already up to date (1.1.0)\nUpdated npm:rolling\n");
		const pinned = await box.agent(["update", "npm:pinned"]);
		expect(pinned.stdout).toContain("npm:pinned@1.0.0 is pinned; to change it, install another version");
		const unknown = await box.agent(["update", "npm:never-installed"]);
		expect(unknown).toMatchObject({ code: 1, stderr: "Error: No matching package found for npm:never-installed\n" });
	});

	it("keeps the installed version when the new one's extension throws", async () => {
		registry.current.publish({
			name: "flaky-ext",
			version: "1.0.0",
			files: { "extensions/hello.js": WORKING_EXTENSION },
		});
		const box = newSandbox();
		expect((await box.agent(["install", "npm:flaky-ext"])).code).toBe(0);
		registry.current.publish({
			name: "flaky-ext",
			version: "2.0.0",
			files: { "extensions/hello.js": THROWING_EXTENSION },
		});
		const updated = await box.agent(["update"]);
		expect(updated.code).toBe(1);
		expect(updated.stderr).toContain(
			"Error: Could not update npm:flaky-ext: npm:flaky-ext has extensions that fail to load:",
		);
		expect(updated.stderr).toContain("the extension is broken");
		expect(updated.stderr).toContain("The installed version was kept.");
		expect(versionAt(join(box.agentDir, "npm", "node_modules", "flaky-ext"))).toBe("1.0.0");
		expect(box.tree(join(box.agentDir, "npm"))).not.toContain(".staging");
	});
});

describe("a failed install leaves nothing behind and says what to do", () => {
	async function expectNothingInstalled(box: PackageSandbox, args: string[], ...messages: string[]) {
		const result = await box.agent(args);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe(`Installing ${args.at(-1)}...\n`);
		for (const message of messages) expect(result.stderr).toContain(message);
		expect(result.stderr).toMatch(/Nothing was installed\.\n$/);
		expect(box.tree(join(box.agentDir, "npm"))).toEqual([".gitignore"]);
		expect(box.packages()).toEqual([]);
	}

	it("when the registry cannot be reached", async () => {
		const box = newSandbox({ npm_config_registry: "http://127.0.0.1:9/" });
		await expectNothingInstalled(
			box,
			["install", "npm:anything"],
			"Error: Could not install npm:anything: npm install anything exited with code 1:",
			"Check the package name and version, and that the npm registry is reachable (npm config get registry).",
		);
	});

	it("when the npmCommand setting names a program that is not there", async () => {
		const box = newSandbox();
		writeFileSync(join(box.agentDir, "settings.json"), JSON.stringify({ npmCommand: ["no-such-npm", "--"] }));
		await expectNothingInstalled(
			box,
			["install", "npm:anything"],
			"Error: Could not install npm:anything: no-such-npm was not found: install it, or put it on PATH\nNothing was installed.\n",
		);
	});

	it("when the package does not exist", async () => {
		await expectNothingInstalled(newSandbox(), ["install", "npm:no-such-package"], "npm error 404");
	});

	it("when the package provides no resources", async () => {
		registry.current.publish({
			name: "just-a-library",
			version: "1.0.0",
			files: { "lib/main.js": "module.exports = 1;" },
			manifest: { main: "lib/main.js" },
		});
		await expectNothingInstalled(
			newSandbox(),
			["install", "npm:just-a-library"],
			'npm:just-a-library provides no extensions, skills, prompts or themes: its package.json needs an "agent" (or "pi") key listing them',
		);
	});

	it("when its manifest names a file that is not there", async () => {
		registry.current.publish({
			name: "bad-manifest",
			version: "1.0.0",
			files: { "skills/ok/SKILL.md": "---\nname: ok\ndescription: ok\n---\n" },
			manifest: { pi: { skills: ["./skills"], prompts: ["./prompts/missing.md"] } },
		});
		await expectNothingInstalled(
			newSandbox(),
			["install", "npm:bad-manifest"],
			"npm:bad-manifest is not a usable package:\n  prompt template path does not exist:",
		);
	});

	it("when its extension throws", async () => {
		registry.current.publish({
			name: "broken-ext",
			version: "1.0.0",
			files: { "extensions/boom.js": THROWING_EXTENSION },
		});
		await expectNothingInstalled(
			newSandbox(),
			["install", "npm:broken-ext"],
			'npm:broken-ext has extensions that fail to load:\n  Failed to load extension "extensions/boom.js": the extension is broken\n',
		);
	});
});

describe("usage", () => {
	it("answers usage errors like the reference, with exit code 1", async () => {
		const box = newSandbox();
		expect(await box.agent(["install"])).toMatchObject({
			code: 1,
			stdout: "",
			stderr: "Missing install source.\nUsage: agent install <source> [-l]\n",
		});
		expect(await box.agent(["remove"])).toMatchObject({
			code: 1,
			stderr: "Missing remove source.\nUsage: agent remove <source> [-l]\n",
		});
		expect(await box.agent(["install", "-x", "npm:foo"])).toMatchObject({
			code: 1,
			stderr: 'Unknown option -x for "install".\nUse "agent --help" or "agent install <source> [-l]".\n',
		});
		expect(await box.agent(["update", "-l"])).toMatchObject({
			code: 1,
			stderr: 'Unknown option -l for "update".\nUse "agent --help" or "agent update [source]".\n',
		});
		expect(await box.agent(["uninstall", "npm:nothing"])).toMatchObject({
			code: 1,
			stdout: "",
			stderr: "No matching package found for npm:nothing\n",
		});
		expect(await box.agent(["list"])).toMatchObject({ code: 0, stdout: "No packages installed.\n" });
		expect(await box.agent(["update"])).toMatchObject({ code: 0, stdout: "Updated packages\n" });
	});

	it("prints each command's help", async () => {
		const box = newSandbox();
		const install = await box.agent(["install", "--help"]);
		expect(install.code).toBe(0);
		expect(install.stdout).toMatch(
			/^Usage:\n {2}agent install <source> \[-l\]\n\nInstall a package and add it to settings\./,
		);
		expect(install.stdout).toContain("-l, --local    Install project-locally (.agent/settings.json)");
		expect(install.stdout).toContain("--allow-scripts");
		expect((await box.agent(["uninstall", "-h"])).stdout).toContain("Alias: agent uninstall <source> [-l]");
		expect((await box.agent(["list", "--help"])).stdout).toBe(
			"Usage:\n  agent list\n\nList installed packages from user and project settings.\n",
		);
	});

	it("refuses to install while the settings file to change does not parse, and leaves it alone", async () => {
		registry.current.publish(skillPackage("any-skill", "1.0.0", "any"));
		const box = newSandbox();
		const settingsPath = join(box.agentDir, "settings.json");
		writeFileSync(settingsPath, "{ broken");
		const result = await box.agent(["install", "npm:any-skill"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("Warning (package command, global settings):");
		expect(result.stderr).toContain("Error: the user settings file cannot be read or parsed");
		expect(readFileSync(settingsPath, "utf8")).toBe("{ broken");
		expect(box.tree(join(box.agentDir, "npm"))).toEqual([]);
	});
});
