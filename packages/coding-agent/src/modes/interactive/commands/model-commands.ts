// /model [search] and /scoped-models.
import type { Model } from "@agent/ai";
import type { AutocompleteItem } from "@agent/tui";
import type { DialogHost, EditorHost, NoticeHost, SessionHost } from "../mode-host.js";
import {
	findExactModel,
	modelKey,
	openModelSelector,
	refreshModels,
	selectableModels,
	switchModel,
} from "../selectors/model-selector.js";
import { ScopedModelsSelector } from "../selectors/scoped-models-selector.js";

export function runModel(host: NoticeHost & SessionHost & DialogHost & EditorHost, args: string): void {
	const search = args.trim();
	if (!search) {
		openModelSelector(host);
		return;
	}
	const exact = findExactModel(selectableModels(host), search);
	if (exact) void switchModel(host, exact);
	else openModelSelector(host, search);
}

export function completeModelArgs(host: SessionHost, prefix: string): AutocompleteItem[] {
	const wanted = prefix.toLowerCase();
	return host.session
		.getAvailableModels()
		.map((model) => modelKey(model))
		.filter((key) => key.toLowerCase().includes(wanted))
		.slice(0, 50)
		.map((key) => ({ value: key, label: key }));
}

export function runScopedModels(host: NoticeHost & SessionHost & DialogHost): void {
	const { session } = host;
	refreshModels(host);
	const models = session.getAvailableModels();
	if (models.length === 0) {
		host.notify("warning", "No models available. Use /login or set an API key environment variable.");
		return;
	}
	const toScope = (enabled: Model[]) =>
		enabled.map((model) => {
			const existing = session.scopedModels.find((scoped) => modelKey(scoped.model) === modelKey(model));
			return existing ?? { model };
		});
	const handle = host.showSelector(
		new ScopedModelsSelector({
			state: host.state,
			models,
			enabled: session.scopedModels.map((scoped) => modelKey(scoped.model)),
			onChange: (enabled) => {
				session.setScopedModels(toScope(enabled));
				host.requestRender();
			},
			onSave: (enabled) => {
				session.settingsManager.setEnabledModels(enabled.length === 0 ? undefined : enabled.map(modelKey));
				host.notify("status", "Model selection saved to settings");
			},
			onClose: () => handle.close(),
			maxVisible: Math.max(5, Math.floor(host.tui.terminal.rows / 2)),
		}),
	);
}
