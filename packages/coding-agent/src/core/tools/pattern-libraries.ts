// The glob matcher (picomatch) and the gitignore matcher (ignore), loaded on first use: a run whose tools match no
// glob, whose permissions have no path rules and whose directories have no ignore files never loads them. Their
// users are synchronous, so they are required (both are CommonJS packages exporting one function); the bundle
// leaves them out, and they stay dependencies of this package.
import { createRequire } from "node:module";
import type Ignore from "ignore";
import type Picomatch from "picomatch";

let picomatchModule: typeof Picomatch | undefined;
let ignoreModule: typeof Ignore | undefined;

export function loadPicomatch(): typeof Picomatch {
	picomatchModule ??= createRequire(import.meta.url)("picomatch") as typeof Picomatch;
	return picomatchModule;
}

export function loadIgnore(): typeof Ignore {
	ignoreModule ??= createRequire(import.meta.url)("ignore") as typeof Ignore;
	return ignoreModule;
}
