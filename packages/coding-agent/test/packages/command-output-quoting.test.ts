import { describe, expect, it } from "vitest";
import { quoteOutput } from "../../src/core/packages/run-command.js";

describe("quoting a failed command's output", () => {
	it("keeps npm's error lines and drops the stack and the error-object dump of a network failure", () => {
		const output = [
			"npm error code ECONNREFUSED",
			"npm error syscall connect",
			"npm error FetchError: request to http://127.0.0.1:9/x failed, reason: connect ECONNREFUSED 127.0.0.1:9",
			"npm error     at ClientRequest.<anonymous> (/usr/lib/node_modules/npm/lib/index.js:130:14)",
			"npm error     at process.processTicksAndRejections (node:internal/process/task_queues:83:21) {",
			"npm error   code: 'ECONNREFUSED',",
			"npm error   port: 9,",
			"npm error }",
			"npm error",
			"npm error If you are behind a proxy, please make sure that the 'proxy' config is set properly.",
			"npm error A complete log of this run can be found in: /home/me/.npm/_logs/debug-0.log",
			"npm notice New minor version of npm available!",
		].join("\n");
		expect(quoteOutput(output)).toBe(
			[
				"  npm error code ECONNREFUSED",
				"  npm error syscall connect",
				"  npm error FetchError: request to http://127.0.0.1:9/x failed, reason: connect ECONNREFUSED 127.0.0.1:9",
				"  npm error If you are behind a proxy, please make sure that the 'proxy' config is set properly.",
			].join("\n"),
		);
	});

	it("keeps the last twelve lines", () => {
		const output = Array.from({ length: 20 }, (_, i) => `fatal: line ${i}`).join("\n");
		expect(quoteOutput(output).split("\n")).toHaveLength(12);
		expect(quoteOutput(output)).toMatch(/line 19$/);
	});
});
