import { readFileSync } from "node:fs";

/** The program's name wherever users see it (identity line, help, messages). */
export const APP_NAME = "agent";

/** The package version, read from package.json next to dist/ (cheap: one small file). */
export const VERSION: string = (() => {
	const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
		version: string;
	};
	return packageJson.version;
})();
