import type { ToolCall } from "../../types.js";
import { parseStreamingJson } from "../../utils/json-parse.js";
import { abandonToolArguments, settleToolArguments } from "../tool-arguments.js";

function setPlainArguments(block: ToolCall, value: Record<string, unknown>): void {
	Object.defineProperty(block, "arguments", { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The JSON text of a tool call's arguments while it streams, with `block.arguments` kept current.
 *
 * The stream contract keeps `arguments` as the partial parse of the JSON so far, after every delta. Done eagerly that is
 * quadratic: a 200 kB `write` call arrives in ~25,000 fragments and each partial parse of the growing text
 * costs up to a millisecond, which measured 48 s of CPU against 0.45 s for the raw SDK stream (see
 * bench/openai-completions.bench.ts). So while streaming, `arguments` is an enumerable getter that parses
 * on first read after a change: every read still sees all fragments so far (spreads, JSON.stringify and
 * structuredClone included), but parsing happens only when someone looks. `finish()` (a strict parse of the
 * complete text) and `abandon()` turn it back into a plain property, so final messages are ordinary data.
 */
export class StreamedToolArguments {
	private json: string;
	private parsed: Record<string, unknown> = {};
	private isStale = true;

	constructor(
		private readonly block: ToolCall,
		initialJson = "",
	) {
		this.json = initialJson;
		Object.defineProperty(block, "arguments", {
			enumerable: true,
			configurable: true,
			get: () => this.current(),
			// Someone assigning arguments mid-stream takes over the value.
			set: (value: Record<string, unknown>) => setPlainArguments(block, value),
		});
	}

	get text(): string {
		return this.json;
	}

	append(fragment: string): void {
		if (fragment === "") return;
		this.json += fragment;
		this.isStale = true;
	}

	replace(json: string): void {
		if (json === this.json) return;
		this.json = json;
		this.isStale = true;
	}

	/** The call's arguments are complete: strict parse (settleToolArguments); `arguments` becomes plain data. */
	finish(): void {
		setPlainArguments(this.block, {});
		settleToolArguments(this.block, this.json);
	}

	/** The reply failed while the call was streaming: partial arguments for display, the call marked cut off. */
	abandon(): void {
		setPlainArguments(this.block, {});
		abandonToolArguments(this.block, this.json);
	}

	private current(): Record<string, unknown> {
		if (this.isStale) {
			this.parsed = parseStreamingJson(this.json);
			this.isStale = false;
		}
		return this.parsed;
	}
}
