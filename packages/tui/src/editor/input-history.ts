const MAX_ENTRIES = 100;

/** Submitted prompts, most recent first, and the state of browsing them with Up/Down. */
export class InputHistory {
	private readonly entries: string[] = [];
	/** -1 when not browsing; otherwise the index of the entry shown. */
	private index = -1;
	private draft = "";

	add(text: string): void {
		const trimmed = text.trim();
		if (trimmed.length === 0 || this.entries[0] === trimmed) return;
		this.entries.unshift(trimmed);
		if (this.entries.length > MAX_ENTRIES) this.entries.pop();
	}

	get isBrowsing(): boolean {
		return this.index !== -1;
	}

	/** The next older entry, or undefined at the oldest; the first call saves `current` as the draft. */
	older(current: string): string | undefined {
		if (this.index + 1 >= this.entries.length) return undefined;
		if (this.index === -1) this.draft = current;
		this.index++;
		return this.entries[this.index];
	}

	/** The next newer entry; moving past the newest returns the draft and ends browsing. */
	newer(): string | undefined {
		if (this.index === -1) return undefined;
		this.index--;
		return this.index === -1 ? this.draft : this.entries[this.index];
	}

	stopBrowsing(): void {
		this.index = -1;
	}

	get size(): number {
		return this.entries.length;
	}
}
