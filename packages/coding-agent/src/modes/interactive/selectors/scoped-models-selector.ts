// `/scoped-models`: which models Ctrl+P cycles through. Enter toggles a model, Ctrl+A enables all, Ctrl+X
// clears all, Ctrl+P toggles the model's whole provider, Alt+Up/Down reorder, typing searches, Ctrl+S saves the
// selection to `enabledModels`; Esc closes. Changes apply to the session at once.
import type { Model } from "@agent/ai";
import { CachedComponent, fuzzyFilter, getEditorKeybindings, matchesKey, truncateToWidth } from "@agent/tui";
import type { DisplayState } from "../display-state.js";
import { dropLastCharacter, typedText } from "./input-keys.js";

export interface ScopedModelsSelectorOptions {
	state: DisplayState;
	/** Every model with credentials, in display order. */
	models: Model[];
	/** Keys (`provider/id`) of the enabled models, in cycling order; empty = all enabled. */
	enabled: string[];
	/** The enabled models changed (empty = all). */
	onChange(enabled: Model[]): void;
	/** Ctrl+S: persist (empty = all, which clears the setting). */
	onSave(enabled: Model[]): void;
	onClose(): void;
	maxVisible?: number;
}

const key = (model: Model) => `${model.provider}/${model.id}`;

export class ScopedModelsSelector extends CachedComponent {
	private order: Model[];
	private enabled: Set<string>;
	private query = "";
	private selected = 0;

	constructor(private readonly options: ScopedModelsSelectorOptions) {
		super();
		const all = options.models;
		const enabledKeys = options.enabled.length > 0 ? options.enabled : all.map(key);
		this.enabled = new Set(enabledKeys);
		// Enabled models first, in their cycling order, then the rest.
		const byKey = new Map(all.map((model) => [key(model), model]));
		const first = enabledKeys.map((k) => byKey.get(k)).filter((model): model is Model => model !== undefined);
		this.order = [...first, ...all.filter((model) => !this.enabled.has(key(model)))];
	}

	/** The enabled models in cycling order; empty when all are enabled. */
	getEnabled(): Model[] {
		const enabled = this.order.filter((model) => this.enabled.has(key(model)));
		return enabled.length === this.order.length ? [] : enabled;
	}

	handleInput(data: string): void {
		const keys = getEditorKeybindings();
		const visible = this.visibleModels();
		const count = visible.length;
		const current = visible[this.selected];
		if (keys.matches(data, "selectUp")) this.selected = count === 0 ? 0 : (this.selected - 1 + count) % count;
		else if (keys.matches(data, "selectDown")) this.selected = count === 0 ? 0 : (this.selected + 1) % count;
		else if (keys.matches(data, "selectConfirm")) {
			if (current) this.toggle([current], !this.enabled.has(key(current)));
		} else if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			if (this.query) this.query = "";
			else {
				this.options.onClose();
				return;
			}
		} else if (matchesKey(data, "ctrl+a")) this.toggle(this.order, true);
		else if (matchesKey(data, "ctrl+x")) this.toggle(this.order, false);
		else if (matchesKey(data, "ctrl+p")) {
			if (current) {
				const provider = this.order.filter((model) => model.provider === current.provider);
				this.toggle(provider, !provider.every((model) => this.enabled.has(key(model))));
			}
		} else if (matchesKey(data, "alt+up")) this.move(current, -1);
		else if (matchesKey(data, "alt+down")) this.move(current, 1);
		else if (matchesKey(data, "ctrl+s")) this.options.onSave(this.getEnabled());
		else if (matchesKey(data, "backspace")) {
			this.query = dropLastCharacter(this.query);
			this.selected = 0;
		} else {
			const text = typedText(data);
			if (text !== undefined) {
				this.query += text;
				this.selected = 0;
			}
		}
		this.markChanged();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.options.state;
		const rule = theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		const enabledCount = this.order.filter((model) => this.enabled.has(key(model))).length;
		const lines = [
			rule,
			truncateToWidth(
				` ${theme.bold("Scoped models")} ${theme.fg("dim", `(${enabledCount}/${this.order.length} enabled)`)}`,
				width,
			),
			truncateToWidth(` ${theme.fg("dim", ">")} ${this.query}${theme.inverse(" ")}`, width),
		];
		const visible = this.visibleModels();
		const height = Math.max(1, this.options.maxVisible ?? 12);
		const first = Math.max(0, Math.min(this.selected - Math.floor(height / 2), visible.length - height));
		if (visible.length === 0) lines.push(theme.fg("muted", "  No matching models"));
		for (let i = first; i < Math.min(visible.length, first + height); i++) {
			const model = visible[i];
			const isSelected = i === this.selected;
			const check = this.enabled.has(key(model)) ? theme.fg("success", "[x]") : theme.fg("dim", "[ ]");
			const label = `${model.id} ${theme.fg("dim", `[${model.provider}]`)}`;
			lines.push(
				truncateToWidth(
					`${isSelected ? theme.fg("accent", "› ") : "  "}${check} ${isSelected ? theme.bold(label) : label}`,
					width,
				),
			);
		}
		lines.push(
			truncateToWidth(
				theme.fg(
					"dim",
					" Enter toggle · Ctrl+A all · Ctrl+X none · Ctrl+P provider · Alt+↑↓ reorder · Ctrl+S save · Esc close",
				),
				width,
			),
		);
		lines.push(rule);
		return lines;
	}

	private visibleModels(): Model[] {
		if (!this.query.trim()) return this.order;
		return fuzzyFilter(this.order, this.query, (model) => `${model.provider}/${model.id} ${model.name ?? ""}`);
	}

	private toggle(models: Model[], enable: boolean): void {
		for (const model of models) {
			if (enable) this.enabled.add(key(model));
			else this.enabled.delete(key(model));
		}
		this.options.onChange(this.getEnabled());
	}

	private move(model: Model | undefined, step: number): void {
		if (!model || this.query) return;
		const index = this.order.indexOf(model);
		const target = index + step;
		if (index < 0 || target < 0 || target >= this.order.length) return;
		const order = [...this.order];
		order[index] = order[target] as Model;
		order[target] = model;
		this.order = order;
		this.selected = target;
		this.options.onChange(this.getEnabled());
	}
}
