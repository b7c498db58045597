// How large V8's young generation (where new objects live until a scavenge moves or drops them) may grow once the
// agent has made a first turn. V8 starts it small and doubles it, up to 32 MB on Node 20 and 22, whenever enough has
// survived its scavenges since it last grew. Start-up and a first turn leave it at 8 MB (Node 20) or 4 MB (Node 22);
// later turns each keep a little (the history) and have a request in flight at some scavenges, so a long session
// doubles it twice or three times, and a busy one never gives it back: ~22 MB more RSS after 1,000 quick turns.
// Held at that size, turns cost no more: in alternating runs on the 2-core VM, 1,000-turn print runs took the same
// CPU and wall on Node 20 and 0.2 ms less a turn on Node 22, and 200-turn `read` runs 0.4–0.5 ms less a turn on
// both. Start-up and the first turn keep their growth (they load and compile the most: the provider's SDK loads
// with the first request): held from the first line, a one-turn print run took ~40 ms longer; held from the start
// of the mode, before the first turn, ~20 ms.
import type { AgentSessionEvent } from "../core/session-runtime/events.js";

let requested = false;
let held = false;

/**
 * Asks that once a first turn has ended (when a second starts), scavenges no longer grow the young generation. The
 * `agent` process's own entry (cli.ts) asks; a program calling `main` or using the SDK keeps V8's defaults.
 */
export function holdYoungGenerationAfterFirstTurn(): void {
	requested = true;
}

/**
 * Watches `session` for the start of its second turn (the modes call it with each session they make): a run of one
 * turn, a print run's usual, ends without loading node:v8.
 */
export function watchFirstTurn(session: { subscribe(listener: (event: AgentSessionEvent) => void): () => void }): void {
	if (!requested || held) return;
	let turns = 0;
	const unsubscribe = session.subscribe((event) => {
		if (event.type !== "turn_start" || ++turns < 2) return;
		unsubscribe();
		void hold();
	});
}

async function hold(): Promise<void> {
	if (held) return;
	held = true;
	// Imported here: node:v8 costs ~4 ms to load, and this module is part of the command line's front (cli.ts).
	const { setFlagsFromString } = await import("node:v8");
	// Read by V8 each time it grows the young generation (Node 20 to 24): the new size is this factor times the old.
	setFlagsFromString("--semi-space-growth-factor=1");
}
