import { parseStreamingJson } from "../../utils/json-parse.js";

/** Up to this many characters of argument JSON, arguments are re-parsed after every delta. */
export const REPARSE_EVERY_DELTA_UP_TO = 1024;
/** Beyond it, re-parsing may take at most 1 / (1 + this) of the time the stream is being consumed. */
const IDLE_TIME_PER_PARSE_TIME = 9;

/**
 * A tool call's streamed argument JSON and its live parse (the stream contract re-parses after every delta).
 *
 * Ours differs for large arguments: re-parsing the whole text per delta is quadratic, and a 200 kB `write`
 * call arriving in one burst of 16-character deltas blocked the event loop for ~25 s. Beyond 1 KB a
 * re-parse waits until nine times as long as the previous one took has passed, so parsing takes at most a
 * tenth of the time. At model speed (deltas tens of milliseconds apart) that is still every delta; in a
 * burst, the live arguments are refreshed every few milliseconds. Every delta is still emitted, and the
 * final arguments come from the whole text (`settleToolArguments` on `json`, strict).
 */
export class StreamedArguments {
	private text = "";
	private readyAt = 0;

	constructor(private readonly now: () => number = () => performance.now()) {}

	get json(): string {
		return this.text;
	}

	/** Appends a fragment; returns the re-derived arguments, or undefined when this delta skips re-parsing. */
	append(fragment: string): Record<string, unknown> | undefined {
		this.text += fragment;
		if (this.text.length <= REPARSE_EVERY_DELTA_UP_TO) return parseStreamingJson(this.text);
		const start = this.now();
		if (start < this.readyAt) return undefined;
		const parsed = parseStreamingJson(this.text);
		const end = this.now();
		this.readyAt = end + (end - start) * IDLE_TIME_PER_PARSE_TIME;
		return parsed;
	}
}
