// Start-up installs what the configuration names but the disk lacks (docs/packages.md): the user's
// packages, a trusted project's packages (a teammate's clone has the settings, not the files), and `-e npm:…` /
// `-e git:…` sources (cached per user). Nothing is spawned when everything is there, or when offline.
import { existsSync } from "node:fs";
import type { SettingsManager } from "../core/config/settings-manager.js";
import { readScopePackages } from "../core/packages/package-settings.js";
import {
	type PackageScope,
	packageInstallPath,
	packageSourceString,
	parsePackageSource,
} from "../core/resources/package-sources.js";

const TRUTHY = new Set(["1", "true", "yes"]);

export interface StartupPackagesOptions {
	cwd: string;
	agentDir: string;
	settingsManager: SettingsManager;
	/** `-e` arguments: npm and git sources among them are installed for this run. */
	extensionSources: readonly string[];
	/** Progress (`Installing npm:x...`), shown at once; never stdout. */
	progress: (line: string) => void;
	/** Failures (`Warning: …`), with the other start-up warnings. */
	warn: (lines: readonly string[]) => void;
}

function isMissing(source: string, scope: PackageScope, options: StartupPackagesOptions): boolean {
	const parsed = parsePackageSource(source);
	return parsed.type !== "local" && !existsSync(packageInstallPath(parsed, scope, options));
}

/** Installs missing packages; resolves true when something was installed (the resources need a reload). */
export async function installStartupPackages(options: StartupPackagesOptions): Promise<boolean> {
	if (TRUTHY.has((process.env.AGENT_OFFLINE ?? "").toLowerCase())) return false;
	const { settingsManager } = options;
	const configured = (["user", "project"] as const).flatMap((scope) =>
		scope === "project" && !settingsManager.isProjectTrusted()
			? []
			: readScopePackages(settingsManager, scope).map((pkg) => ({ source: packageSourceString(pkg), scope })),
	);
	const temporary = options.extensionSources.filter((source) => isMissing(source, "temporary", options));
	if (temporary.length === 0 && !configured.some(({ source, scope }) => isMissing(source, scope, options))) {
		return false;
	}
	const { DefaultPackageManager } = await import("../core/packages/package-manager.js");
	const manager = new DefaultPackageManager({ cwd: options.cwd, agentDir: options.agentDir, settingsManager });
	manager.setProgressCallback((event) => {
		if (event.type === "start" && event.message) options.progress(event.message);
	});
	const failures = [...(await manager.installTemporary(temporary)), ...(await manager.installMissingPackages())];
	options.warn(failures.map((failure) => `Warning: ${failure}`));
	return true;
}
