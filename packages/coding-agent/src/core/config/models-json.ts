// models.json (docs/models.md): schema, validation with errors that name the file and the field, loading.
import type { Api, ModelCost, OpenAICompletionsCompat } from "@agent/ai";
import { readSmallTextFileSync } from "../tools/regular-file.js";

export interface ModelDefinition {
	id: string;
	name?: string;
	api?: Api;
	baseUrl?: string;
	reasoning?: boolean;
	input?: ("text" | "image")[];
	cost?: ModelCost;
	contextWindow?: number;
	maxTokens?: number;
	headers?: Record<string, string>;
	compat?: OpenAICompletionsCompat;
}

export interface ModelOverride {
	name?: string;
	reasoning?: boolean;
	input?: ("text" | "image")[];
	cost?: Partial<ModelCost>;
	contextWindow?: number;
	maxTokens?: number;
	headers?: Record<string, string>;
	compat?: OpenAICompletionsCompat;
}

export interface ProviderConfig {
	baseUrl?: string;
	/** Literal, environment variable name, or `!command`. */
	apiKey?: string;
	api?: Api;
	headers?: Record<string, string>;
	/** Adds `Authorization: Bearer <apiKey>` to the provider's custom models. */
	authHeader?: boolean;
	compat?: OpenAICompletionsCompat;
	models?: ModelDefinition[];
	modelOverrides?: Record<string, ModelOverride>;
}

export interface ModelsJsonConfig {
	providers: Record<string, ProviderConfig>;
}

export type ModelsJsonLoadResult =
	| { config: ModelsJsonConfig; error?: undefined }
	| { config?: undefined; error: string };

type Issue = { path: string; message: string };
type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fieldPath(base: string, key: string | number): string {
	if (typeof key === "number") return `${base}[${key}]`;
	return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

class Validator {
	readonly issues: Issue[] = [];

	fail(path: string, message: string): void {
		this.issues.push({ path, message });
	}

	nonEmptyString(value: unknown, path: string): void {
		if (value !== undefined && (typeof value !== "string" || value.length === 0))
			this.fail(path, "must be a non-empty string");
	}

	string(value: unknown, path: string): void {
		if (value !== undefined && typeof value !== "string") this.fail(path, "must be a string");
	}

	boolean(value: unknown, path: string): void {
		if (value !== undefined && typeof value !== "boolean") this.fail(path, "must be a boolean");
	}

	number(value: unknown, path: string): void {
		if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value)))
			this.fail(path, "must be a number");
	}

	oneOf(value: unknown, allowed: readonly string[], path: string): void {
		if (value !== undefined && !(typeof value === "string" && allowed.includes(value))) {
			this.fail(path, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`);
		}
	}

	stringArray(value: unknown, path: string): void {
		if (value === undefined) return;
		if (!Array.isArray(value)) {
			this.fail(path, "must be an array of strings");
			return;
		}
		value.forEach((item, i) => {
			if (typeof item !== "string") this.fail(fieldPath(path, i), "must be a string");
		});
	}

	object(value: unknown, path: string): value is Loose | undefined {
		if (value === undefined || isObject(value)) return true;
		this.fail(path, "must be an object");
		return false;
	}

	headers(value: unknown, path: string): void {
		if (!isObject(value)) {
			if (value !== undefined) this.fail(path, "must be an object of strings");
			return;
		}
		for (const [name, header] of Object.entries(value)) {
			if (typeof header !== "string") this.fail(fieldPath(path, name), "must be a string");
		}
	}

	input(value: unknown, path: string): void {
		if (value === undefined) return;
		if (!Array.isArray(value)) {
			this.fail(path, 'must be an array of "text" or "image"');
			return;
		}
		value.forEach((item, i) => {
			if (item !== "text" && item !== "image") this.fail(fieldPath(path, i), 'must be "text" or "image"');
		});
	}

	cost(value: unknown, path: string, partial: boolean): void {
		if (value === undefined || !this.object(value, path) || !isObject(value)) return;
		for (const key of ["input", "output", "cacheRead", "cacheWrite"]) {
			if (!partial && value[key] === undefined) this.fail(fieldPath(path, key), "is required");
			else this.number(value[key], fieldPath(path, key));
		}
	}

	routing(value: unknown, path: string): void {
		if (value === undefined || !this.object(value, path) || !isObject(value)) return;
		this.stringArray(value.only, fieldPath(path, "only"));
		this.stringArray(value.order, fieldPath(path, "order"));
	}

	compat(value: unknown, path: string): void {
		if (value === undefined || !this.object(value, path) || !isObject(value)) return;
		for (const key of [
			"supportsStore",
			"supportsDeveloperRole",
			"supportsReasoningEffort",
			"supportsUsageInStreaming",
			"requiresToolResultName",
			"requiresAssistantAfterToolResult",
			"requiresThinkingAsText",
			"supportsStrictMode",
		]) {
			this.boolean(value[key], fieldPath(path, key));
		}
		this.oneOf(value.maxTokensField, ["max_completion_tokens", "max_tokens"], fieldPath(path, "maxTokensField"));
		this.oneOf(
			value.thinkingFormat,
			["openai", "zai", "qwen", "qwen-chat-template"],
			fieldPath(path, "thinkingFormat"),
		);
		if (
			value.reasoningEffortMap !== undefined &&
			this.object(value.reasoningEffortMap, fieldPath(path, "reasoningEffortMap"))
		) {
			for (const [level, effort] of Object.entries(value.reasoningEffortMap as Loose)) {
				this.string(effort, fieldPath(fieldPath(path, "reasoningEffortMap"), level));
			}
		}
		this.routing(value.openRouterRouting, fieldPath(path, "openRouterRouting"));
		this.routing(value.vercelGatewayRouting, fieldPath(path, "vercelGatewayRouting"));
	}

	modelFields(value: Loose, path: string, partial: boolean): void {
		this.nonEmptyString(value.name, fieldPath(path, "name"));
		this.boolean(value.reasoning, fieldPath(path, "reasoning"));
		this.input(value.input, fieldPath(path, "input"));
		this.cost(value.cost, fieldPath(path, "cost"), partial);
		this.number(value.contextWindow, fieldPath(path, "contextWindow"));
		this.number(value.maxTokens, fieldPath(path, "maxTokens"));
		this.headers(value.headers, fieldPath(path, "headers"));
		this.compat(value.compat, fieldPath(path, "compat"));
	}

	provider(value: unknown, path: string): void {
		if (!isObject(value)) {
			this.fail(path, "must be an object");
			return;
		}
		this.nonEmptyString(value.baseUrl, fieldPath(path, "baseUrl"));
		this.nonEmptyString(value.apiKey, fieldPath(path, "apiKey"));
		this.nonEmptyString(value.api, fieldPath(path, "api"));
		this.headers(value.headers, fieldPath(path, "headers"));
		this.boolean(value.authHeader, fieldPath(path, "authHeader"));
		this.compat(value.compat, fieldPath(path, "compat"));
		if (value.models !== undefined) {
			if (!Array.isArray(value.models)) this.fail(fieldPath(path, "models"), "must be an array");
			else {
				value.models.forEach((model, i) => {
					const modelPath = fieldPath(fieldPath(path, "models"), i);
					if (!isObject(model)) {
						this.fail(modelPath, "must be an object");
						return;
					}
					if (model.id === undefined) this.fail(fieldPath(modelPath, "id"), "is required");
					else this.nonEmptyString(model.id, fieldPath(modelPath, "id"));
					this.nonEmptyString(model.api, fieldPath(modelPath, "api"));
					this.nonEmptyString(model.baseUrl, fieldPath(modelPath, "baseUrl"));
					this.modelFields(model, modelPath, false);
				});
			}
		}
		if (value.modelOverrides !== undefined && this.object(value.modelOverrides, fieldPath(path, "modelOverrides"))) {
			for (const [id, override] of Object.entries(value.modelOverrides as Loose)) {
				const overridePath = fieldPath(fieldPath(path, "modelOverrides"), id);
				if (!isObject(override)) this.fail(overridePath, "must be an object");
				else this.modelFields(override, overridePath, true);
			}
		}
	}
}

function schemaIssues(value: unknown): Issue[] {
	const validator = new Validator();
	if (!isObject(value)) {
		validator.fail("(root)", "must be an object");
		return validator.issues;
	}
	if (value.providers === undefined) validator.fail("providers", "is required");
	else if (!isObject(value.providers)) validator.fail("providers", "must be an object");
	else
		for (const [name, provider] of Object.entries(value.providers))
			validator.provider(provider, fieldPath("providers", name));
	return validator.issues;
}

/** The rules the schema cannot express (docs/models.md "Errors"); the first broken one, worded as the reference words it. */
function semanticError(config: ModelsJsonConfig): string | undefined {
	for (const [name, provider] of Object.entries(config.providers)) {
		const models = provider.models ?? [];
		if (models.length === 0) {
			if (provider.baseUrl === undefined && provider.compat === undefined && provider.modelOverrides === undefined) {
				return `Provider ${name}: must specify "baseUrl", "compat", "modelOverrides", or "models".`;
			}
			continue;
		}
		if (provider.baseUrl === undefined) return `Provider ${name}: "baseUrl" is required when defining custom models.`;
		if (provider.apiKey === undefined) return `Provider ${name}: "apiKey" is required when defining custom models.`;
		for (const model of models) {
			if (model.api === undefined && provider.api === undefined) {
				return `Provider ${name}, model ${model.id}: no "api" specified. Set at provider or model level.`;
			}
			if (model.contextWindow !== undefined && model.contextWindow <= 0) {
				return `Provider ${name}, model ${model.id}: "contextWindow" must be greater than 0.`;
			}
			if (model.maxTokens !== undefined && model.maxTokens <= 0) {
				return `Provider ${name}, model ${model.id}: "maxTokens" must be greater than 0.`;
			}
		}
	}
	return undefined;
}

/** Validates the text of a models.json. Any problem rejects the whole file; the message names file and field. */
export function parseModelsJson(text: string, path: string): ModelsJsonLoadResult {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return {
			error: `Failed to parse models.json: ${error instanceof Error ? error.message : String(error)}\n\nFile: ${path}`,
		};
	}
	const issues = schemaIssues(value);
	if (issues.length > 0) {
		const list = issues.map((issue) => `  - ${issue.path}: ${issue.message}`).join("\n");
		return { error: `Invalid models.json schema:\n${list}\n\nFile: ${path}` };
	}
	const config = value as ModelsJsonConfig;
	const semantic = semanticError(config);
	if (semantic) return { error: `Failed to load models.json: ${semantic}\n\nFile: ${path}` };
	return { config };
}

/** Reads models.json; a missing file is an empty configuration, not an error. */
export function loadModelsJson(path: string): ModelsJsonLoadResult {
	let text: string;
	try {
		text = readSmallTextFileSync(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { config: { providers: {} } };
		return {
			error: `Failed to load models.json: ${error instanceof Error ? error.message : String(error)}\n\nFile: ${path}`,
		};
	}
	return parseModelsJson(text, path);
}
