import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
	getTrustedProjectsPath,
	isProjectTrusted,
	SettingsManager,
	trustProject,
} from "../../src/core/config/index.js";
import {
	promptProjectTrust,
	resolveProjectTrust,
	TRUST_PROJECT_QUESTION,
	type UntrustedProjectParts,
} from "../../src/core/extensions/trust.js";
import { DefaultResourceLoader } from "../../src/core/resources/resource-loader.js";
import { createExtensionWorld, type ExtensionWorld } from "../helpers/extension-harness.js";

let world: ExtensionWorld;
afterEach(() => world?.cleanup());

const EXTENSION = "export default () => {};";

/** A project with its own extension, settings that run code and name another extension, and a user extension. */
function untrustedProject(w: ExtensionWorld, projectSettings: Record<string, unknown> = {}) {
	w.write({
		"project/.agent/extensions/local.ts": EXTENSION,
		"shared/from-project-settings.ts": EXTENSION,
		"agent-home/extensions/mine.ts": EXTENSION,
		"project/.agent/settings.json": JSON.stringify({
			theme: "light",
			shellPath: "./evil.sh",
			extensions: ["../../shared/from-project-settings.ts"],
			...projectSettings,
		}),
		"project/.mcp.json": JSON.stringify({ mcpServers: { db: { command: "./start-db.sh" } } }),
	});
}

async function open(w: ExtensionWorld, settingsManager = SettingsManager.create(w.cwd, w.agentDir)) {
	const resourceLoader = new DefaultResourceLoader({ cwd: w.cwd, agentDir: w.agentDir, settingsManager });
	await resourceLoader.reload();
	const extensionPaths = () => resourceLoader.getExtensionPaths().extensions.map((extension) => extension.path);
	return { settingsManager, resourceLoader, extensionPaths };
}

describe("deciding what of a project runs", () => {
	it("leaves out an untrusted project's extensions and code-running settings, with one notice naming them", async () => {
		world = createExtensionWorld();
		untrustedProject(world);
		const { settingsManager, resourceLoader, extensionPaths } = await open(world);
		const decision = await resolveProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			settingsManager,
			resourceLoader,
		});
		expect(decision.trusted).toBe(false);
		expect(decision.ignored).toEqual({
			settings: [
				{ key: "shellPath", value: "./evil.sh" },
				{ key: "extensions", value: ["../../shared/from-project-settings.ts"] },
			],
			extensions: [join(world.cwd, ".agent/extensions/local.ts")],
			files: [],
			mcpServers: [{ name: "db", file: join(world.cwd, ".mcp.json") }],
		});
		expect(decision.notice).toBe(
			[
				`Ignored because ${world.cwd} is not a trusted project:`,
				"  project setting shellPath = ./evil.sh",
				'  project setting extensions = ["../../shared/from-project-settings.ts"]',
				"  project extension .agent/extensions/local.ts",
				"  project MCP server db (.mcp.json)",
				`To trust it, start agent there interactively and accept, or run with --trust-project (remembered in ${getTrustedProjectsPath(world.agentDir)}).`,
			].join("\n"),
		);
		expect(settingsManager.getShellPath()).toBeUndefined();
		expect(settingsManager.getTheme()).toBe("light");
		expect(extensionPaths()).not.toContain(world.path("shared/from-project-settings.ts"));
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(false);
	});

	it("asks only when something waits; a yes is remembered and applies the settings in the same process", async () => {
		world = createExtensionWorld();
		world.write({ "agent-home/extensions/mine.ts": EXTENSION, "project/.agent/settings.json": '{"theme":"light"}' });
		const asked: UntrustedProjectParts[] = [];
		const prompt = async (parts: UntrustedProjectParts) => {
			asked.push(parts);
			return true;
		};
		const quiet = await open(world);
		const none = await resolveProjectTrust({ cwd: world.cwd, agentDir: world.agentDir, ...quiet, prompt });
		expect(asked).toEqual([]);
		expect(none).toEqual({ trusted: false, ignored: { settings: [], extensions: [], files: [], mcpServers: [] } });

		untrustedProject(world, { shellCommandPrefix: "source ./prefix.sh" });
		const { settingsManager, resourceLoader, extensionPaths } = await open(world);
		const yes = await resolveProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			settingsManager,
			resourceLoader,
			prompt,
		});
		expect(asked).toHaveLength(1);
		expect(asked[0]?.settings.map((setting) => setting.key)).toEqual([
			"shellPath",
			"shellCommandPrefix",
			"extensions",
		]);
		expect(yes).toEqual({ trusted: true, ignored: { settings: [], extensions: [], files: [], mcpServers: [] } });
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(true);
		expect(settingsManager.getShellPath()).toBe("./evil.sh");
		expect(settingsManager.getShellCommandPrefix()).toBe("source ./prefix.sh");
		// The loader was read again: the extension the project's settings name is found now.
		expect(extensionPaths()).toContain(world.path("shared/from-project-settings.ts"));

		const again = await resolveProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			...(await open(world)),
			prompt,
		});
		expect(asked).toHaveLength(1);
		expect(again.trusted).toBe(true);
	});

	it("asks for settings alone (a project without extensions)", async () => {
		world = createExtensionWorld();
		world.write({ "project/.agent/settings.json": JSON.stringify({ shellCommandPrefix: "touch /tmp/x" }) });
		let asked = 0;
		const decision = await resolveProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			...(await open(world)),
			prompt: async () => {
				asked++;
				return false;
			},
		});
		expect(asked).toBe(1);
		expect(decision.notice).toContain("project setting shellCommandPrefix = touch /tmp/x");
	});

	it("does not remember a no: the next start asks again", async () => {
		world = createExtensionWorld();
		untrustedProject(world);
		let asked = 0;
		const prompt = async () => {
			asked++;
			return false;
		};
		await resolveProjectTrust({ cwd: world.cwd, agentDir: world.agentDir, ...(await open(world)), prompt });
		const second = await resolveProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			...(await open(world)),
			prompt,
		});
		expect(asked).toBe(2);
		expect(second.trusted).toBe(false);
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(false);
	});

	it("--trust-project trusts without asking", async () => {
		world = createExtensionWorld();
		untrustedProject(world);
		const opened = await open(world);
		const decision = await resolveProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			...opened,
			trustProjectFlag: true,
			prompt: async () => {
				throw new Error("must not ask");
			},
		});
		expect(decision.trusted).toBe(true);
		expect(opened.settingsManager.getShellPath()).toBe("./evil.sh");
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(true);
	});

	it("honours a remembered decision with a settings manager made without it (an embedder's own)", async () => {
		world = createExtensionWorld();
		untrustedProject(world);
		trustProject(world.cwd, world.agentDir);
		const own = SettingsManager.create(world.cwd, world.agentDir, { projectTrusted: false });
		const opened = await open(world, own);
		expect(opened.extensionPaths()).not.toContain(world.path("shared/from-project-settings.ts"));
		const decision = await resolveProjectTrust({ cwd: world.cwd, agentDir: world.agentDir, ...opened });
		expect(decision.trusted).toBe(true);
		expect(own.getShellPath()).toBe("./evil.sh");
		expect(opened.extensionPaths()).toContain(world.path("shared/from-project-settings.ts"));
	});
});

describe("the trusted-projects file", () => {
	it("is readable only by the user and keys projects by their real path", () => {
		world = createExtensionWorld();
		const link = world.path("link-to-project");
		symlinkSync(world.cwd, link);
		trustProject(link, world.agentDir);
		const file = getTrustedProjectsPath(world.agentDir);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ trusted: [world.cwd] });
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(true);
		trustProject(world.cwd, world.agentDir);
		expect(JSON.parse(readFileSync(file, "utf8")).trusted).toHaveLength(1);
	});

	it("trusts nothing when the file is damaged", () => {
		world = createExtensionWorld();
		mkdirSync(world.agentDir, { recursive: true });
		writeFileSync(getTrustedProjectsPath(world.agentDir), "{ not json");
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(false);
		trustProject(world.cwd, world.agentDir);
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(true);
	});
});

/** Answers the prompt with `answer` once it was asked; returns what was written. */
function terminal(answer: string): { input: PassThrough; output: PassThrough; written: () => string } {
	const input = new PassThrough();
	const output = new PassThrough();
	let written = "";
	output.on("data", (chunk: Buffer) => {
		written += chunk.toString();
		if (written.includes("[y/N] ")) input.end(`${answer}\n`);
	});
	return { input, output, written: () => written };
}

describe("the interactive question", () => {
	it("lists what waits, as the notice does, and trusts on y or yes only", async () => {
		world = createExtensionWorld();
		const parts: UntrustedProjectParts = {
			settings: [
				{ key: "shellPath", value: "./evil.sh" },
				{ key: "shellCommandPrefix", value: "echo hi\nsource x" },
			],
			extensions: [join(world.cwd, ".agent/extensions/local.ts")],
			files: [{ path: join(world.cwd, "AGENTS.md"), target: "/home/someone/.ssh/id_rsa" }],
			mcpServers: [{ name: "db", file: join(world.cwd, ".agent/mcp.json") }],
		};
		for (const [answer, expected] of [
			["y", true],
			["YES", true],
			[" yes ", true],
			["", false],
			["n", false],
			["yep", false],
		] as const) {
			const io = terminal(answer);
			expect(await promptProjectTrust({ input: io.input, output: io.output, cwd: world.cwd, parts })).toBe(expected);
			expect(io.written()).toBe(
				`${world.cwd} is not a trusted project. These run code or are read with your permissions only once you trust it:\n` +
					"  project setting shellPath = ./evil.sh\n" +
					'  project setting shellCommandPrefix = "echo hi\\nsource x"\n' +
					"  project extension .agent/extensions/local.ts\n" +
					"  project file AGENTS.md (leads to /home/someone/.ssh/id_rsa)\n" +
					"  project MCP server db (.agent/mcp.json)\n\n" +
					TRUST_PROJECT_QUESTION,
			);
		}
	});

	it("treats a closed input as no", async () => {
		world = createExtensionWorld();
		const input = new PassThrough();
		input.end();
		const output = new PassThrough();
		const parts = { settings: [], extensions: [], files: [], mcpServers: [] };
		expect(await promptProjectTrust({ input, output, cwd: world.cwd, parts })).toBe(false);
	});
});
