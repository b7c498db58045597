#!/usr/bin/env node
// The `agent` command. A CommonJS file on purpose: Node starts one faster than an ES module, so `agent --version`
// alone (what editors and scripts run to probe the agent) is answered here, at Node's floor, with one write to
// fd 1. Everything else runs the bundled command line, dist/agent.cjs.
"use strict";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
	const { readFileSync, writeSync } = require("node:fs");
	const { join } = require("node:path");
	try {
		const { version } = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8"));
		writeSync(1, `${version}\n`);
	} catch {
		process.exitCode = 1;
	}
} else {
	try {
		require("../dist/agent.cjs");
	} catch (error) {
		process.stderr.write(`Error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exitCode = 1;
	}
}
