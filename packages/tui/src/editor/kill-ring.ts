const MAX_ENTRIES = 60;

/**
 * Emacs-style kill ring: killed text is pushed on the ring (consecutive kills accumulate into one
 * entry), yank inserts the newest entry and yank-pop swaps the yanked text for older ones.
 */
export class KillRing {
	private readonly entries: string[] = [];
	private yankIndex = 0;

	/** Records killed text; when `accumulate` is set it joins the previous kill (forward kills append). */
	push(text: string, options: { accumulate: boolean; isBackward: boolean }): void {
		if (text.length === 0) return;
		if (options.accumulate && this.entries.length > 0) {
			this.entries[0] = options.isBackward ? text + this.entries[0] : this.entries[0] + text;
			return;
		}
		this.entries.unshift(text);
		if (this.entries.length > MAX_ENTRIES) this.entries.pop();
	}

	/** The newest entry, starting a yank sequence. */
	yank(): string | undefined {
		this.yankIndex = 0;
		return this.entries[0];
	}

	/** The next older entry of the current yank sequence (cycling). */
	yankPop(): string | undefined {
		if (this.entries.length === 0) return undefined;
		this.yankIndex = (this.yankIndex + 1) % this.entries.length;
		return this.entries[this.yankIndex];
	}

	get size(): number {
		return this.entries.length;
	}
}
