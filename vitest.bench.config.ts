import { defineConfig } from "vitest/config";
import { workspaceAliases } from "./vitest.shared.js";

// Benchmarks are vitest files under packages/*/bench/ that measure and report (see scripts/bench-report.ts).
// They run one file at a time so measurements do not compete for the two cores. The inline workspace keeps
// vitest from picking up the root vitest.workspace.ts (the unit-test projects).
export default defineConfig({
	test: {
		workspace: [
			{
				resolve: { alias: workspaceAliases },
				test: {
					name: "bench",
					include: ["packages/*/bench/**/*.bench.ts"],
					fileParallelism: false,
					pool: "forks",
					testTimeout: 600_000,
					hookTimeout: 600_000,
				},
			},
		],
	},
});
