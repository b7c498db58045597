// The theme list (/settings → Theme): each theme is previewed as the selection moves over it.
import type { DisplayState } from "../display-state.js";
import { SelectPanel } from "./select-panel.js";

export interface ThemePanelCallbacks {
	onPreview(name: string): void;
	onSelect(name: string): void;
	onCancel(): void;
}

export function themePanel(
	state: DisplayState,
	themes: readonly { name: string; path?: string | undefined }[],
	current: string,
	on: ThemePanelCallbacks,
): SelectPanel {
	return new SelectPanel(state, {
		title: "Theme",
		items: themes.map((theme) => ({
			value: theme.name,
			label: theme.name,
			...(theme.path ? { description: theme.path } : {}),
		})),
		selectedValue: current,
		filterable: false,
		onSelectionChange: (item) => on.onPreview(item.value),
		onSelect: (item) => on.onSelect(item.value),
		onCancel: () => on.onCancel(),
	});
}
