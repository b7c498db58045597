import { Container, Text } from "@agent/tui";
import { describe, expect, it } from "vitest";
import fc from "../../../scripts/fast-check.js";
import { createTestUI } from "./helpers/test-ui.js";

type Step =
	| { kind: "insert"; at: number; lines: number }
	| { kind: "remove"; at: number }
	| { kind: "edit"; at: number; lines: number }
	| { kind: "resize"; columns: number; rows: number };

const step: fc.Arbitrary<Step> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.record({
			kind: fc.constant("insert" as const),
			at: fc.nat(),
			lines: fc.integer({ min: 1, max: 6 }),
		}),
	},
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }) },
	{
		weight: 4,
		arbitrary: fc.record({ kind: fc.constant("edit" as const), at: fc.nat(), lines: fc.integer({ min: 1, max: 6 }) }),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant("resize" as const),
			columns: fc.integer({ min: 20, max: 40 }),
			rows: fc.integer({ min: 4, max: 12 }),
		}),
	},
);

describe("differential rendering under random edits", () => {
	it("always shows the end of the current frame, line for line", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
				const ui = await createTestUI(30, 8);
				const chat = new Container();
				ui.tui.addChild(chat);
				const texts: Text[] = [];
				let serial = 0;
				const block = (lines: number) => Array.from({ length: lines }, () => `L${serial++}`).join("\n");
				let widthChanged = false;
				for (const s of steps) {
					if (s.kind === "insert") {
						const text = new Text(block(s.lines), 0, 0);
						const at = s.at % (texts.length + 1);
						texts.splice(at, 0, text);
						chat.insertChild(at, text);
					} else if (s.kind === "remove" && texts.length > 0) {
						const [text] = texts.splice(s.at % texts.length, 1);
						chat.removeChild(text);
					} else if (s.kind === "edit" && texts.length > 0) {
						texts[s.at % texts.length].setText(block(s.lines));
					} else if (s.kind === "resize") {
						widthChanged = s.columns !== ui.terminal.columns;
						ui.terminal.resize(s.columns, s.rows);
					}
					await ui.update();
					const frame = chat.render(ui.terminal.columns);
					const visible = ui.terminal.getViewport();
					while (visible.length > 0 && visible[visible.length - 1] === "") visible.pop();
					// What is on screen is exactly the last lines of the frame, in order.
					expect(visible).toEqual(frame.slice(frame.length - visible.length));
					if (frame.length > 0) expect(visible.length).toBeGreaterThan(0);
					if (widthChanged) {
						// A width change prints the whole history again: scrollback and screen are the frame.
						const all = ui.terminal.getScrollBuffer();
						while (all.length > 0 && all[all.length - 1] === "") all.pop();
						const trimmed = [...frame];
						while (trimmed.length > 0 && trimmed[trimmed.length - 1] === "") trimmed.pop();
						expect(all).toEqual(trimmed);
						widthChanged = false;
					}
				}
			}),
			{ numRuns: 150 },
		);
	});
});
