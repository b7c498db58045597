import { parseSettingsText, serializeSettings } from "./settings-file.js";
import { migrateLegacySettings } from "./settings-migrations.js";
import {
	type NESTED_SETTINGS_KEYS,
	PROJECT_SETTINGS_NEEDING_TRUST,
	type SettingNeedingTrust,
	type Settings,
	validateSettings,
} from "./settings-schema.js";
import type { SettingsScope, SettingsStorage } from "./settings-storage.js";

/** A problem with a settings file, for the UI (`Warning (startup, global settings): <message>`). */
export interface SettingsError {
	scope: SettingsScope;
	path: string;
	message: string;
	/** The same problem as an Error (the reference's shape: `{ scope, error }`). */
	error: Error;
}

/** The line the CLI prints for a settings problem, e.g. `Warning (startup, global settings): <message>`. */
export function formatSettingsWarning(error: SettingsError, when = "startup"): string {
	return `Warning (${when}, ${error.scope} settings): ${error.message}`;
}

export type NestedSettingsKey = (typeof NESTED_SETTINGS_KEYS)[number];

/** A project setting that waits for the project to be trusted, with its value as written in the project file. */
export interface HeldBackSetting {
	key: SettingNeedingTrust;
	value: unknown;
}

/** Keys changed in this process: `null` means the whole value, a set names the nested keys that changed. */
type ModifiedKeys = Map<string, Set<string> | null>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Project values override user ones; objects are merged one level deep, arrays and primitives replaced. */
export function mergeSettings(base: Settings, override: Settings): Settings {
	const result: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(override)) {
		if (value === undefined) continue;
		const baseValue = result[key];
		result[key] = isPlainObject(baseValue) && isPlainObject(value) ? { ...baseValue, ...value } : value;
	}
	return result as Settings;
}

/** Applies the keys changed in this process to the settings currently on disk, leaving every other key alone. */
function applyModifiedKeys(
	onDisk: Record<string, unknown>,
	inMemory: Record<string, unknown>,
	modified: ModifiedKeys,
): Record<string, unknown> {
	const result = { ...onDisk };
	for (const [key, nestedKeys] of modified) {
		const value = inMemory[key];
		if (nestedKeys === null) {
			if (value === undefined) delete result[key];
			else result[key] = value;
			continue;
		}
		const nested: Record<string, unknown> = isPlainObject(result[key]) ? { ...result[key] } : {};
		const source = isPlainObject(value) ? value : {};
		for (const nestedKey of nestedKeys) {
			if (source[nestedKey] === undefined) delete nested[nestedKey];
			else nested[nestedKey] = source[nestedKey];
		}
		if (Object.keys(nested).length === 0) delete result[key];
		else result[key] = nested;
	}
	return result;
}

function cloneModified(modified: ModifiedKeys): ModifiedKeys {
	return new Map([...modified].map(([key, nested]) => [key, nested === null ? null : new Set(nested)]));
}

/**
 * The two settings scopes in memory, and their persistence. Reading never changes a file; a file that does not
 * parse is reported and never written for the rest of the process. Writes are queued in order; each one
 * re-reads the file under its lock and applies only the keys this process changed, so concurrent edits by
 * other processes (or by hand) to other keys survive.
 */
export class SettingsStore {
	private readonly scopes: Record<SettingsScope, Settings> = { global: {}, project: {} };
	private readonly modified: Record<SettingsScope, ModifiedKeys> = { global: new Map(), project: new Map() };
	private readonly unwritable = new Set<SettingsScope>();
	private overrides: Settings = {};
	private merged: Settings = {};
	private errors: SettingsError[] = [];
	private writeQueue: Promise<void> = Promise.resolve();
	private projectTrusted: boolean;

	/** `projectTrusted`: whether the project's `PROJECT_SETTINGS_NEEDING_TRUST` apply (default: not). */
	constructor(
		private readonly storage: SettingsStorage,
		options: { projectTrusted?: boolean } = {},
	) {
		this.projectTrusted = options.projectTrusted === true;
		this.loadScope("global");
		this.loadScope("project");
		this.remerge();
	}

	get effective(): Settings {
		return this.merged;
	}

	/** A scope as it applies: the project scope leaves out what waits for trust. */
	getScope(scope: SettingsScope): Settings {
		return structuredClone(scope === "project" ? this.applicableProjectSettings() : this.scopes[scope]);
	}

	/**
	 * One key of a scope as it applies, not copied (callers must not change it). A changed value is always a new
	 * object, so callers may cache by identity.
	 */
	getScopeValue<K extends keyof Settings>(scope: SettingsScope, key: K): Readonly<Settings[K]> | undefined {
		if (
			scope === "project" &&
			!this.projectTrusted &&
			(PROJECT_SETTINGS_NEEDING_TRUST as readonly string[]).includes(key)
		)
			return undefined;
		return this.scopes[scope][key];
	}

	get isProjectTrusted(): boolean {
		return this.projectTrusted;
	}

	/** Trust (or stop trusting) the project for this process; its held-back settings apply from now on. */
	setProjectTrusted(trusted: boolean): void {
		this.projectTrusted = trusted;
		this.remerge();
	}

	/** The project's settings that wait for trust, in `PROJECT_SETTINGS_NEEDING_TRUST` order; none once trusted. */
	getHeldBackProjectSettings(): HeldBackSetting[] {
		if (this.projectTrusted) return [];
		const project = this.scopes.project as Record<string, unknown>;
		return PROJECT_SETTINGS_NEEDING_TRUST.filter((key) => project[key] !== undefined).map((key) => ({
			key,
			value: structuredClone(project[key]),
		}));
	}

	private applicableProjectSettings(): Settings {
		if (this.projectTrusted) return this.scopes.project;
		const applicable: Record<string, unknown> = { ...this.scopes.project };
		for (const key of PROJECT_SETTINGS_NEEDING_TRUST) delete applicable[key];
		return applicable as Settings;
	}

	/** Re-reads both files (after pending writes finish); changes not yet written are dropped. */
	async reload(): Promise<void> {
		await this.flush();
		this.unwritable.clear();
		this.modified.global.clear();
		this.modified.project.clear();
		this.loadScope("global");
		this.loadScope("project");
		this.remerge();
	}

	/** Values that win over both files for this process only (CLI flags); never written. */
	applyOverrides(overrides: Settings): void {
		this.overrides = mergeSettings(this.overrides, overrides);
		this.remerge();
	}

	set<K extends keyof Settings>(scope: SettingsScope, key: K, value: Settings[K] | undefined): void {
		const settings = this.scopes[scope] as Record<string, unknown>;
		if (value === undefined) delete settings[key];
		else settings[key] = structuredClone(value);
		this.modified[scope].set(key, null);
		this.persist(scope);
	}

	setNested<K extends NestedSettingsKey, N extends keyof NonNullable<Settings[K]> & string>(
		scope: SettingsScope,
		key: K,
		nestedKey: N,
		value: NonNullable<Settings[K]>[N] | undefined,
	): void {
		const settings = this.scopes[scope] as Record<string, unknown>;
		const nested: Record<string, unknown> = isPlainObject(settings[key]) ? { ...settings[key] } : {};
		if (value === undefined) delete nested[nestedKey];
		else nested[nestedKey] = value;
		settings[key] = nested;
		const modifiedKeys = this.modified[scope];
		const current = modifiedKeys.get(key);
		if (current === null) {
			// the whole value is already due to be written
		} else if (current) {
			current.add(nestedKey);
		} else {
			modifiedKeys.set(key, new Set([nestedKey]));
		}
		this.persist(scope);
	}

	/** Resolves when every queued write has been attempted, including writes queued while waiting. */
	async flush(): Promise<void> {
		let queue: Promise<void>;
		do {
			queue = this.writeQueue;
			await queue;
		} while (queue !== this.writeQueue);
	}

	/** False for a file that could not be read or parsed: it is left alone until it is fixed. */
	isWritable(scope: SettingsScope): boolean {
		return !this.unwritable.has(scope);
	}

	/** Load and write problems since the last call. */
	drainErrors(): SettingsError[] {
		const errors = this.errors;
		this.errors = [];
		return errors;
	}

	private recordError(scope: SettingsScope, message: string): void {
		this.errors.push({ scope, path: this.storage.describe(scope), message, error: new Error(message) });
	}

	private loadScope(scope: SettingsScope): void {
		const path = this.storage.describe(scope);
		let text: string | undefined;
		try {
			text = this.storage.read(scope);
		} catch (error) {
			this.unwritable.add(scope);
			this.scopes[scope] = {};
			this.recordError(scope, `Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
			return;
		}
		if (text === undefined) {
			this.scopes[scope] = {};
			return;
		}
		const parsed = parseSettingsText(text, path);
		if (!parsed.ok) {
			// The reference went on and later overwrote the broken file with only the changed keys, losing
			// everything else the user had in it. Ours leaves the file alone until it is fixed.
			this.unwritable.add(scope);
			this.scopes[scope] = {};
			this.recordError(scope, `${parsed.message} (settings in this file are ignored and it will not be written)`);
			return;
		}
		const { settings, problems } = validateSettings(migrateLegacySettings(parsed.value));
		for (const problem of problems) this.recordError(scope, `Invalid setting in ${path}: ${problem} (ignored)`);
		this.scopes[scope] = settings;
	}

	private remerge(): void {
		this.merged = mergeSettings(mergeSettings(this.scopes.global, this.applicableProjectSettings()), this.overrides);
	}

	private persist(scope: SettingsScope): void {
		this.remerge();
		if (this.unwritable.has(scope)) return;
		const snapshot = structuredClone(this.scopes[scope]) as Record<string, unknown>;
		const modified = cloneModified(this.modified[scope]);
		this.writeQueue = this.writeQueue.then(async () => {
			try {
				await this.storage.update(scope, (current) => {
					let onDisk: Record<string, unknown> = {};
					if (current !== undefined) {
						const parsed = parseSettingsText(current, this.storage.describe(scope));
						if (!parsed.ok) throw new Error(`${parsed.message} (not written, to keep the file as it is)`);
						onDisk = migrateLegacySettings(parsed.value);
					}
					return serializeSettings(applyModifiedKeys(onDisk, snapshot, modified));
				});
				this.forgetWritten(scope, modified);
			} catch (error) {
				// Mark the keys as modified again (a write that succeeded meanwhile may have cleared them), so the
				// next write carries them.
				this.remarkUnwritten(scope, modified);
				this.recordError(scope, error instanceof Error ? error.message : String(error));
			}
		});
	}

	private remarkUnwritten(scope: SettingsScope, unwritten: ModifiedKeys): void {
		const live = this.modified[scope];
		for (const [key, nested] of unwritten) {
			const current = live.get(key);
			if (nested === null || current === null) live.set(key, null);
			else live.set(key, new Set([...(current ?? []), ...nested]));
		}
	}

	/** After a successful write the keys it carried no longer need writing (a later change queues its own write). */
	private forgetWritten(scope: SettingsScope, written: ModifiedKeys): void {
		const live = this.modified[scope];
		for (const [key, nested] of written) {
			const current = live.get(key);
			if (current === undefined) continue;
			if (nested === null || current === null) {
				if (nested === null) live.delete(key);
				continue;
			}
			for (const nestedKey of nested) current.delete(nestedKey);
			if (current.size === 0) live.delete(key);
		}
	}
}
