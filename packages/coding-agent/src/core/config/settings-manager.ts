import { join } from "node:path";
import type { ThinkingLevel } from "@agent/agent-core";
import { DEFAULT_MAX_REPLY_BYTES, DEFAULT_REPLY_TIMEOUT_MS, type Transport } from "@agent/ai";
import { getAgentDir, getProjectConfigDir, getSettingsPath } from "./paths.js";
import { isProjectTrusted } from "./project-trust.js";
import type {
	CheckpointSettings,
	DoubleEscapeAction,
	LimitsSettings,
	McpSettings,
	PackageSource,
	PermissionSettings,
	QueueMode,
	Settings,
	ThinkingBudgetsSettings,
	TreeFilterMode,
	TuiMode,
} from "./settings-schema.js";
import {
	FileSettingsStorage,
	InMemorySettingsStorage,
	type SettingsScope,
	type SettingsStorage,
} from "./settings-storage.js";
import { type HeldBackSetting, type SettingsError, SettingsStore } from "./settings-store.js";

export const DEFAULT_COMPACTION_RESERVE_TOKENS = 16384;
export const DEFAULT_COMPACTION_KEEP_RECENT_TOKENS = 20000;
export const DEFAULT_BRANCH_SUMMARY_RESERVE_TOKENS = 16384;
export const DEFAULT_RETRY_MAX_RETRIES = 3;
export const DEFAULT_RETRY_BASE_DELAY_MS = 2000;
export const DEFAULT_RETRY_MAX_DELAY_MS = 60000;
export const DEFAULT_CODE_BLOCK_INDENT = "  ";
/** `limits.replyMaxBytes` and `limits.replyTimeoutMs` default to the provider layer's own bounds. */
export const DEFAULT_REPLY_MAX_BYTES = DEFAULT_MAX_REPLY_BYTES;
export { DEFAULT_REPLY_TIMEOUT_MS };
export const DEFAULT_BASH_MEMORY_BYTES = 1024 * 1024;
export const DEFAULT_QUEUE_MODE: QueueMode = "one-at-a-time";
export const DEFAULT_BASH_OUTPUT_FILE_BYTES = 256 * 1024 * 1024;
export const DEFAULT_PARALLEL_TOOL_CALLS = 8;
export const DEFAULT_CONTEXT_FILE_BYTES = 128 * 1024;
export const DEFAULT_MCP_TOOL_TIMEOUT_MS = 120_000;
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_MCP_DIRECT_TOOL_LIMIT = 40;
export const DEFAULT_CHECKPOINT_MAX_FILE_BYTES = 4 * 1024 * 1024;
export const DEFAULT_CHECKPOINT_MAX_SESSION_BYTES = 1024 * 1024 * 1024;
export const DEFAULT_CHECKPOINT_MAX_FILES = 100_000;

/** Every limit with its default applied (see `LimitsSettings`). */
export type Limits = Required<LimitsSettings>;

/** The resource-array settings keys. */
export type ResourceSettingsKey = "extensions" | "skills" | "prompts" | "themes";

export interface SettingsManagerOptions {
	/** Environment for env-dependent defaults (COLORFGBG, AGENT_HARDWARE_CURSOR, AGENT_CLEAR_ON_SHRINK). */
	env?: NodeJS.ProcessEnv;
	/**
	 * Whether the project's settings that run code or decide what runs (`PROJECT_SETTINGS_NEEDING_TRUST`) apply.
	 * Default: not; `create()` defaults to the user's remembered decision for the project.
	 */
	projectTrusted?: boolean;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(value)));

/** `light` when COLORFGBG says the background colour index is 8 or more, `dark` otherwise. */
export function detectThemeFromEnvironment(env: NodeJS.ProcessEnv): "dark" | "light" {
	const background = env.COLORFGBG?.split(";").at(-1);
	const index = background === undefined || background === "" ? Number.NaN : Number(background);
	return Number.isInteger(index) && index >= 8 ? "light" : "dark";
}

/**
 * Settings from `<agentDir>/settings.json` (user) and `<cwd>/.agent/settings.json` (project; wins), with the
 * defaults of every key. Setters change the user file unless named `…Project…`; call `flush()` before exiting
 * so queued writes finish.
 */
export class SettingsManager {
	private readonly store: SettingsStore;
	private readonly env: NodeJS.ProcessEnv;

	constructor(storage: SettingsStorage, options: SettingsManagerOptions = {}) {
		this.store = new SettingsStore(storage, { projectTrusted: options.projectTrusted === true });
		this.env = options.env ?? process.env;
	}

	static create(
		cwd: string = process.cwd(),
		agentDir: string = getAgentDir(),
		options: SettingsManagerOptions = {},
	): SettingsManager {
		const storage = new FileSettingsStorage({
			global: getSettingsPath(agentDir),
			project: join(getProjectConfigDir(cwd), "settings.json"),
		});
		return new SettingsManager(storage, { projectTrusted: isProjectTrusted(cwd, agentDir), ...options });
	}

	/** Settings that never touch the file system; `settings` is the user scope. */
	static inMemory(settings: Settings = {}, options: SettingsManagerOptions = {}): SettingsManager {
		return new SettingsManager(new InMemorySettingsStorage({ global: JSON.stringify(settings) }), options);
	}

	private get settings(): Settings {
		return this.store.effective;
	}

	// ── whole-file access ────────────────────────────────────────────────────────────────────────────────
	/** The effective settings (user merged with project and overrides). */
	getSettings(): Settings {
		return structuredClone(this.settings);
	}
	getGlobalSettings(): Settings {
		return this.store.getScope("global");
	}
	/** The project scope as it applies: without the settings that wait for trust while the project is untrusted. */
	getProjectSettings(): Settings {
		return this.store.getScope("project");
	}

	// ── project trust (project-trust.ts) ─────────────────────────────────────────────────────────────────────
	/** Whether the project's settings that run code apply (its `.agent/` extensions follow the same decision). */
	isProjectTrusted(): boolean {
		return this.store.isProjectTrusted;
	}
	/** Takes effect at once, for this process; remembering it is `trustProject()`'s job. Survives `reload()`. */
	setProjectTrusted(trusted: boolean): void {
		this.store.setProjectTrusted(trusted);
	}
	/** The project settings ignored until the project is trusted (empty once it is). */
	getHeldBackProjectSettings(): HeldBackSetting[] {
		return this.store.getHeldBackProjectSettings();
	}
	applyOverrides(overrides: Settings): void {
		this.store.applyOverrides(overrides);
	}
	reload(): Promise<void> {
		return this.store.reload();
	}
	flush(): Promise<void> {
		return this.store.flush();
	}
	drainErrors(): SettingsError[] {
		return this.store.drainErrors();
	}
	/** False for a settings file that could not be read or parsed (it is never written over). */
	isScopeWritable(scope: SettingsScope): boolean {
		return this.store.isWritable(scope);
	}
	/** Sets any key of one scope (for settings UIs); prefer the named setters. */
	setValue<K extends keyof Settings>(scope: SettingsScope, key: K, value: Settings[K] | undefined): void {
		this.store.set(scope, key, value);
	}

	// ── model ────────────────────────────────────────────────────────────────────────────────────────────
	getDefaultProvider(): string | undefined {
		return this.settings.defaultProvider;
	}
	getDefaultModel(): string | undefined {
		return this.settings.defaultModel;
	}
	setDefaultModelAndProvider(provider: string, modelId: string): void {
		this.store.set("global", "defaultProvider", provider);
		this.store.set("global", "defaultModel", modelId);
	}
	getDefaultThinkingLevel(): ThinkingLevel | undefined {
		return this.settings.defaultThinkingLevel;
	}
	setDefaultThinkingLevel(level: ThinkingLevel): void {
		this.store.set("global", "defaultThinkingLevel", level);
	}
	getThinkingBudgets(): ThinkingBudgetsSettings | undefined {
		return this.settings.thinkingBudgets ? { ...this.settings.thinkingBudgets } : undefined;
	}
	getTransport(): Transport {
		return this.settings.transport ?? "sse";
	}
	setTransport(transport: Transport): void {
		this.store.set("global", "transport", transport);
	}
	getEnabledModels(): string[] | undefined {
		return this.settings.enabledModels ? [...this.settings.enabledModels] : undefined;
	}
	/** `undefined` (or an empty list) removes the key: all models are enabled. */
	setEnabledModels(patterns: string[] | undefined): void {
		this.store.set("global", "enabledModels", patterns && patterns.length > 0 ? patterns : undefined);
	}

	// ── queueing ─────────────────────────────────────────────────────────────────────────────────────────
	getSteeringMode(): QueueMode {
		return this.settings.steeringMode ?? DEFAULT_QUEUE_MODE;
	}
	setSteeringMode(mode: QueueMode): void {
		this.store.set("global", "steeringMode", mode);
	}
	getFollowUpMode(): QueueMode {
		return this.settings.followUpMode ?? DEFAULT_QUEUE_MODE;
	}
	setFollowUpMode(mode: QueueMode): void {
		this.store.set("global", "followUpMode", mode);
	}

	// ── compaction, branch summaries, retry ──────────────────────────────────────────────────────────────
	getCompactionEnabled(): boolean {
		return this.settings.compaction?.enabled ?? true;
	}
	setCompactionEnabled(enabled: boolean): void {
		this.store.setNested("global", "compaction", "enabled", enabled);
	}
	getCompactionReserveTokens(): number {
		return this.settings.compaction?.reserveTokens ?? DEFAULT_COMPACTION_RESERVE_TOKENS;
	}
	getCompactionKeepRecentTokens(): number {
		return this.settings.compaction?.keepRecentTokens ?? DEFAULT_COMPACTION_KEEP_RECENT_TOKENS;
	}
	getCompactionSettings(): { enabled: boolean; reserveTokens: number; keepRecentTokens: number } {
		return {
			enabled: this.getCompactionEnabled(),
			reserveTokens: this.getCompactionReserveTokens(),
			keepRecentTokens: this.getCompactionKeepRecentTokens(),
		};
	}
	getBranchSummarySettings(): { reserveTokens: number; skipPrompt: boolean } {
		return {
			reserveTokens: this.settings.branchSummary?.reserveTokens ?? DEFAULT_BRANCH_SUMMARY_RESERVE_TOKENS,
			skipPrompt: this.settings.branchSummary?.skipPrompt ?? false,
		};
	}
	getRetryEnabled(): boolean {
		return this.settings.retry?.enabled ?? true;
	}
	setRetryEnabled(enabled: boolean): void {
		this.store.setNested("global", "retry", "enabled", enabled);
	}
	getRetrySettings(): { enabled: boolean; maxRetries: number; baseDelayMs: number; maxDelayMs: number } {
		return {
			enabled: this.getRetryEnabled(),
			maxRetries: this.settings.retry?.maxRetries ?? DEFAULT_RETRY_MAX_RETRIES,
			baseDelayMs: this.settings.retry?.baseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
			maxDelayMs: this.settings.retry?.maxDelayMs ?? DEFAULT_RETRY_MAX_DELAY_MS,
		};
	}

	/** `retry.streamStallTimeoutMs`; undefined when unset (the session's default applies). */
	getStreamStallTimeoutMs(): number | undefined {
		return this.settings.retry?.streamStallTimeoutMs;
	}

	// ── interface ────────────────────────────────────────────────────────────────────────────────────────
	getHideThinkingBlock(): boolean {
		return this.settings.hideThinkingBlock ?? false;
	}
	setHideThinkingBlock(hide: boolean): void {
		this.store.set("global", "hideThinkingBlock", hide);
	}
	/** The configured theme name, or the one COLORFGBG suggests. */
	getTheme(): string {
		return this.settings.theme ?? detectThemeFromEnvironment(this.env);
	}
	setTheme(theme: string): void {
		this.store.set("global", "theme", theme);
	}
	getQuietStartup(): boolean {
		return this.settings.quietStartup ?? false;
	}
	setQuietStartup(quiet: boolean): void {
		this.store.set("global", "quietStartup", quiet);
	}
	getCollapseChangelog(): boolean {
		return this.settings.collapseChangelog ?? false;
	}
	setCollapseChangelog(collapse: boolean): void {
		this.store.set("global", "collapseChangelog", collapse);
	}
	getLastChangelogVersion(): string | undefined {
		return this.settings.lastChangelogVersion;
	}
	setLastChangelogVersion(version: string): void {
		this.store.set("global", "lastChangelogVersion", version);
	}
	getDoubleEscapeAction(): DoubleEscapeAction {
		return this.settings.doubleEscapeAction ?? "tree";
	}
	setDoubleEscapeAction(action: DoubleEscapeAction): void {
		this.store.set("global", "doubleEscapeAction", action);
	}
	getTreeFilterMode(): TreeFilterMode {
		return this.settings.treeFilterMode ?? "default";
	}
	setTreeFilterMode(mode: TreeFilterMode): void {
		this.store.set("global", "treeFilterMode", mode);
	}
	getEditorPaddingX(): number {
		return this.settings.editorPaddingX ?? 0;
	}
	setEditorPaddingX(padding: number): void {
		this.store.set("global", "editorPaddingX", clamp(padding, 0, 3));
	}
	getAutocompleteMaxVisible(): number {
		return this.settings.autocompleteMaxVisible ?? 5;
	}
	setAutocompleteMaxVisible(rows: number): void {
		this.store.set("global", "autocompleteMaxVisible", clamp(rows, 3, 20));
	}
	getShowHardwareCursor(): boolean {
		return this.settings.showHardwareCursor ?? this.env.AGENT_HARDWARE_CURSOR === "1";
	}
	setShowHardwareCursor(show: boolean): void {
		this.store.set("global", "showHardwareCursor", show);
	}
	getTuiMode(): TuiMode {
		return this.settings.tuiMode ?? "inline";
	}
	setTuiMode(mode: TuiMode): void {
		this.store.set("global", "tuiMode", mode);
	}
	getShowImages(): boolean {
		return this.settings.terminal?.showImages ?? true;
	}
	setShowImages(show: boolean): void {
		this.store.setNested("global", "terminal", "showImages", show);
	}
	getClearOnShrink(): boolean {
		return this.settings.terminal?.clearOnShrink ?? this.env.AGENT_CLEAR_ON_SHRINK === "1";
	}
	setClearOnShrink(clear: boolean): void {
		this.store.setNested("global", "terminal", "clearOnShrink", clear);
	}
	getImageAutoResize(): boolean {
		return this.settings.images?.autoResize ?? true;
	}
	setImageAutoResize(resize: boolean): void {
		this.store.setNested("global", "images", "autoResize", resize);
	}
	getBlockImages(): boolean {
		return this.settings.images?.blockImages ?? false;
	}
	setBlockImages(block: boolean): void {
		this.store.setNested("global", "images", "blockImages", block);
	}
	getCodeBlockIndent(): string {
		return this.settings.markdown?.codeBlockIndent ?? DEFAULT_CODE_BLOCK_INDENT;
	}
	getEnableSkillCommands(): boolean {
		return this.settings.enableSkillCommands ?? true;
	}
	setEnableSkillCommands(enable: boolean): void {
		this.store.set("global", "enableSkillCommands", enable);
	}

	// ── shell ────────────────────────────────────────────────────────────────────────────────────────────
	getShellPath(): string | undefined {
		return this.settings.shellPath;
	}
	getShellCommandPrefix(): string | undefined {
		return this.settings.shellCommandPrefix;
	}
	getNpmCommand(): string[] | undefined {
		return this.settings.npmCommand ? [...this.settings.npmCommand] : undefined;
	}
	/** Variables kept in the environment of bash and `!cmd` although they hold provider keys. */
	getShellEnvPassthrough(): string[] {
		return [...(this.settings.shellEnvPassthrough ?? [])];
	}

	// ── limits ───────────────────────────────────────────────────────────────────────────────────────────
	getLimits(): Limits {
		const limits = this.settings.limits ?? {};
		return {
			replyMaxBytes: limits.replyMaxBytes ?? DEFAULT_REPLY_MAX_BYTES,
			replyTimeoutMs: limits.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS,
			bashMemoryBytes: limits.bashMemoryBytes ?? DEFAULT_BASH_MEMORY_BYTES,
			bashOutputFileBytes: limits.bashOutputFileBytes ?? DEFAULT_BASH_OUTPUT_FILE_BYTES,
			parallelToolCalls: Math.max(1, Math.floor(limits.parallelToolCalls ?? DEFAULT_PARALLEL_TOOL_CALLS)),
			contextFileBytes: limits.contextFileBytes ?? DEFAULT_CONTEXT_FILE_BYTES,
		};
	}

	// ── MCP ──────────────────────────────────────────────────────────────────────────────────────────────
	/** Every MCP setting with its default applied; a 0 timeout means no timeout. */
	getMcpSettings(): Required<McpSettings> {
		const mcp = this.settings.mcp ?? {};
		return {
			toolTimeoutMs: mcp.toolTimeoutMs ?? DEFAULT_MCP_TOOL_TIMEOUT_MS,
			connectTimeoutMs: mcp.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS,
			directToolLimit: Math.floor(mcp.directToolLimit ?? DEFAULT_MCP_DIRECT_TOOL_LIMIT),
		};
	}

	// ── permissions (docs/permissions.md) ────────────────────────────────────────────────────────────────
	/**
	 * One file's permission settings: the user's, or the project's (none while the project is untrusted). The
	 * rules of both apply; they are not merged like other settings. Not a copy: a change is a new object, so the
	 * permission check compiles its rules again only when this one changes.
	 */
	getPermissionSettings(scope: SettingsScope): Readonly<PermissionSettings> | undefined {
		return this.store.getScopeValue(scope, "permissions");
	}
	/** The effective `permissions.defaultMode` (the project's, once trusted, wins). */
	getDefaultPermissionMode(): PermissionSettings["defaultMode"] {
		return this.settings.permissions?.defaultMode;
	}
	getSandboxSettings(): { enabled: boolean; network: boolean } {
		const sandbox = this.settings.permissions?.sandbox;
		return { enabled: sandbox?.enabled ?? false, network: sandbox?.network ?? false };
	}
	/** Adds a rule to `permissions.<list>` of one file (the "always" answer); an existing rule is not repeated. */
	addPermissionRule(scope: SettingsScope, list: "allow" | "ask" | "deny", rule: string): void {
		// An untrusted project's rules are not in memory: writing would replace them on disk.
		if (scope === "project" && !this.isProjectTrusted()) throw new Error("The project is not trusted");
		const current = this.store.getScope(scope).permissions?.[list] ?? [];
		if (current.includes(rule)) return;
		this.store.setNested(scope, "permissions", list, [...current, rule]);
	}

	// ── file checkpoints ─────────────────────────────────────────────────────────────────────────────────
	/** Every checkpoint setting with its default applied (docs/checkpoints.md). */
	getCheckpointSettings(): Required<CheckpointSettings> {
		const checkpoints = this.settings.checkpoints ?? {};
		return {
			enabled: checkpoints.enabled ?? true,
			maxFileBytes: Math.floor(checkpoints.maxFileBytes ?? DEFAULT_CHECKPOINT_MAX_FILE_BYTES),
			maxSessionBytes: Math.floor(checkpoints.maxSessionBytes ?? DEFAULT_CHECKPOINT_MAX_SESSION_BYTES),
			maxFiles: Math.floor(checkpoints.maxFiles ?? DEFAULT_CHECKPOINT_MAX_FILES),
			watch: checkpoints.watch ?? true,
		};
	}

	// ── resources ────────────────────────────────────────────────────────────────────────────────────────
	getPackages(): PackageSource[] {
		return structuredClone(this.settings.packages ?? []);
	}
	setPackages(packages: PackageSource[]): void {
		this.store.set("global", "packages", packages);
	}
	setProjectPackages(packages: PackageSource[]): void {
		this.store.set("project", "packages", packages);
	}
	/** The effective resource array (the project's replaces the user's); the loader reads both scopes itself. */
	getResourcePaths(kind: ResourceSettingsKey): string[] {
		return [...(this.settings[kind] ?? [])];
	}
	setResourcePaths(kind: ResourceSettingsKey, paths: string[]): void {
		this.store.set("global", kind, paths);
	}
	setProjectResourcePaths(kind: ResourceSettingsKey, paths: string[]): void {
		this.store.set("project", kind, paths);
	}
}
