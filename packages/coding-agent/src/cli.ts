#!/usr/bin/env node
// Entry point of the `agent` command.
import { APP_NAME, VERSION } from "./config.js";

const args = process.argv.slice(2);
if (args.includes("--version") || args.includes("-v")) {
	process.stdout.write(`${VERSION}\n`);
} else {
	process.stdout.write(`${APP_NAME} ${VERSION}\n`);
}
