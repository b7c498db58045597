// The files of a point of the session tree, from its checkpoint entries, against a naive replay.

import { describe, expect, it } from "vitest";
import fc from "../../../../scripts/fast-check.js";
import { readCheckpointHistory, statesAt } from "../../src/core/checkpoints/checkpoint-history.js";
import type { FileCheckpointState, SessionEntry } from "../../src/core/session/entries.js";

const PATHS = ["a", "b", "c"] as const;
type Path = (typeof PATHS)[number];

const stateArb: fc.Arbitrary<FileCheckpointState> = fc.oneof(
	fc.constant(null),
	fc.integer({ min: 0, max: 3 }).map((n) => ({ blob: `h${n}`, size: n, mode: 0o644 })),
);

interface Step {
	/** Index of the parent among the entries created before (modulo their count); -1: a root. */
	parent: number;
	kind: "message" | "checkpoint";
	changes: { path: Path; after: FileCheckpointState }[];
}

const stepArb: fc.Arbitrary<Step> = fc.record({
	parent: fc.integer({ min: -1, max: 1000 }),
	kind: fc.constantFrom("message" as const, "checkpoint" as const),
	changes: fc.uniqueArray(fc.record({ path: fc.constantFrom(...PATHS), after: stateArb }), {
		minLength: 1,
		maxLength: 3,
		selector: (change) => change.path,
	}),
});

/** Builds a session tree from the steps, with changes consistent along each branch; returns the replayed states. */
function buildTree(initial: Record<Path, FileCheckpointState>, steps: Step[]) {
	const entries: SessionEntry[] = [];
	const stateAt = new Map<string, Record<Path, FileCheckpointState>>();
	let seq = 1;
	for (const [index, step] of steps.entries()) {
		const parent = step.parent < 0 || entries.length === 0 ? undefined : entries[step.parent % entries.length];
		const id = `e${index}`;
		const base = parent ? (stateAt.get(parent.id) as Record<Path, FileCheckpointState>) : initial;
		const state = { ...base };
		const common = { id, parentId: parent?.id ?? null, timestamp: new Date(index).toISOString() };
		if (step.kind === "checkpoint") {
			const files = step.changes.map((change) => {
				const recorded = { path: change.path, before: state[change.path], after: change.after, seq: seq++ };
				state[change.path] = change.after;
				return recorded;
			});
			entries.push({ ...common, type: "file_checkpoint", source: "bash", files });
		} else {
			entries.push({
				...common,
				type: "message",
				message: { role: "user", content: [{ type: "text", text: id }], timestamp: index },
			});
		}
		stateAt.set(id, state);
	}
	return { entries, stateAt };
}

describe("states of a point", () => {
	it("are what replaying the branch up to it gives, for every point and every recorded path (property)", () => {
		fc.assert(
			fc.property(
				fc.record({ a: stateArb, b: stateArb, c: stateArb }),
				fc.array(stepArb, { minLength: 1, maxLength: 25 }),
				(initial, steps) => {
					const { entries, stateAt } = buildTree(initial, steps);
					const history = readCheckpointHistory(entries);
					for (const entry of entries) {
						const states = statesAt(history, entry.id);
						for (const [path, state] of states) {
							expect(state).toEqual((stateAt.get(entry.id) as Record<Path, FileCheckpointState>)[path as Path]);
						}
					}
					for (const [path, state] of statesAt(history, null)) expect(state).toEqual(initial[path as Path]);
				},
			),
		);
	});

	it("take the latest change of a path by sequence, not by position (a held !cmd message written late)", () => {
		const entries: SessionEntry[] = [
			{
				type: "file_checkpoint",
				id: "late",
				parentId: null,
				timestamp: "t",
				source: "edit",
				files: [
					{
						path: "a",
						before: { blob: "x", size: 1, mode: 420 },
						after: { blob: "z", size: 1, mode: 420 },
						seq: 9,
					},
				],
			},
			{
				type: "file_checkpoint",
				id: "early",
				parentId: "late",
				timestamp: "t",
				source: "user_bash",
				files: [
					{
						path: "a",
						before: { blob: "w", size: 1, mode: 420 },
						after: { blob: "x", size: 1, mode: 420 },
						seq: 3,
					},
				],
			},
		];
		expect(statesAt(readCheckpointHistory(entries), "early").get("a")).toEqual({ blob: "z", size: 1, mode: 420 });
	});
});
