// How large V8's young generation (where new objects live until a scavenge moves or drops them) may grow once the
// agent is up. V8 starts it small and doubles it, up to 32 MB on Node 20 and 22, whenever enough has survived its
// scavenges since it last grew. Start-up leaves it at 8 MB (Node 20) or 4 MB (Node 22); a session's turns then keep a
// little each (the history) and have a request in flight at some scavenges, so a long one doubles it twice or three
// times, and a busy session never gives it back: ~22 MB more RSS after 1,000 quick turns. Held at start-up's size,
// turns cost no more: in alternating runs on the 2-core VM, 1,000-turn print runs took the same CPU and wall on
// Node 20 and 0.2 ms less a turn on Node 22, and 200-turn `read` runs 0.4–0.5 ms less a turn on both. Start-up
// keeps its growth: held from the first line, a one-turn print run took ~40 ms longer.
let requested = false;

/**
 * Asks that once start-up is done, collections no longer grow the young generation. The `agent` process's own entry
 * (cli.ts) asks; a program calling `main` or using the SDK keeps V8's defaults.
 */
export function keepYoungGenerationAfterStartup(): void {
	requested = true;
}

/** Start-up is done: a mode starts. */
export async function startupDone(): Promise<void> {
	if (!requested) return;
	// Imported here: node:v8 costs ~4 ms to load, and this module is part of the command line's front (cli.ts).
	const { setFlagsFromString } = await import("node:v8");
	// Read by V8 each time it grows the young generation (Node 20 to 24): the new size is this factor times the old.
	setFlagsFromString("--semi-space-growth-factor=1");
}
