// `node --import <this file>`: records the URL of every module the process loads, one per line, in the file named
// by $AGENT_MODULE_TRACE (startup-module-loading.test.ts checks what each mode loads).
import { appendFileSync } from "node:fs";
import { Module, register } from "node:module";
import { pathToFileURL } from "node:url";

const traceFile = process.env.AGENT_MODULE_TRACE;
register("./cli-module-trace-hooks.mjs", import.meta.url, { data: { file: traceFile } });

// CommonJS modules loaded with `require` (the packages the bundle leaves out, required on first use) do not pass
// the loader hooks; every CommonJS module file is loaded through Module.prototype.load.
if (traceFile) {
	const load = Module.prototype.load;
	Module.prototype.load = function (filename) {
		appendFileSync(traceFile, `${pathToFileURL(filename).href}\n`);
		return load.call(this, filename);
	};
}
