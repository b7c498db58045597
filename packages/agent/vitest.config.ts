import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.js";

export default defineProject({
	resolve: { alias: workspaceAliases },
	test: {
		name: "agent",
		include: ["test/**/*.test.ts"],
		setupFiles: ["../../vitest.setup.ts"],
		testTimeout: 20_000,
	},
});
