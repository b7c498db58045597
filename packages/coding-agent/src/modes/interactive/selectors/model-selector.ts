// `/model` and Ctrl+L: the models you can switch to (the scoped ones when a scope is active), filtered as you
// type; Enter switches and saves the choice as the default.
import { join } from "node:path";
import type { Model } from "@agent/ai";
import type { SelectItem } from "@agent/tui";
import { getDocsPath } from "../../../core/resources/package-docs.js";
import type { DialogHost, EditorHost, NoticeHost, SessionHost } from "../mode-host.js";
import { SelectPanel } from "./select-panel.js";

/** What `/model` lists, said above the list (the reference: "Only showing models with configured API keys"). */
export const CONFIGURED_MODELS_ONLY_TEXT = "Only models with a configured API key are listed";
export const SCOPED_MODELS_ONLY_TEXT = "Only the models of the scope (--models or enabledModels) are listed";

export function modelKey(model: Pick<Model, "provider" | "id">): string {
	return `${model.provider}/${model.id}`;
}

/** Re-reads models.json (docs/models.md "Errors") and shows its error when it is new or changed. */
export function refreshModels(host: SessionHost): void {
	host.session.modelRegistry.refresh();
	host.reportModelsJsonError();
}

/** The models `/model` offers: scoped models while a scope is active, else every model with credentials. */
export function selectableModels(host: SessionHost): Model[] {
	const { session } = host;
	refreshModels(host);
	if (session.scopedModels.length > 0) return session.scopedModels.map((scoped) => scoped.model);
	return session.getAvailableModels();
}

/** The single candidate whose `id` or `provider/id` equals `search` (case-insensitive). */
export function findExactModel(models: readonly Model[], search: string): Model | undefined {
	const wanted = search.trim().toLowerCase();
	const matches = models.filter(
		(model) => model.id.toLowerCase() === wanted || modelKey(model).toLowerCase() === wanted,
	);
	return matches.length === 1 ? matches[0] : undefined;
}

export async function switchModel(host: NoticeHost & SessionHost & EditorHost, model: Model): Promise<boolean> {
	try {
		await host.session.setModel(model);
	} catch (error) {
		host.notify("error", error instanceof Error ? error.message : String(error));
		return false;
	}
	host.notify("status", `Model: ${model.id}`);
	host.refreshEditorBorder();
	return true;
}

/** The list rows of models: id (✓ for the current one), provider and name. */
export function modelItems(models: readonly Model[], current: Model | undefined): SelectItem[] {
	return models.map((model) => ({
		value: modelKey(model),
		label: `${model.id}${current && modelKey(current) === modelKey(model) ? " ✓" : ""}`,
		description: `[${model.provider}]${model.name && model.name !== model.id ? ` ${model.name}` : ""}`,
	}));
}

export function openModelSelector(host: NoticeHost & SessionHost & DialogHost & EditorHost, initialFilter = ""): void {
	const models = selectableModels(host);
	if (models.length === 0) {
		host.notify("warning", "No models available. Use /login or set an API key environment variable.");
		return;
	}
	const current = host.session.model;
	const byKey = new Map(models.map((model) => [modelKey(model), model]));
	const handle = host.showSelector(
		new SelectPanel(host.state, {
			title: host.session.scopedModels.length > 0 ? "Select model (scoped)" : "Select model",
			subtitle:
				host.session.scopedModels.length > 0
					? SCOPED_MODELS_ONLY_TEXT
					: `${CONFIGURED_MODELS_ONLY_TEXT} (see ${join(getDocsPath(), "providers.md")})`,
			items: modelItems(models, current),
			initialFilter,
			...(current ? { selectedValue: modelKey(current) } : {}),
			hint: "Type to search · Enter to select · Esc to cancel",
			onSelect: (item) => {
				handle.close();
				const model = byKey.get(item.value);
				if (model) void switchModel(host, model);
			},
			onCancel: () => handle.close(),
		}),
	);
}
