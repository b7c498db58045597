// The reference's resolving API on DefaultPackageManager, for SDK users: resolve() lists every resource with
// whether it is enabled and where it came from; resolveExtensionSources() the resources of given sources.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SettingsManager } from "../../src/core/config/settings-manager.js";
import { DefaultPackageManager } from "../../src/core/packages/package-manager.js";
import { createTempTree, type TempTree } from "../helpers/resources-temp-tree.js";

const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\nBody\n`;

let tree: (TempTree & { remove(): void }) | undefined;
afterEach(() => tree?.remove());

function manager(settings: Record<string, unknown>): DefaultPackageManager {
	tree = createTempTree("agent-resolve-");
	tree.writeAll({
		"pack/skills/alpha/SKILL.md": skill("alpha"),
		"pack/extensions/tool.ts": "export default function () {}\n",
		"agent/skills/mine/SKILL.md": skill("mine"),
		"agent/settings.json": JSON.stringify(settings),
		"single.ts": "export default function () {}\n",
	});
	tree.mkdir("project");
	const cwd = tree.path("project");
	const agentDir = tree.path("agent");
	return new DefaultPackageManager({
		cwd,
		agentDir,
		homeDir: tree.path("home"),
		settingsManager: SettingsManager.create(cwd, agentDir),
	});
}

describe("resolve()", () => {
	it("lists package and top-level resources with their metadata and enabled state", async () => {
		const resolved = await manager({ packages: [{ source: "../pack", skills: [] }] }).resolve();
		const root = tree?.path("pack");
		expect(resolved.extensions).toEqual([
			{
				path: join(root as string, "extensions", "tool.ts"),
				enabled: true,
				metadata: { source: "../pack", scope: "user", origin: "package", baseDir: root },
			},
		]);
		expect(
			resolved.skills.map((s) => [s.path.split("/").at(-2), s.enabled, s.metadata.origin, s.metadata.source]),
		).toEqual([
			["alpha", false, "package", "../pack"],
			["mine", true, "top-level", "auto"],
		]);
	});
});

describe("resolveExtensionSources()", () => {
	it("gives every resource of a local package directory, and a single file as an extension", async () => {
		const pm = manager({});
		const resolved = await pm.resolveExtensionSources(["../pack", "../single.ts"], { temporary: true });
		expect(resolved.extensions.map((e) => e.path.split("/").at(-1))).toEqual(["tool.ts", "single.ts"]);
		expect(resolved.skills.map((s) => s.path.split("/").at(-2))).toEqual(["alpha"]);
		expect(resolved.skills[0]?.metadata).toMatchObject({ scope: "temporary", origin: "package", source: "../pack" });
	});
});
