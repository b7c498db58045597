import { defineConfig } from "vitest/config";

// Options of the whole run (the projects are listed in vitest.workspace.ts). Vitest's default on a 2-core
// machine is a single worker; most test files spend their time waiting for processes they spawn (the `agent`
// binary, npm, git, tmux, Chromium) or for local servers, so two files at a time keep both cores busy.
export default defineConfig({
	test: {
		maxWorkers: 2,
		minWorkers: 1,
	},
});
