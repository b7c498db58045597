// `node --import <this file>`: records the URL of every ES module the process loads, one per line, in the file
// named by $AGENT_MODULE_TRACE (startup-module-loading.test.ts checks what each mode loads).
import { register } from "node:module";

register("./cli-module-trace-hooks.mjs", import.meta.url, { data: { file: process.env.AGENT_MODULE_TRACE } });
