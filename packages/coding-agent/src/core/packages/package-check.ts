// What a package must pass before it is moved into place (or, for a local path, written to the settings): it
// provides at least one resource, its manifest names files that exist, and its extensions load. A package that
// fails is not installed, so a broken release never replaces a working one.
import { relative, sep } from "node:path";
import { APP_NAME } from "../../config.js";
import type { ResourceDiagnostic } from "../resources/diagnostics.js";
import { RESOURCE_TYPES, readPackageManifest } from "../resources/package-manifest.js";
import { isFile } from "../resources/path-probes.js";
import { collectResourceFiles } from "../resources/resource-files.js";
import { collectPackageFiles } from "../resources/resource-sources.js";

export class PackageCheckError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "PackageCheckError";
	}
}

export interface PackageCheckOptions {
	cwd: string;
	agentDir: string;
	/** Import the package's extensions and run their factories (default true). */
	loadExtensions?: boolean;
}

export function noResourcesText(source: string): string {
	return (
		`${source} provides no extensions, skills, prompts or themes: its package.json needs an "${APP_NAME}" ` +
		`(or "pi") key listing them, or it needs an extensions/, skills/, prompts/ or themes/ directory`
	);
}

/** Problems that make a package unusable: a manifest that does not parse, or names files that are not there. */
function isBlockingDiagnostic(diagnostic: ResourceDiagnostic, root: string): boolean {
	if (diagnostic.type === "collision" || diagnostic.type === "duplicate") return false;
	return relative(root, diagnostic.path) === "package.json" || diagnostic.message.includes("does not exist");
}

/** Throws a `PackageCheckError` saying what is wrong with the package at `root`. */
export async function checkPackage(root: string, source: string, options: PackageCheckOptions): Promise<void> {
	const diagnostics: ResourceDiagnostic[] = [];
	const manifest = isFile(root) ? null : (readPackageManifest(root, diagnostics) ?? null);
	const extensions = isFile(root)
		? collectResourceFiles("extensions", root, "resource", diagnostics)
		: collectPackageFiles(root, "extensions", diagnostics, manifest);
	let count = extensions.length;
	if (!isFile(root)) {
		for (const type of RESOURCE_TYPES) {
			if (type !== "extensions") count += collectPackageFiles(root, type, diagnostics, manifest).length;
		}
	}
	const problems = diagnostics.filter((diagnostic) => isBlockingDiagnostic(diagnostic, root));
	if (problems.length > 0) {
		const lines = problems.map((problem) => `  ${problem.message}: ${problem.path}`);
		throw new PackageCheckError(`${source} is not a usable package:\n${[...new Set(lines)].join("\n")}`);
	}
	if (count === 0) throw new PackageCheckError(noResourcesText(source));
	if (options.loadExtensions === false || extensions.length === 0) return;

	const { loadExtensions } = await import("../extensions/loader.js");
	const { extensionLoadFailureText } = await import("../extensions/setup.js");
	const result = await loadExtensions(extensions, { cwd: options.cwd, agentDir: options.agentDir });
	if (result.errors.length > 0) {
		// The package is checked where it is staged: name its files relative to its root.
		const prefix = `${root}${sep}`;
		const lines = result.errors.map((error) => `  ${extensionLoadFailureText(error).split(prefix).join("")}`);
		throw new PackageCheckError(`${source} has extensions that fail to load:\n${lines.join("\n")}`);
	}
}
