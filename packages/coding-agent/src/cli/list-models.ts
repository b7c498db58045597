// `--list-models [search]` (docs/cli.md "Model"): the models that have credentials, as a plain table.
import type { Model } from "@agent/ai";

export const NO_MODELS_AVAILABLE_TEXT = "No models available. Set API keys in environment variables.";

export function noModelsMatchingText(search: string): string {
	return `No models matching "${search}"`;
}

/** `200000` → `200K`, `1000000` → `1M`, `1048576` → `1.0M`, `16384` → `16.4K`; below 1000 as is. */
export function formatTokenCount(count: number): string {
	const scaled = (value: number, suffix: string) =>
		`${Number.isInteger(value) ? String(value) : value.toFixed(1)}${suffix}`;
	if (count >= 1_000_000) return scaled(count / 1_000_000, "M");
	if (count >= 1_000) return scaled(count / 1_000, "K");
	return String(count);
}

function isSubsequence(needle: string, haystack: string): boolean {
	let index = 0;
	for (const char of haystack) {
		if (char === needle[index]) index++;
		if (index === needle.length) return true;
	}
	return needle.length === 0;
}

/** Every whitespace-separated token must be a case-insensitive subsequence of `"<provider> <id>"`. */
export function matchesModelSearch(model: Pick<Model, "provider" | "id">, search: string): boolean {
	const target = `${model.provider} ${model.id}`.toLowerCase();
	return search
		.toLowerCase()
		.split(/\s+/)
		.filter((token) => token.length > 0)
		.every((token) => isSubsequence(token, target));
}

const HEADER = ["provider", "model", "context", "max-out", "thinking", "images"];

/** The whole output of `--list-models`, ending with a newline. */
export function formatModelList(models: readonly Model[], search?: string): string {
	if (models.length === 0) return `${NO_MODELS_AVAILABLE_TEXT}\n`;
	const selected = search === undefined ? [...models] : models.filter((model) => matchesModelSearch(model, search));
	if (selected.length === 0) return `${noModelsMatchingText(search ?? "")}\n`;
	selected.sort((a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id));

	const rows = [
		HEADER,
		...selected.map((model) => [
			model.provider,
			model.id,
			formatTokenCount(model.contextWindow),
			formatTokenCount(model.maxTokens),
			model.reasoning ? "yes" : "no",
			model.input.includes("image") ? "yes" : "no",
		]),
	];
	const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => (row[column] as string).length)));
	return rows
		.map((row) => row.map((cell, column) => cell.padEnd(widths[column] as number)).join("  "))
		.join("\n")
		.concat("\n");
}
