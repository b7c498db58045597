import { readSmallTextFileSync } from "../tools/regular-file.js";
import { updateFileLocked } from "./settings-file.js";

/** `global`: `<agentDir>/settings.json`; `project`: `<cwd>/.agent/settings.json`. */
export type SettingsScope = "global" | "project";

/** Where the two settings files live. Reading is synchronous (startup); writing is a locked read-modify-write. */
export interface SettingsStorage {
	/** The file's path (or a label), for messages. */
	describe(scope: SettingsScope): string;
	/** The current text; undefined when there is no file. Throws when the file exists but can't be read. */
	read(scope: SettingsScope): string | undefined;
	/** Hands the current text to `update` while holding the lock and writes what it returns (unless undefined). */
	update(scope: SettingsScope, update: (current: string | undefined) => string | undefined): Promise<void>;
}

export class FileSettingsStorage implements SettingsStorage {
	constructor(private readonly paths: Record<SettingsScope, string>) {}

	describe(scope: SettingsScope): string {
		return this.paths[scope];
	}

	read(scope: SettingsScope): string | undefined {
		try {
			return readSmallTextFileSync(this.paths[scope]);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
			throw error;
		}
	}

	update(scope: SettingsScope, update: (current: string | undefined) => string | undefined): Promise<void> {
		return updateFileLocked(this.paths[scope], update);
	}
}

/** Settings kept in memory only (tests, SDK embedders that don't want files touched). */
export class InMemorySettingsStorage implements SettingsStorage {
	private readonly texts: Partial<Record<SettingsScope, string>> = {};

	constructor(initial: Partial<Record<SettingsScope, string>> = {}) {
		Object.assign(this.texts, initial);
	}

	describe(scope: SettingsScope): string {
		return `<in-memory ${scope} settings>`;
	}

	read(scope: SettingsScope): string | undefined {
		return this.texts[scope];
	}

	async update(scope: SettingsScope, update: (current: string | undefined) => string | undefined): Promise<void> {
		const next = update(this.texts[scope]);
		if (next !== undefined) this.texts[scope] = next;
	}
}
