// `/reload` (AgentSession.reload) picks up packages installed or removed meanwhile — by `agent install` in another
// terminal, here a second SettingsManager and package manager on the same files.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { SettingsManager } from "../../src/core/config/settings-manager.js";
import { DefaultPackageManager } from "../../src/core/packages/package-manager.js";
import { createAgentSession } from "../../src/core/sdk.js";
import { SessionManager } from "../../src/core/session/session-manager.js";

let root: string;
let cwd: string;
let agentDir: string;
beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "agent-package-reload-")));
	cwd = join(root, "project");
	agentDir = join(root, "agent-home");
	mkdirSync(cwd);
	mkdirSync(agentDir);
	const skillDir = join(root, "pack", "skills", "packaged-skill");
	mkdirSync(skillDir, { recursive: true });
	writeFileSync(join(skillDir, "SKILL.md"), "---\nname: packaged-skill\ndescription: From a package\n---\nBody\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** What `agent install` / `agent remove` in another process does to the user settings. */
async function otherProcess(action: "install" | "remove"): Promise<void> {
	const settingsManager = SettingsManager.create(cwd, agentDir);
	const manager = new DefaultPackageManager({ cwd, agentDir, settingsManager });
	const source = join(root, "pack");
	if (action === "install") {
		await manager.install(source);
		manager.addSourceToSettings(source);
	} else {
		manager.removeSourceFromSettings(source);
		await manager.remove(source);
	}
	await settingsManager.flush();
}

it("reload() loads a package installed meanwhile and drops one removed meanwhile", async () => {
	const { session } = await createAgentSession({ cwd, agentDir, sessionManager: SessionManager.inMemory(cwd) });
	const skillNames = () => session.resourceLoader.getSkills().skills.map((skill) => skill.name);
	expect(skillNames()).toEqual([]);

	await otherProcess("install");
	await session.reload();
	expect(skillNames()).toEqual(["packaged-skill"]);
	expect(session.systemPrompt).toContain("<name>packaged-skill</name>");

	await otherProcess("remove");
	await session.reload();
	expect(skillNames()).toEqual([]);
	session.dispose();
});
