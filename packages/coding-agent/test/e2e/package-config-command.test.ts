// `agent config` in a real terminal (tmux): it lists a package's resources, Space turns one off (written to the
// settings file as a `-path` filter), Esc closes with exit code 0; without a terminal it says so.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI_PATH, type CliSandbox, createCliSandbox, runCli } from "../helpers/cli-sandbox.js";
import { isTmuxAvailable, TmuxSession } from "../helpers/tmux-session.js";

let sandbox: CliSandbox | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
	await tmux?.kill();
	tmux = undefined;
	sandbox?.cleanup();
	sandbox = undefined;
});

function sandboxWithPackage(): CliSandbox {
	sandbox = createCliSandbox({ settings: { packages: ["../pack"] } });
	for (const name of ["alpha", "beta"]) {
		mkdirSync(join(sandbox.root, "pack", "skills", name), { recursive: true });
		writeFileSync(
			join(sandbox.root, "pack", "skills", name, "SKILL.md"),
			`---\nname: ${name}\ndescription: The ${name} skill\n---\n`,
		);
	}
	return sandbox;
}

describe("agent config", () => {
	it.skipIf(!isTmuxAvailable())("toggles a package's skill off in the settings and exits 0", async () => {
		const box = sandboxWithPackage();
		tmux = TmuxSession.start({ command: [process.execPath, CLI_PATH, "config"], cwd: box.cwd, env: box.env });
		await tmux.waitFor(/\[x\] beta/);
		const screen = tmux.capture();
		expect(screen).toContain("Resource Configuration");
		expect(screen).toContain("../pack (user)");
		tmux.press("Down");
		tmux.press("Space");
		await tmux.waitFor(/\[ \] beta/);
		tmux.press("Escape");
		expect(await tmux.waitForExit()).toBe(0);
		const settings = JSON.parse(readFileSync(join(box.agentDir, "settings.json"), "utf8"));
		expect(settings.packages).toEqual([{ source: "../pack", skills: ["-skills/beta/SKILL.md"] }]);
	});

	it("needs a terminal", async () => {
		const box = sandboxWithPackage();
		expect(await runCli(box, ["config"])).toMatchObject({
			code: 1,
			stdout: "",
			stderr: "Error: agent config needs a terminal; without one, edit the settings files (see docs/packages.md)\n",
		});
	});
});
