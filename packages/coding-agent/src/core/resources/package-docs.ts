import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The installed @agent/coding-agent package (this file is `<root>/{src,dist}/core/resources/…`). */
export function getPackageRoot(): string {
	return fileURLToPath(new URL("../../../", import.meta.url)).replace(/[\\/]$/, "");
}

export function getReadmePath(): string {
	return join(getPackageRoot(), "README.md");
}

export function getDocsPath(): string {
	return join(getPackageRoot(), "docs");
}

export function getExamplesPath(): string {
	return join(getPackageRoot(), "examples");
}
