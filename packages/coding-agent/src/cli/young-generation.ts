// How large V8's young generation (where new objects live until a scavenge moves or drops them) may grow once the
// agent has made a first turn. V8 starts it small and doubles it, up to 32 MB on Node 20 and 22, whenever enough has
// survived its scavenges since it last grew. Start-up leaves it at 8 MB (Node 20) or 4 MB (Node 22); later turns
// each keep a little (the history) and have a request in flight at some scavenges, so a long session doubles it
// twice or three times, and a busy one never gives it back: ~22 MB more RSS after 1,000 quick turns.
// Held at that size, turns cost no more: in alternating runs on the 2-core VM, 1,000-turn print runs took the same
// CPU and wall on Node 20 and 0.2 ms less a turn on Node 22, and 200-turn `read` runs 0.4–0.5 ms less a turn on
// both. Start-up and the first turn keep their growth (they load and compile the most: the provider's SDK loads
// with the first request): held from the first line, a one-turn print run took ~40 ms longer; held from the start
// of the mode, before the first turn, ~20 ms.
import type { AgentSessionEvent } from "../core/session-runtime/events.js";
import { writeBundleCodeCache } from "./compile-cache.js";

type V8 = typeof import("node:v8");

let requested = false;
/** node:v8, once a second turn has started. */
let v8: V8 | undefined;
/** The young generation's size then: it does not grow past it. */
let limit = 0;
let growthFactor = 2;

/**
 * Asks that once a first turn has ended (when a second starts), the young generation grows no more than back to its
 * size then. The `agent` process's own entry (cli.ts) asks; a program calling `main` or using the SDK keeps V8's
 * defaults.
 */
export function holdYoungGenerationAfterFirstTurn(): void {
	requested = true;
}

/**
 * Watches `session`'s turns (the modes call it with each session they make). A run of one turn, a print run's
 * usual, ends without loading node:v8.
 */
export function watchTurns(session: { subscribe(listener: (event: AgentSessionEvent) => void): () => void }): void {
	if (!requested) return;
	let turns = 0;
	session.subscribe((event) => {
		if (event.type !== "turn_start") return;
		if (!v8) {
			if (++turns < 2) return;
			// Taken here: node:v8 costs ~4 ms to load, and this module is part of the command line's front (cli.ts).
			v8 = process.getBuiltinModule("node:v8");
			limit = youngGenerationBytes(v8);
		}
		holdAtLimit(v8);
	});
}

function youngGenerationBytes(v8: V8): number {
	return v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}

/**
 * Before each turn (~5 µs): V8 doubles the young generation only while that stays within the limit, so that one
 * it shrank (its memory reducer, while allocation is slow) grows back, and no further.
 */
function holdAtLimit(v8: V8): void {
	const factor = youngGenerationBytes(v8) * 2 <= limit ? 2 : 1;
	if (factor === growthFactor) return;
	growthFactor = factor;
	// V8 refuses code cached under other flags than a start's.
	writeBundleCodeCache();
	// Read by V8 each time it grows the young generation (Node 20 to 24): the new size is this factor times the old.
	v8.setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}
