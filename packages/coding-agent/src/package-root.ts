import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "@agent/coding-agent";
let packageRoot: string | undefined;

/**
 * The installed @agent/coding-agent package's root folder. Found by walking up from this module, because
 * the module sits at different depths in the library build (`dist/…`), the bundled CLI (`dist/chunks/…`)
 * and the sources (`src/…`, tests).
 */
export function getPackageRoot(): string {
	if (packageRoot) return packageRoot;
	let dir = dirname(fileURLToPath(import.meta.url));
	while (true) {
		const candidate = join(dir, "package.json");
		if (
			existsSync(candidate) &&
			(JSON.parse(readFileSync(candidate, "utf8")) as { name?: string }).name === PACKAGE_NAME
		) {
			packageRoot = dir;
			return dir;
		}
		const parent = dirname(dir);
		if (parent === dir) throw new Error(`Cannot find the ${PACKAGE_NAME} package folder above ${import.meta.url}`);
		dir = parent;
	}
}
