import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.js";

export default defineProject({
	resolve: { alias: workspaceAliases },
	test: {
		name: "coding-agent",
		include: ["test/**/*.test.ts"],
		setupFiles: ["../../vitest.setup.ts", "./test/helpers/hermetic-env.ts"],
		testTimeout: 20_000,
	},
});
