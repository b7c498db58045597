import { defineConfig } from "vitest/config";
import { workspaceAliases } from "./vitest.shared.js";

// Benchmarks are vitest files under packages/*/bench/ that measure and report (see scripts/bench-report.ts).
// They run one file at a time so measurements do not compete for the two cores.
export default defineConfig({
	resolve: { alias: workspaceAliases },
	test: {
		include: ["packages/*/bench/**/*.bench.ts"],
		fileParallelism: false,
		pool: "forks",
		testTimeout: 600_000,
		hookTimeout: 600_000,
	},
});
