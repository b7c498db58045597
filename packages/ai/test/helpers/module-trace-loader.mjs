// Node module hooks that record every module URL a process loads (one per line, appended to the file
// named by AGENT_MODULE_TRACE_FILE) and run TypeScript sources directly, so a test can observe what
// importing a package's `src/index.ts` really loads without building it first.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const traceFile = process.env.AGENT_MODULE_TRACE_FILE;
/** @type {typeof import("typescript") | undefined} */
let typescript;

/** @type {import("node:module").ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
	// Sources import their siblings as `./x.js`; under src/ that file is `./x.ts`.
	if (specifier.startsWith(".") && specifier.endsWith(".js") && context.parentURL?.endsWith(".ts")) {
		const tsUrl = new URL(specifier.replace(/\.js$/, ".ts"), context.parentURL);
		if (existsSync(fileURLToPath(tsUrl))) return record({ url: tsUrl.href, shortCircuit: true });
	}
	return record(await nextResolve(specifier, context));
}

/** @type {import("node:module").LoadHook} */
export async function load(url, context, nextLoad) {
	if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
	typescript ??= (await import("typescript")).default;
	const { outputText } = typescript.transpileModule(readFileSync(fileURLToPath(url), "utf8"), {
		fileName: fileURLToPath(url),
		compilerOptions: {
			module: typescript.ModuleKind.ESNext,
			target: typescript.ScriptTarget.ES2022,
			sourceMap: false,
		},
	});
	return { format: "module", source: outputText, shortCircuit: true };
}

/** @template {{ url: string }} T @param {T} resolution @returns {T} */
function record(resolution) {
	if (traceFile) appendFileSync(traceFile, `${resolution.url}\n`);
	return resolution;
}
