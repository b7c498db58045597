// Child process for the concurrent-writers test: `node jiti-cli.mjs resources-settings-writer.ts <cwd> <agentDir> <a|b>`.
// Loads the settings, prints "ready", waits for a line on stdin, then applies its changes one write at a time.
import { createInterface } from "node:readline";
import { SettingsManager } from "../../src/core/config/settings-manager.js";

type Step = (settings: SettingsManager) => void;

/** Each writer changes its own keys; both change different nested keys of `terminal` and `images`. */
export const WRITER_STEPS: Record<string, Step[]> = {
	a: [
		(s) => s.setDefaultModelAndProvider("provider-a", "model-a"),
		(s) => s.setDefaultThinkingLevel("high"),
		(s) => s.setSteeringMode("all"),
		(s) => s.setFollowUpMode("all"),
		(s) => s.setHideThinkingBlock(true),
		(s) => s.setQuietStartup(true),
		(s) => s.setCollapseChangelog(true),
		(s) => s.setLastChangelogVersion("9.9.9"),
		(s) => s.setCompactionEnabled(false),
		(s) => s.setShowImages(false),
		(s) => s.setImageAutoResize(false),
		(s) => s.setEnabledModels(["model-a*"]),
		(s) => s.setPackages(["npm:package-a"]),
	],
	b: [
		(s) => s.setTheme("light"),
		(s) => s.setTransport("websocket"),
		(s) => s.setDoubleEscapeAction("fork"),
		(s) => s.setTreeFilterMode("all"),
		(s) => s.setEditorPaddingX(2),
		(s) => s.setAutocompleteMaxVisible(10),
		(s) => s.setShowHardwareCursor(true),
		(s) => s.setEnableSkillCommands(false),
		(s) => s.setRetryEnabled(false),
		(s) => s.setClearOnShrink(true),
		(s) => s.setBlockImages(true),
		(s) => s.setResourcePaths("skills", ["skills-b"]),
	],
};

async function main(): Promise<void> {
	const [cwd, agentDir, role] = process.argv.slice(2);
	const steps = role ? WRITER_STEPS[role] : undefined;
	if (!cwd || !agentDir || !steps) throw new Error("usage: resources-settings-writer.ts <cwd> <agentDir> <a|b>");
	const settings = SettingsManager.create(cwd, agentDir);
	const input = createInterface({ input: process.stdin });
	const go = new Promise<void>((resolve) => input.once("line", () => resolve()));
	process.stdout.write("ready\n");
	await go;
	input.close();
	for (const step of steps) {
		step(settings);
		await settings.flush();
	}
	const errors = settings.drainErrors();
	if (errors.length > 0) {
		process.stderr.write(`${JSON.stringify(errors)}\n`);
		process.exitCode = 1;
	}
}

if (process.argv[1]?.endsWith("resources-settings-writer.ts")) {
	main().catch((error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
		process.exitCode = 1;
	});
}
