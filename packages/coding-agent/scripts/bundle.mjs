// Bundles the `agent` CLI (dist/cli.js, the tsc output) into dist/agent.js plus lazily loaded chunks in
// dist/chunks/. Start-up then reads a few files instead of ~600 modules; provider SDKs, the terminal UI and
// ACP stay in chunks loaded on first use. The library entry (dist/index.js) is not bundled.
//
// External at run time, so they must be dependencies of this package: sharp (native), jiti (loads itself
// lazily), ajv/ajv-formats (required on first validation), highlight.js (languages required by name).
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const external = ["sharp", "jiti", "ajv", "ajv-formats", "highlight.js", "highlight.js/*"];

rmSync(new URL("../dist/chunks", import.meta.url), { recursive: true, force: true });
const result = await build({
	absWorkingDir: packageDir,
	entryPoints: { agent: "dist/cli.js" },
	outdir: "dist",
	bundle: true,
	splitting: true,
	format: "esm",
	platform: "node",
	target: "node20",
	chunkNames: "chunks/[name]-[hash]",
	external,
	// Bundled CommonJS dependencies call require() for Node built-ins; give the ESM bundle one.
	banner: {
		js: "import { createRequire as __agentCreateRequire } from 'node:module'; const require = __agentCreateRequire(import.meta.url);",
	},
	legalComments: "none",
	metafile: true,
	logLevel: "warning",
});

// Which source modules each output file holds (paths relative to this package), so tests can tell what a
// start loaded even though the modules are inside chunks.
const chunks = Object.fromEntries(
	Object.entries(result.metafile.outputs).map(([output, { inputs }]) => [output, Object.keys(inputs)]),
);
writeFileSync(new URL("../dist/agent.meta.json", import.meta.url), `${JSON.stringify(chunks)}\n`);
