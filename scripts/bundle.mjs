// Build-time bundles (run by `pnpm build` after `tsc -b`). Each entry is the tsc output of a package; the
// bundle gathers its hundreds of small modules into a few files, so importing the package reads a few files
// instead of hundreds (module loading, not code, dominated start-up). Dynamic imports stay lazy chunks.
// Externals are resolved at run time from the package's own folder, so they must be its dependencies. Every output
// is ASCII (`ascii-only.mjs`).
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { rollup } from "rollup";
import { toAscii } from "./ascii-only.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// Bundled CommonJS dependencies call require() for Node built-ins; the first line of each ES-module output gives
// them one (a CommonJS output has its own).
const BANNER = 'const require = process.getBuiltinModule("node:module").createRequire(import.meta.url);';
// In a CommonJS bundle, a dynamic import of anything but its own chunks (an external, a computed path) calls this
// function, which the entry defines: its chunks then hold no `import()`, so that code compiled for them can be
// cached with vm.Script, which cannot run one without an experimental flag (src/cli/compile-cache.ts).
const IMPORT_KEY = 'Symbol.for("agent.import")';
const DYNAMIC_IMPORT = `globalThis[${IMPORT_KEY}]`;
// The text that stands for the bundle's identity in the entry (src/cli/compile-cache.ts), replaced by a hash.
const BUNDLE_ID_PLACEHOLDER = "agent-bundle-id:unbuilt";

const bundles = [
	{
		// The library entry of @agent/ai (package.json "exports" → dist/bundle/index.js); TypeBox and the adapters'
		// own code are inlined, the provider SDKs stay external and load with their adapter's chunk.
		packageDir: join(root, "packages/ai"),
		entryPoints: { index: "dist/index.js" },
		outdir: "dist/bundle",
		format: "es",
		external: [
			"@anthropic-ai/sdk",
			"@anthropic-ai/sdk/*",
			"openai",
			"openai/*",
			"@google/genai",
			"@aws-sdk/client-bedrock-runtime",
			"@mistralai/mistralai",
			"@mistralai/mistralai/*",
			"ajv",
			"ajv-formats",
		],
	},
	{
		// The command line the `agent` bin (bin/agent.cjs) runs: dist/agent.cjs plus chunks; provider SDKs, the TUI and ACP are inlined into lazy chunks.
		// CommonJS, since nothing imports it but the bin: Node loads a CommonJS file with less work than an ES module
		// (one synchronous read and compile; no module record, linking or async job per file), 20–40 ms of a print
		// run. Its dynamic imports of its own chunks become `require` calls, still made on first use; those of
		// externals and of computed paths (extensions, for one) stay `import()`.
		// sharp is native, jiti loads itself lazily, highlight.js loads languages by name: those stay external.
		// AJV is inlined into the lazy chunk that prepareToolValidation() imports (one file instead of ~80); the
		// first validation without it requires the package, so it stays a dependency. picomatch and ignore are only
		// ever required (on first use), so the bundle does not see them; they too stay dependencies. yaml is a lazy
		// chunk that the resource loader imports before reading skills and prompts; a parse before that requires it.
		packageDir: join(root, "packages/coding-agent"),
		entryPoints: { agent: "dist/cli.js" },
		outdir: "dist",
		format: "cjs",
		external: ["sharp", "jiti", "highlight.js", "highlight.js/*"],
		// Built from @agent/ai's tsc output, not from its bundle (one bundle inside another would repeat its banner),
		// and without the index's re-export of TypeBox's `Type`: the built-in tools build their schemas with
		// `LeanType`, so a run no extension asks for never evaluates TypeBox (~135 kB). Extensions still get
		// `Type` from @agent/ai (core/extensions/host-modules.ts adds it).
		alias: { "@agent/ai": join(root, "packages/ai/dist/without-typebox.js") },
		// Which source modules each output holds, so tests can tell what a start loaded.
		metaFile: "dist/agent.meta.json",
	},
];

for (const bundle of bundles) {
	const outdir = join(bundle.packageDir, bundle.outdir);
	// esbuild's own output, whose chunks rollup merges into the outputs (`rechunk`).
	const staging = join(outdir, ".esbuild");
	for (const dir of [join(outdir, "chunks"), staging]) rmSync(dir, { recursive: true, force: true });
	// An entry built in the other format before.
	for (const name of Object.keys(bundle.entryPoints)) {
		for (const extension of ["js", "cjs"]) rmSync(join(outdir, `${name}.${extension}`), { force: true });
	}
	const result = await build({
		absWorkingDir: bundle.packageDir,
		entryPoints: bundle.entryPoints,
		outdir: staging,
		bundle: true,
		splitting: true,
		format: "esm",
		platform: "node",
		target: "node20",
		chunkNames: "chunks/[name]-[hash]",
		external: bundle.external,
		alias: bundle.alias,
		...(bundle.format === "es" ? { banner: { js: BANNER } } : {}),
		legalComments: "none",
		metafile: true,
		logLevel: "warning",
	});
	/** Each output (relative to the package) with the source modules in it. */
	const outputs = await rechunk(
		bundle,
		staging,
		Object.fromEntries(
			Object.entries(result.metafile.outputs)
				.filter(([output]) => output.endsWith(".js"))
				.map(([output, { inputs }]) => [output, Object.keys(inputs)]),
		),
	);
	/** Each output's text as rollup wrote it, and as it is to be. */
	const texts = new Map();
	for (const output of Object.keys(outputs)) {
		const file = join(bundle.packageDir, output);
		const text = readFileSync(file, "utf8");
		const final = toAscii(bundle.format === "es" ? takeBuiltinsWithoutFacades(text, file) : text, file);
		texts.set(output, { file, text, final });
	}
	if (bundle.format === "cjs") stampBundleId(bundle, texts);
	for (const { file, text, final } of texts.values()) if (final !== text) writeFileSync(file, final);
	// Node looks for the package.json that gives a module its type on every import of it, and remembers only the
	// files it found: without one here, each chunk's import cost two failed opens (~370 at a start). A `.cjs` file's
	// type is its extension.
	if (bundle.format === "es") writeFileSync(join(outdir, "chunks", "package.json"), '{ "type": "module" }\n');
	if (bundle.metaFile) writeFileSync(join(bundle.packageDir, bundle.metaFile), `${JSON.stringify(outputs)}\n`);
}

/**
 * Replaces the bundle id's placeholder, which only the entry may hold, with a hash of the chunks' final text: a
 * code cache is kept per id, so no chunk of another build is ever given it. `texts` as in the loop above.
 */
function stampBundleId(bundle, texts) {
	const entries = Object.keys(bundle.entryPoints).map((name) => join(bundle.outdir, `${name}.cjs`));
	const hash = createHash("sha256");
	for (const output of [...texts.keys()].sort()) {
		if (entries.includes(output)) continue;
		const { final } = texts.get(output);
		if (final.includes(BUNDLE_ID_PLACEHOLDER)) throw new Error(`${output}: the bundle id belongs in the entry`);
		hash.update(`${output}\0${final}\0`);
	}
	const entry = texts.get(entries.find((output) => texts.get(output)?.final.includes(BUNDLE_ID_PLACEHOLDER)));
	if (!entry) throw new Error("the entry does not hold the bundle id");
	entry.final = entry.final.replaceAll(
		BUNDLE_ID_PLACEHOLDER,
		BUNDLE_ID_PLACEHOLDER.replace("unbuilt", hash.digest("hex").slice(0, 16)),
	);
}

/**
 * esbuild gives each set of entry points that share code a chunk of its own, and does not know that a lazy chunk is
 * only ever imported once another is loaded: a print run of the `agent` bundle read ~60 files, an import of
 * @agent/ai's ~20. Rollup over esbuild's output (in `staging`, removed after) merges what always loads together
 * (~20 and 2 files): esbuild's files are its modules, built-ins and the bundle's externals stay external, nothing is
 * shaken again, and any warning (a circular import would be one) fails the build. Returns the outputs (relative to
 * the package) with their source modules, from esbuild's `outputs`.
 */
async function rechunk(bundle, staging, outputs) {
	const outdir = join(bundle.packageDir, bundle.outdir);
	const external = (id) =>
		isBuiltin(id) ||
		bundle.external.some((name) => id === name || (name.endsWith("/*") && id.startsWith(name.slice(0, -1))));
	const build = await rollup({
		input: Object.fromEntries(Object.keys(bundle.entryPoints).map((name) => [name, join(staging, `${name}.js`)])),
		external,
		treeshake: false,
		plugins: bundle.format === "cjs" ? [dynamicImportsThroughEntry()] : [],
		onwarn: (warning) => {
			throw new Error(`rollup: ${warning.message}`);
		},
	});
	const extension = bundle.format === "cjs" ? "cjs" : "js";
	const { output } = await build.write({
		dir: outdir,
		format: bundle.format,
		entryFileNames: `[name].${extension}`,
		chunkFileNames: `chunks/[name]-[hash].${extension}`,
		...(bundle.format === "cjs"
			? {
					intro: (chunk) =>
						chunk.isEntry
							? `if (!(${IMPORT_KEY} in globalThis)) Object.defineProperty(globalThis, ${IMPORT_KEY}, { value: (specifier, options) => import(specifier, options) });`
							: "",
				}
			: {}),
	});
	await build.close();
	const sourcesOf = (file) => outputs[relative(bundle.packageDir, file)] ?? [];
	rmSync(staging, { recursive: true, force: true });
	return Object.fromEntries(
		output
			.filter((chunk) => chunk.type === "chunk")
			.map((chunk) => [
				relative(bundle.packageDir, join(outdir, chunk.fileName)),
				Object.keys(chunk.modules).flatMap(sourcesOf),
			]),
	);
}

/** Renders a dynamic import of anything but one of the bundle's own chunks as a call of DYNAMIC_IMPORT. */
function dynamicImportsThroughEntry() {
	return {
		name: "dynamic-imports-through-entry",
		renderDynamicImport({ targetChunk }) {
			return targetChunk ? null : { left: `${DYNAMIC_IMPORT}(`, right: ")" };
		},
	};
}

/**
 * A static `import { x } from "node:fs"` makes Node build the built-in's ES-module facade, which reads every export
 * of it: lazy getters then load what nothing here uses (node:crypto's webcrypto, node:util's parseArgs, node:net's
 * BlockList, …), ~5–20 ms of a print run on Node 22. Returns an output's `text` (`file` names it in errors) with each
 * such import made a read of just the names it imports from `process.getBuiltinModule` (the same objects). Imports are hoisted, wherever a bundler wrote
 * them, so the reads go to the top of the file, after the banner if it starts with it: every binding is there before
 * any code of the file runs, as an import's is.
 */
function takeBuiltinsWithoutFacades(text, file) {
	const reads = [];
	const anImport = /^import (?:\* as ([\w$]+)|([\w$]+)(?:, \{([^}]*)\})?|\{([^}]*)\}) from ["']([\w:/]+)["'];\n/gm;
	// Rollup keeps an external's bare import (`import 'node:os';`) where a merged module imported it; for a
	// built-in it only builds the facade.
	const bareImport = /^import ["']([\w:/]+)["'];\n/gm;
	const rest = text
		.replace(bareImport, (line, id) => (isBuiltin(id) ? "" : line))
		.replace(anImport, (line, namespace, defaultName, namedAfterDefault, named, id) => {
			if (!isBuiltin(id)) return line;
			const builtin = `process.getBuiltinModule(${JSON.stringify(id)})`;
			// The built-in's exports object stands for its namespace, which has the same names and a `default`.
			const binding = namespace ?? defaultName;
			if (namespace && new RegExp(`\\b${namespace.replaceAll("$", "\\$")}\\.default\\b`).test(text)) {
				throw new Error(`${file}: ${namespace}.default of ${id} has no equivalent`);
			}
			const names = namedAfterDefault ?? named;
			const pattern = names && `{ ${names.replace(/\b([\w$]+) as ([\w$]+)/g, "$1: $2").trim()} }`;
			if (binding && pattern) reads.push(`const ${binding} = ${builtin}, ${pattern} = ${binding};\n`);
			else reads.push(binding ? `const ${binding} = ${builtin};\n` : `const ${pattern} = ${builtin};\n`);
			return "";
		});
	for (const [line, id] of rest.matchAll(/^import (?:[^;]* from )?["']([\w:/]+)["'];$/gm)) {
		if (isBuiltin(id)) throw new Error(`${file}: an import of a built-in this build cannot rewrite: ${line}`);
	}
	if (rest === text) return text;
	const afterBanner = rest.startsWith(BANNER) ? BANNER.length + 1 : 0;
	return rest.slice(0, afterBanner) + reads.join("") + rest.slice(afterBanner);
}
