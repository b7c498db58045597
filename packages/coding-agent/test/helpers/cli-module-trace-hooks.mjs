// Loader hooks for cli-module-trace.mjs (they run on Node's loader thread).
import { appendFileSync } from "node:fs";

let traceFile;

export function initialize(data) {
	traceFile = data?.file;
}

export async function load(url, context, nextLoad) {
	if (traceFile) appendFileSync(traceFile, `${url}\n`);
	return nextLoad(url, context);
}
