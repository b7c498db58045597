import { readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
	decideProjectTrust,
	getTrustedProjectsPath,
	isProjectTrusted,
	promptProjectTrust,
	trustProject,
} from "../../src/core/extensions/trust.js";
import type { ExtensionPath } from "../../src/core/resources/resource-loader.js";
import { createExtensionWorld, type ExtensionWorld } from "../helpers/extension-harness.js";

let world: ExtensionWorld;
afterEach(() => world?.cleanup());

function extensions(w: ExtensionWorld): ExtensionPath[] {
	return [
		{ path: w.path("cli/tool.ts"), source: "path", scope: "temporary" },
		{ path: join(w.cwd, ".agent/extensions/local.ts"), source: "project", scope: "project" },
		{ path: w.path("shared/from-project-settings.ts"), source: "path", scope: "project" },
		{ path: join(w.agentDir, "extensions/mine.ts"), source: "user", scope: "user" },
	];
}

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

describe("deciding which extensions load", () => {
	it("leaves out the project's own extensions of an untrusted project and says how to trust it", async () => {
		world = createExtensionWorld();
		const decision = await decideProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			extensions: extensions(world),
		});
		expect(decision.trusted).toBe(false);
		expect(decision.allowed).toEqual([world.path("cli/tool.ts"), join(world.agentDir, "extensions/mine.ts")]);
		expect(decision.skipped).toEqual([
			join(world.cwd, ".agent/extensions/local.ts"),
			world.path("shared/from-project-settings.ts"),
		]);
		expect(decision.notice).toBe(
			`Skipped 2 project extension(s) because ${world.cwd} is not a trusted project: .agent/extensions/local.ts, ${world.path("shared/from-project-settings.ts")}\n` +
				`To trust it, start agent there interactively and accept, or run with --trust-project (remembered in ${getTrustedProjectsPath(world.agentDir)}).`,
		);
	});

	it("asks only when there is something to trust, and remembers a yes", async () => {
		world = createExtensionWorld();
		const asked: (readonly string[])[] = [];
		const prompt = async (files: readonly string[]) => {
			asked.push(files);
			return true;
		};
		const none = await decideProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			extensions: extensions(world).filter((extension) => extension.scope !== "project"),
			prompt,
		});
		expect(asked).toEqual([]);
		expect(none.skipped).toEqual([]);

		const yes = await decideProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			extensions: extensions(world),
			prompt,
		});
		expect(asked).toHaveLength(1);
		expect(yes).toMatchObject({ trusted: true, skipped: [] });
		expect(yes.allowed).toHaveLength(4);
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(true);
		const again = await decideProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			extensions: extensions(world),
			prompt,
		});
		expect(asked).toHaveLength(1);
		expect(again.trusted).toBe(true);
	});

	it("does not remember a no: the next start asks again", async () => {
		world = createExtensionWorld();
		let asked = 0;
		const prompt = async () => {
			asked++;
			return false;
		};
		await decideProjectTrust({ cwd: world.cwd, agentDir: world.agentDir, extensions: extensions(world), prompt });
		const second = await decideProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			extensions: extensions(world),
			prompt,
		});
		expect(asked).toBe(2);
		expect(second.trusted).toBe(false);
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(false);
	});

	it("--trust-project trusts without asking", async () => {
		world = createExtensionWorld();
		const decision = await decideProjectTrust({
			cwd: world.cwd,
			agentDir: world.agentDir,
			extensions: extensions(world),
			trustProjectFlag: true,
			prompt: async () => {
				throw new Error("must not ask");
			},
		});
		expect(decision.trusted).toBe(true);
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(true);
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
		writeFileSync(getTrustedProjectsPath(world.agentDir), "{ not json");
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(false);
		trustProject(world.cwd, world.agentDir);
		expect(isProjectTrusted(world.cwd, world.agentDir)).toBe(true);
	});
});

describe("the interactive question", () => {
	it("lists the files and trusts on y or yes only", async () => {
		world = createExtensionWorld();
		const files = [join(world.cwd, ".agent/extensions/local.ts")];
		for (const [answer, expected] of [
			["y", true],
			["YES", true],
			[" yes ", true],
			["", false],
			["n", false],
			["yep", false],
		] as const) {
			const io = terminal(answer);
			expect(await promptProjectTrust({ input: io.input, output: io.output, cwd: world.cwd, files })).toBe(expected);
			expect(io.written()).toBe(
				`${world.cwd} has extensions that would run with your permissions:\n  .agent/extensions/local.ts\n\n` +
					"Trust this project and load them? [y/N] ",
			);
		}
	});

	it("treats a closed input as no", async () => {
		world = createExtensionWorld();
		const input = new PassThrough();
		input.end();
		const output = new PassThrough();
		expect(await promptProjectTrust({ input, output, cwd: world.cwd, files: [] })).toBe(false);
	});
});
