// The session's model and thinking level: selecting, cycling, clamping, and recording every change in the
// session and the user's settings (docs/rpc.md "Model and thinking level").
import type { Agent, ThinkingLevel } from "@agent/agent-core";
import type { Model } from "@agent/ai";
import type { ModelRegistry } from "../config/model-registry.js";
import { DEFAULT_THINKING_LEVEL, type ScopedModel } from "../config/model-resolver.js";
import type { SettingsManager } from "../config/settings-manager.js";
import type { ModelSelectSource } from "../extensions/hooks.js";
import type { SessionManager } from "../session/session-manager.js";
import type { ModelCycleResult } from "./events.js";
import { clampThinkingLevel, getAvailableThinkingLevels } from "./thinking-levels.js";

export interface ModelHost {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly modelRegistry: ModelRegistry;
	/** Tells extensions (`model_select`); called only when the model actually changed. */
	notifyModelSelect(model: Model, previousModel: Model | undefined, source: ModelSelectSource): void;
}

export function noApiKeyForModelText(model: Pick<Model, "provider" | "id">): string {
	return `No API key for ${model.provider}/${model.id}`;
}

function sameModel(a: Model | undefined, b: Model | undefined): boolean {
	return a !== undefined && b !== undefined && a.provider === b.provider && a.id === b.id;
}

export class ModelController {
	private current: Model | undefined;
	private scoped: ScopedModel[];

	constructor(
		private readonly host: ModelHost,
		initialModel: Model | undefined,
		scopedModels: readonly ScopedModel[] = [],
	) {
		this.current = initialModel;
		this.scoped = [...scopedModels];
		if (initialModel) host.agent.setModel(initialModel);
	}

	get model(): Model | undefined {
		return this.current;
	}

	get thinkingLevel(): ThinkingLevel {
		return this.host.agent.state.thinkingLevel;
	}

	get scopedModels(): readonly ScopedModel[] {
		return this.scoped;
	}

	setScopedModels(models: readonly ScopedModel[]): void {
		this.scoped = [...models];
	}

	getAvailableThinkingLevels(): ThinkingLevel[] {
		return getAvailableThinkingLevels(this.current);
	}

	supportsThinking(): boolean {
		return this.current?.reasoning === true;
	}

	/** Models whose provider has credentials, in registry order. */
	getAvailableModels(): Model[] {
		return this.host.modelRegistry.getAvailable();
	}

	/** Switches model; throws `No API key for <provider>/<id>` when its provider has no key. */
	async setModel(model: Model): Promise<void> {
		await this.requireApiKey(model);
		this.apply(model, "set", undefined);
	}

	/** `setModel` for extensions: false instead of throwing when there is no key. */
	async trySetModel(model: Model): Promise<boolean> {
		if (!(await this.host.modelRegistry.getApiKey(model))) return false;
		this.apply(model, "set", undefined);
		return true;
	}

	/**
	 * The next (or previous) model among the scoped models that have credentials, else among all available
	 * models. Undefined when there is nothing to cycle to. A scoped `:level` is applied.
	 */
	async cycleModel(direction: "forward" | "backward" = "forward"): Promise<ModelCycleResult | undefined> {
		const scopedWithAuth = this.scoped.filter((choice) => this.host.modelRegistry.hasAuth(choice.model.provider));
		const isScoped = scopedWithAuth.length > 0;
		const candidates: ScopedModel[] = isScoped
			? scopedWithAuth
			: this.getAvailableModels().map((model) => ({ model }));
		if (candidates.length <= 1) return undefined;
		const currentIndex = Math.max(
			0,
			candidates.findIndex((choice) => sameModel(choice.model, this.current)),
		);
		const step = direction === "forward" ? 1 : -1;
		const next = candidates[(currentIndex + step + candidates.length) % candidates.length] as ScopedModel;
		await this.requireApiKey(next.model);
		this.apply(next.model, "cycle", next.thinkingLevel);
		return { model: next.model, thinkingLevel: this.thinkingLevel, isScoped };
	}

	/**
	 * Clamps to the model's levels; when the effective level changes it is recorded in the session and saved
	 * as `defaultThinkingLevel` (not when a model without reasoning is simply at `off`).
	 */
	setThinkingLevel(level: ThinkingLevel | string): void {
		const effective = clampThinkingLevel(level, this.getAvailableThinkingLevels());
		if (effective === this.thinkingLevel) return;
		this.host.agent.setThinkingLevel(effective);
		this.host.sessionManager.appendThinkingLevelChange(effective);
		if (this.supportsThinking() || effective !== "off") this.host.settingsManager.setDefaultThinkingLevel(effective);
	}

	/** The next level of the model's list (wrapping to `off`); undefined for models without reasoning. */
	cycleThinkingLevel(): ThinkingLevel | undefined {
		if (!this.supportsThinking()) return undefined;
		const levels = this.getAvailableThinkingLevels();
		const index = levels.indexOf(this.thinkingLevel);
		const next = levels[(index + 1) % levels.length] as ThinkingLevel;
		this.setThinkingLevel(next);
		return this.thinkingLevel;
	}

	/** Sets the level without recording it (startup, session restore), clamped to the model. */
	initializeThinkingLevel(level: ThinkingLevel): void {
		this.host.agent.setThinkingLevel(clampThinkingLevel(level, this.getAvailableThinkingLevels()));
	}

	/** Switches without recording a model_change (session restore); extensions see source "restore". */
	restoreModel(model: Model): void {
		const previous = this.current;
		this.current = model;
		this.host.agent.setModel(model);
		if (!sameModel(previous, model)) this.host.notifyModelSelect(model, previous, "restore");
	}

	/** The level to use when the settings say nothing: `defaultThinkingLevel`, else medium. */
	defaultThinkingLevel(): ThinkingLevel {
		return this.host.settingsManager.getDefaultThinkingLevel() ?? DEFAULT_THINKING_LEVEL;
	}

	private async requireApiKey(model: Model): Promise<void> {
		if (!(await this.host.modelRegistry.getApiKey(model))) throw new Error(noApiKeyForModelText(model));
	}

	private apply(model: Model, source: ModelSelectSource, requestedLevel: ThinkingLevel | undefined): void {
		const previous = this.current;
		const previousHadReasoning = previous?.reasoning === true;
		this.current = model;
		this.host.agent.setModel(model);
		this.host.sessionManager.appendModelChange(model.provider, model.id);
		this.host.settingsManager.setDefaultModelAndProvider(model.provider, model.id);
		// A model without reasoning left the level at `off`; coming back to reasoning starts from the default.
		const level = requestedLevel ?? (previousHadReasoning ? this.thinkingLevel : this.defaultThinkingLevel());
		this.setThinkingLevel(level);
		if (!sameModel(previous, model)) this.host.notifyModelSelect(model, previous, source);
	}
}
