import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findGeneratorClosures } from "../../../../scripts/generator-closures.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const packages = ["ai", "agent", "tui", "coding-agent"];

describe("generators", () => {
	it("are declared once, never made per call (each generator closure V8 runs keeps its scope until a full collection)", () => {
		const dirs = packages.map((name) => join(root, "packages", name, "src"));
		expect(findGeneratorClosures(dirs, root)).toEqual([]);
	});
});
