import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getPackageRoot } from "./package-root.js";

/** The program's name wherever users see it (identity line, help, messages). */
export const APP_NAME = "agent";

/** The package version, read from the package's package.json (one small file). */
export const VERSION: string = (
	JSON.parse(readFileSync(join(getPackageRoot(), "package.json"), "utf8")) as { version: string }
).version;
