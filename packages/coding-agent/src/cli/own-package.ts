// The CLI runs from a bundle that holds its own copy of this package: extensions must get that copy (its
// classes, its provider registry), not the package's index loaded again by name. Called by the commands that
// load extensions, so that `--version` and `--help` load none of this.
import { provideOwnPackage } from "../core/extensions/host-modules.js";

export function provideBundledPackage(): void {
	provideOwnPackage(() => import("../index.js"));
}
