// @ts-check
// The catalog generation without its file writes (scripts/generate-models.mjs runs it; the catalog test checks that
// the committed files are its output and that they import as the models it meant). See generate-models.mjs for
// the sources.
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
export async function loadCatalog(/** @type {string} */ packageName) {
	// The package (a devDependency, so in this package's node_modules) ships dist/index.js with its catalog module
	// beside it, which imports nothing. Found by path rather than import.meta.resolve, which vitest lacks.
	const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules", packageName);
	return (await import(pathToFileURL(join(packageDir, "dist", "models.generated.js")).href)).MODELS;
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

/** The catalog's entry for one model of the source, fields in the order the catalog has always listed them. */
function catalogModel(/** @type {SourceModel} */ model, /** @type {string} */ provider) {
	const input = model.input.filter((kind) => kind === "text" || kind === "image");
	const cost = model.cost;
	/** @type {Record<string, unknown>} */
	const entry = {
		id: model.id,
		name: model.name,
		api: model.api,
		provider,
		baseUrl: model.baseUrl,
		reasoning: model.reasoning === true,
		input: input.length > 0 ? input : ["text"],
		cost: {
			input: price(cost.input, "input price"),
			output: price(cost.output, "output price"),
			cacheRead: price(cost.cacheRead, "cache read price"),
			cacheWrite: price(cost.cacheWrite, "cache write price"),
		},
		contextWindow: number(model.contextWindow, "context window"),
		// OpenRouter lists a few models with an output limit above their context window; it cannot exceed it.
		maxTokens: Math.min(number(model.maxTokens, "output limit"), model.contextWindow),
	};
	if (model.headers && Object.keys(model.headers).length > 0) entry.headers = model.headers;
	const compat = compatOf(model, PROVIDERS[provider].compat);
	if (compat) entry.compat = compat;
	return entry;
}

/**
 * `text` as a template literal (backquotes included) whose value is `text`: JSON needs no other escaping there, and
 * a template keeps the catalog's one model per line.
 */
export function templateLiteral(/** @type {string} */ text) {
	return `\`${text.replace(/[\\`]|\$\{|\r/g, (match) => (match === "\r" ? "\\r" : `\\${match}`))}\``;
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
 * src/models.generated.ts gathering their JSON (models.ts makes MODELS of it). Returns path (relative to src/) → text, counts per provider, and the
 * models each provider's file holds (provider → id → model), which importing the files must give back.
 */
export function render(
	/** @type {Record<string, Record<string, SourceModel>>} */ current,
	/** @type {Record<string, Record<string, SourceModel>>} */ reference,
) {
	/** @type {Map<string, string>} */
	const files = new Map();
	/** @type {Record<string, { models: number, fromReferenceOnly: number }>} */
	const counts = {};
	/** @type {Record<string, Record<string, Record<string, unknown>>>} */
	const catalogs = {};
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
		/** @type {Record<string, Record<string, unknown>>} */
		const entries = {};
		for (const model of served) entries[model.id] = catalogModel(model, provider);
		catalogs[provider] = entries;
		const lines = Object.entries(entries).map(([id, entry]) => `\t${JSON.stringify(id)}: ${JSON.stringify(entry)}`);
		files.set(
			`catalog/${provider}.ts`,
			`${HEADER}

// The models as JSON, one per line: MODELS (models.ts) parses a provider's the first time they are read,
// so a start that needs one provider's models parses no other's.
export const modelsJson: string = ${templateLiteral(`{\n${lines.join(",\n")}\n}`)};
`,
		);
	}
	// Sorted by path, as the formatter orders imports, so the file needs no formatting pass.
	const imports = [
		...Object.keys(PROVIDERS).map((provider) => [
			`./catalog/${provider}.js`,
			`import { modelsJson as ${identifierOf(provider)} } from "./catalog/${provider}.js";\n`,
		]),
		["./catalog/catalog-types.js", 'import type { CatalogProvider } from "./catalog/catalog-types.js";\n'],
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

/** Each provider's models as JSON text (models.ts parses a provider's the first time they are read). */
export const CATALOG_JSON: { readonly [P in CatalogProvider]: string } = {
${entries}};
`,
	);
	return { files, counts, catalogs };
}
