// `agent config`: every extension, skill, prompt template and theme on offer, grouped by where it comes from
// (each package, the settings entries, the auto-discovered directories), with a checkbox. Space or Enter
// toggles the selected one (the caller writes the setting), typing filters, Esc closes.
import { basename, dirname } from "node:path";
import { CachedComponent, getEditorKeybindings, matchesKey, truncateToWidth } from "@agent/tui";
import { CONFIG_DIR_NAME } from "../../../core/config/paths.js";
import type { ConfigurableResource, ResourceGroup } from "../../../core/packages/resource-inventory.js";
import type { ResourceType } from "../../../core/resources/package-manifest.js";
import type { Theme } from "../theme/theme.js";
import { dropLastCharacter, typedText } from "./input-keys.js";

export const RESOURCE_CONFIG_TITLE = "Resource Configuration";
export const NO_RESOURCES_TEXT = "No resources found";

const TYPE_LABELS: Record<ResourceType, string> = {
	extensions: "Extensions",
	skills: "Skills",
	prompts: "Prompts",
	themes: "Themes",
};
const TYPE_ORDER: readonly ResourceType[] = ["extensions", "skills", "prompts", "themes"];

export function groupLabel(group: ResourceGroup): string {
	if (group.origin === "package") return `${group.source} (${group.scope})`;
	if (group.origin === "auto")
		return group.scope === "user" ? `User (~/${CONFIG_DIR_NAME}/)` : `Project (${CONFIG_DIR_NAME}/)`;
	return group.scope === "user" ? "User settings" : "Project settings";
}

/** `review` for `skills/review/SKILL.md`, `tool/index.ts` for an extension directory, else the file name. */
export function resourceDisplayName(resource: ConfigurableResource): string {
	const file = basename(resource.path);
	const parent = basename(dirname(resource.path));
	if (resource.type === "skills" && file === "SKILL.md") return parent;
	if (resource.type === "extensions" && parent !== "extensions") return `${parent}/${file}`;
	return file;
}

type Row =
	| { kind: "group"; label: string }
	| { kind: "type"; label: string }
	| { kind: "item"; resource: ConfigurableResource; name: string };

function groupKey(group: ResourceGroup): string {
	return `${group.origin}:${group.scope}:${group.source ?? ""}`;
}

/** Rows in display order: packages first, then settings and auto-discovery; user before project. */
function buildRows(resources: readonly ConfigurableResource[]): Row[] {
	const groups = new Map<string, { group: ResourceGroup; items: ConfigurableResource[] }>();
	for (const resource of resources) {
		const key = groupKey(resource.group);
		const entry = groups.get(key) ?? { group: resource.group, items: [] };
		entry.items.push(resource);
		groups.set(key, entry);
	}
	const originRank = { package: 0, settings: 1, auto: 2 } as const;
	const sorted = [...groups.values()].sort(
		(a, b) =>
			originRank[a.group.origin] - originRank[b.group.origin] ||
			(a.group.scope === b.group.scope ? 0 : a.group.scope === "user" ? -1 : 1) ||
			(a.group.source ?? "").localeCompare(b.group.source ?? ""),
	);
	const rows: Row[] = [];
	for (const { group, items } of sorted) {
		rows.push({ kind: "group", label: groupLabel(group) });
		for (const type of TYPE_ORDER) {
			const ofType = items
				.filter((item) => item.type === type)
				.map((resource) => ({ kind: "item" as const, resource, name: resourceDisplayName(resource) }))
				.sort((a, b) => a.name.localeCompare(b.name));
			if (ofType.length === 0) continue;
			rows.push({ kind: "type", label: TYPE_LABELS[type] }, ...ofType);
		}
	}
	return rows;
}

/** The rows whose items match the query, with the headers above them. */
function filterRows(rows: readonly Row[], query: string): Row[] {
	const needle = query.trim().toLowerCase();
	if (!needle) return [...rows];
	const result: Row[] = [];
	let group: Row | undefined;
	let type: Row | undefined;
	for (const row of rows) {
		if (row.kind === "group") {
			group = row;
			type = undefined;
		} else if (row.kind === "type") type = row;
		else if ([row.name, row.resource.type, row.resource.path].some((text) => text.toLowerCase().includes(needle))) {
			if (group && !result.includes(group)) result.push(group);
			if (type && !result.includes(type)) result.push(type);
			result.push(row);
		}
	}
	return result;
}

export interface ResourceConfigSelectorOptions {
	theme: Theme;
	resources: readonly ConfigurableResource[];
	/** Writes the change; the checkbox shows the new state. */
	onToggle(resource: ConfigurableResource, enabled: boolean): void;
	onClose(): void;
	maxVisible?: number;
}

export class ResourceConfigSelector extends CachedComponent {
	private readonly rows: Row[];
	private visible: Row[];
	private query = "";
	private selected: number;

	constructor(private readonly options: ResourceConfigSelectorOptions) {
		super();
		this.rows = buildRows(options.resources);
		this.visible = this.rows;
		this.selected = this.firstItem();
	}

	handleInput(data: string): void {
		const keys = getEditorKeybindings();
		const height = this.height();
		if (keys.matches(data, "selectUp")) this.selected = this.nextItem(this.selected, -1);
		else if (keys.matches(data, "selectDown")) this.selected = this.nextItem(this.selected, 1);
		else if (keys.matches(data, "selectPageUp")) this.selected = this.nearestItem(this.selected - height, 1);
		else if (keys.matches(data, "selectPageDown")) this.selected = this.nearestItem(this.selected + height, -1);
		else if (data === " " || keys.matches(data, "selectConfirm")) this.toggleSelected();
		else if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.options.onClose();
			return;
		} else if (matchesKey(data, "backspace")) this.setQuery(dropLastCharacter(this.query));
		else {
			const text = typedText(data);
			if (text !== undefined) this.setQuery(this.query + text);
		}
		this.markChanged();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.options;
		const rule = theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		const hint = theme.fg("dim", "space toggle · esc close");
		const title = theme.bold(RESOURCE_CONFIG_TITLE);
		const lines = [
			rule,
			truncateToWidth(` ${title}  ${hint}`, width),
			truncateToWidth(theme.fg("muted", " Type to filter resources"), width),
			truncateToWidth(` ${theme.fg("dim", ">")} ${this.query}${theme.inverse(" ")}`, width),
			"",
		];
		if (this.visible.length === 0) {
			lines.push(theme.fg("muted", `  ${NO_RESOURCES_TEXT}`), rule);
			return lines;
		}
		const height = this.height();
		const first = Math.max(0, Math.min(this.selected - Math.floor(height / 2), this.visible.length - height));
		const last = Math.min(this.visible.length, first + height);
		for (let i = first; i < last; i++) {
			const row = this.visible[i] as Row;
			if (row.kind === "group") lines.push(truncateToWidth(`  ${theme.fg("accent", theme.bold(row.label))}`, width));
			else if (row.kind === "type") lines.push(truncateToWidth(`    ${theme.fg("muted", row.label)}`, width));
			else {
				const isSelected = i === this.selected;
				const check = row.resource.enabled ? theme.fg("success", "[x]") : theme.fg("dim", "[ ]");
				const name = isSelected ? theme.bold(row.name) : row.name;
				lines.push(truncateToWidth(`${isSelected ? "> " : "  "}    ${check} ${name}`, width, "..."));
			}
		}
		if (first > 0 || last < this.visible.length) {
			lines.push(theme.fg("dim", `  (${this.selected + 1}/${this.visible.length})`));
		}
		lines.push(rule);
		return lines;
	}

	private height(): number {
		return Math.max(3, this.options.maxVisible ?? 15);
	}

	private setQuery(query: string): void {
		this.query = query;
		this.visible = filterRows(this.rows, query);
		this.selected = this.firstItem();
	}

	private firstItem(): number {
		return Math.max(
			0,
			this.visible.findIndex((row) => row.kind === "item"),
		);
	}

	/** The next item row from `from` in `step`'s direction; stays put at the ends. */
	private nextItem(from: number, step: 1 | -1): number {
		for (let i = from + step; i >= 0 && i < this.visible.length; i += step) {
			if (this.visible[i]?.kind === "item") return i;
		}
		return from;
	}

	private nearestItem(target: number, step: 1 | -1): number {
		const start = Math.min(this.visible.length - 1, Math.max(0, target));
		if (this.visible[start]?.kind === "item") return start;
		const found = this.nextItem(start, step);
		return found === start ? this.nextItem(start, step === 1 ? -1 : 1) : found;
	}

	private toggleSelected(): void {
		const row = this.visible[this.selected];
		if (row?.kind !== "item") return;
		const enabled = !row.resource.enabled;
		this.options.onToggle(row.resource, enabled);
		row.resource.enabled = enabled;
	}
}
