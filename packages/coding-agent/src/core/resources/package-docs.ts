import { join } from "node:path";
import { getPackageRoot } from "../../package-root.js";

export { getPackageRoot };

export function getReadmePath(): string {
	return join(getPackageRoot(), "README.md");
}

export function getDocsPath(): string {
	return join(getPackageRoot(), "docs");
}

export function getExamplesPath(): string {
	return join(getPackageRoot(), "examples");
}
