// fast-check for the property tests of every package: import `fc` from here, not from "fast-check", so each
// file runs its properties with the settings below and files without property tests do not load fast-check.
import fc from "fast-check";

// Property tests run the same cases every time, so a landed suite stays green; FC_SEED replays or explores
// other cases ("random" draws a fresh seed), FC_RUNS runs more of them.
const seedSetting = process.env.FC_SEED ?? "20261121";
fc.configureGlobal({
	seed: seedSetting === "random" ? Date.now() ^ (Math.random() * 0x100000000) : Number(seedSetting),
	numRuns: Number(process.env.FC_RUNS ?? 100),
});

export default fc;
