// @ts-check
// Generates src/models.generated.ts and src/catalog/ (one file per provider) from the catalog snapshot tables of the interface spec (spec ai §12).
//
//   node packages/ai/scripts/generate-models.mjs <path to spec/ai.md>
//
// The reference regenerates its catalog from models.dev and OpenRouter over the network; we build offline
// from the reviewed snapshot, so the catalog only changes when the spec does. Only providers whose API we
// serve are kept: amazon-bedrock, azure-openai-responses, openai-codex, google-gemini-cli,
// google-antigravity and google-vertex need APIs we do not implement, and github-copilot needs an OAuth
// token exchange we do not have.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** @typedef {"anthropic-messages" | "openai-completions" | "openai-responses" | "google-generative-ai"} ServedApi */
/**
 * @typedef {object} ProviderSource
 * @property {Partial<Record<ServedApi, string>>} baseUrls base URL per API the provider's models use
 * @property {Partial<Record<string, ServedApi>>} [apiOverrides] spec API → the API we serve it with
 * @property {Record<string, unknown>} [compat] compat switches for every model of the provider
 */

const SERVED_APIS = new Set(["anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai"]);

/** @type {Record<string, ProviderSource>} */
const PROVIDERS = {
	anthropic: { baseUrls: { "anthropic-messages": "https://api.anthropic.com" } },
	openai: { baseUrls: { "openai-responses": "https://api.openai.com/v1" } },
	google: { baseUrls: { "google-generative-ai": "https://generativelanguage.googleapis.com/v1beta" } },
	xai: { baseUrls: { "openai-completions": "https://api.x.ai/v1" } },
	groq: { baseUrls: { "openai-completions": "https://api.groq.com/openai/v1" } },
	cerebras: { baseUrls: { "openai-completions": "https://api.cerebras.ai/v1" } },
	openrouter: { baseUrls: { "openai-completions": "https://openrouter.ai/api/v1" } },
	"vercel-ai-gateway": { baseUrls: { "anthropic-messages": "https://ai-gateway.vercel.sh" } },
	zai: {
		baseUrls: { "openai-completions": "https://api.z.ai/api/coding/paas/v4" },
		compat: { supportsDeveloperRole: false, thinkingFormat: "zai" },
	},
	// The reference talks to Mistral through its own SDK (api "mistral-conversations"). Mistral's chat
	// endpoint is OpenAI-compatible, so we serve it with openai-completions. Its differences from OpenAI:
	// no `store`, `developer` role, `reasoning_effort` or `stream_options` (usage comes in the last chunk
	// anyway), `max_tokens` rather than `max_completion_tokens`, `name` required on tool messages, and
	// thinking replayed as text. Tool-call ids must be exactly 9 alphanumerics: the completions adapter
	// hands createMistralToolCallIdNormalizer (src/utils) to transformMessages for these models.
	mistral: {
		baseUrls: { "openai-completions": "https://api.mistral.ai/v1" },
		apiOverrides: { "mistral-conversations": "openai-completions" },
		compat: {
			supportsStore: false,
			supportsDeveloperRole: false,
			supportsReasoningEffort: false,
			supportsUsageInStreaming: false,
			maxTokensField: "max_tokens",
			requiresToolResultName: true,
			requiresThinkingAsText: true,
		},
	},
	minimax: { baseUrls: { "anthropic-messages": "https://api.minimax.io/anthropic" } },
	"minimax-cn": { baseUrls: { "anthropic-messages": "https://api.minimaxi.com/anthropic" } },
	huggingface: {
		baseUrls: { "openai-completions": "https://router.huggingface.co/v1" },
		compat: { supportsDeveloperRole: false },
	},
	// The Anthropic SDK appends /v1/messages itself; the OpenAI and Google clients get the /v1 root.
	opencode: {
		baseUrls: {
			"anthropic-messages": "https://opencode.ai/zen",
			"google-generative-ai": "https://opencode.ai/zen/v1",
			"openai-completions": "https://opencode.ai/zen/v1",
			"openai-responses": "https://opencode.ai/zen/v1",
		},
	},
	"opencode-go": {
		baseUrls: {
			"anthropic-messages": "https://opencode.ai/zen/go",
			"openai-completions": "https://opencode.ai/zen/go/v1",
		},
	},
	"kimi-coding": { baseUrls: { "anthropic-messages": "https://api.kimi.com/coding" } },
};

/**
 * @typedef {object} CatalogRow
 * @property {string} id
 * @property {string} name
 * @property {string} api
 * @property {boolean} reasoning
 * @property {string[]} input
 * @property {number} contextWindow
 * @property {number} maxTokens
 * @property {{input: number, output: number, cacheRead: number, cacheWrite: number}} cost
 */

/** @returns {Map<string, CatalogRow[]>} rows per provider, in spec order */
function parseSnapshot(/** @type {string} */ markdown) {
	const snapshotStart = markdown.indexOf("### Catalog snapshot");
	if (snapshotStart < 0) throw new Error('No "### Catalog snapshot" section in the spec');
	/** @type {Map<string, CatalogRow[]>} */
	const providers = new Map();
	/** @type {CatalogRow[] | undefined} */
	let rows;
	for (const line of markdown.slice(snapshotStart).split("\n")) {
		const heading = /^#### `([^`]+)`/.exec(line);
		if (heading) {
			rows = [];
			providers.set(heading[1], rows);
			continue;
		}
		if (!rows || !line.startsWith("| `")) continue;
		rows.push(parseRow(line));
	}
	return providers;
}

function parseRow(/** @type {string} */ line) {
	const cells = line
		.slice(1, -1)
		.split("|")
		.map((cell) => cell.trim());
	if (cells.length !== 11) throw new Error(`Expected 11 cells in catalog row: ${line}`);
	const [id, name, api, reasoning, input, contextWindow, maxTokens, costIn, costOut, cacheRead, cacheWrite] = cells;
	const number = (/** @type {string} */ cell) => {
		const value = Number(cell);
		if (!Number.isFinite(value)) throw new Error(`Not a number "${cell}" in catalog row: ${line}`);
		return value;
	};
	if (reasoning !== "yes" && reasoning !== "no") throw new Error(`Bad reasoning cell in: ${line}`);
	if (input !== "text" && input !== "text+image") throw new Error(`Bad input cell in: ${line}`);
	return {
		id: id.replace(/^`|`$/g, ""),
		name,
		api,
		reasoning: reasoning === "yes",
		input: input.split("+"),
		contextWindow: number(contextWindow),
		maxTokens: number(maxTokens),
		cost: {
			input: number(costIn),
			output: number(costOut),
			cacheRead: number(cacheRead),
			cacheWrite: number(cacheWrite),
		},
	};
}

function renderModel(
	/** @type {string} */ provider,
	/** @type {ProviderSource} */ source,
	/** @type {CatalogRow} */ row,
) {
	const api = source.apiOverrides?.[row.api] ?? row.api;
	if (!SERVED_APIS.has(api)) return undefined;
	const baseUrl = source.baseUrls[/** @type {ServedApi} */ (api)];
	if (!baseUrl) throw new Error(`No base URL for ${provider} models of api ${api}`);
	const fields = [
		`id: ${JSON.stringify(row.id)}`,
		`name: ${JSON.stringify(row.name)}`,
		`api: ${JSON.stringify(api)}`,
		`provider: ${JSON.stringify(provider)}`,
		`baseUrl: ${JSON.stringify(baseUrl)}`,
		`reasoning: ${row.reasoning}`,
		`input: [${row.input.map((kind) => JSON.stringify(kind)).join(", ")}]`,
		`cost: { input: ${row.cost.input}, output: ${row.cost.output}, cacheRead: ${row.cost.cacheRead}, cacheWrite: ${row.cost.cacheWrite} }`,
		`contextWindow: ${row.contextWindow}`,
		`maxTokens: ${row.maxTokens}`,
	];
	if (source.compat) fields.push(`compat: ${renderObject(source.compat)}`);
	return `\t\t${propertyKey(row.id)}: {\n${fields.map((field) => `\t\t\t${field},\n`).join("")}\t\t},\n`;
}

/** Quotes an object key only when it is not a plain identifier, as the formatter wants it. */
function propertyKey(/** @type {string} */ key) {
	return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

function renderObject(/** @type {Record<string, unknown>} */ value) {
	// Expanded one field per line, which the formatter keeps as is.
	const entries = Object.entries(value).map(([key, item]) => `\t\t\t\t${key}: ${JSON.stringify(item)},\n`);
	return `{\n${entries.join("")}\t\t\t}`;
}

const HEADER =
	"// GENERATED by scripts/generate-models.mjs from the spec's catalog snapshot (pi-mono v0.58.3). Do not edit.";

/** `vercel-ai-gateway` → `vercelAiGateway`: the identifier a provider's models are imported under. */
function identifierOf(/** @type {string} */ provider) {
	return provider.replace(/-([a-z0-9])/g, (_, letter) => letter.toUpperCase());
}

/**
 * The catalog as files: src/catalog/catalog-types.ts (the types), one src/catalog/<provider>.ts per provider,
 * and src/models.generated.ts assembling MODELS from them. Returns path (relative to src/) → text.
 */
function render(/** @type {Map<string, CatalogRow[]>} */ snapshot) {
	const missing = Object.keys(PROVIDERS).filter((provider) => !snapshot.has(provider));
	if (missing.length > 0) throw new Error(`Providers missing from the snapshot: ${missing.join(", ")}`);
	const files = new Map();
	const providerUnion = Object.keys(PROVIDERS)
		.map((provider) => `\n\t| ${JSON.stringify(provider)}`)
		.join("");
	files.set(
		"catalog/catalog-types.ts",
		`${HEADER}
import type { Model } from "../types.js";

/** The APIs the catalog's models use; each model's \`compat\` is typed by its \`api\`. */
export type CatalogApi = "anthropic-messages" | "openai-completions" | "openai-responses" | "google-generative-ai";
export type CatalogModel = { [TApi in CatalogApi]: Model<TApi> }[CatalogApi];
export type CatalogProvider =${providerUnion};
`,
	);
	for (const [provider, source] of Object.entries(PROVIDERS)) {
		const rows = snapshot.get(provider) ?? [];
		const models = rows
			.map((row) => renderModel(provider, source, row))
			.filter((model) => model !== undefined)
			// One level shallower than inside MODELS.
			.map((model) => model.replace(/^\t/gm, ""));
		files.set(
			`catalog/${provider}.ts`,
			`${HEADER}
import type { CatalogModel } from "./catalog-types.js";

export const models: Readonly<Record<string, CatalogModel>> = {
${models.join("")}};
`,
		);
	}
	// Sorted by path, as the formatter orders imports, so the file needs no formatting pass.
	const imports = [
		...Object.keys(PROVIDERS).map((provider) => [
			`./catalog/${provider}.js`,
			`import { models as ${identifierOf(provider)} } from "./catalog/${provider}.js";\n`,
		]),
		[
			"./catalog/catalog-types.js",
			'import type { CatalogModel, CatalogProvider } from "./catalog/catalog-types.js";\n',
		],
	]
		.sort(([a], [b]) => (a.replace(/\.js$/, "") < b.replace(/\.js$/, "") ? -1 : 1))
		.map(([, line]) => line)
		.join("");
	const entries = Object.keys(PROVIDERS)
		.map((provider) => {
			const identifier = identifierOf(provider);
			return identifier === provider ? `\t${provider},\n` : `\t${propertyKey(provider)}: ${identifier},\n`;
		})
		.join("");
	files.set(
		"models.generated.ts",
		`${HEADER}
${imports}
export type { CatalogApi, CatalogModel, CatalogProvider } from "./catalog/catalog-types.js";

export const MODELS: { readonly [P in CatalogProvider]: Readonly<Record<string, CatalogModel>> } = {
${entries}};
`,
	);
	return files;
}

const specPath = process.argv[2];
if (!specPath) {
	console.error("usage: node packages/ai/scripts/generate-models.mjs <path to spec/ai.md>");
	process.exit(2);
}
const srcDir = join(dirname(fileURLToPath(import.meta.url)), "..", "src");
mkdirSync(join(srcDir, "catalog"), { recursive: true });
for (const [path, text] of render(parseSnapshot(readFileSync(specPath, "utf8")))) {
	writeFileSync(join(srcDir, path), text);
	console.log(`wrote src/${path}`);
}
