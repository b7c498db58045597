import { Box, Container, Text } from "@agent/tui";
import { describe, expect, it } from "vitest";
import { CountingComponent } from "./helpers/test-ui.js";

describe("renderUpdate", () => {
	it("reports the first changed line after a child changes", () => {
		const container = new Container();
		const a = new Text("a1\na2", 0, 0);
		const b = new Text("b1", 0, 0);
		container.addChild(a);
		container.addChild(b);
		expect(container.renderUpdate(20)).toMatchObject({ lines: ["a1", "a2", "b1"], firstChanged: 0 });
		b.setText("b2");
		expect(container.renderUpdate(20)).toMatchObject({ lines: ["a1", "a2", "b2"], firstChanged: 2 });
		expect(container.renderUpdate(20).firstChanged).toBe(3);
	});

	it("shifts the following children when a child grows", () => {
		const container = new Container();
		const a = new Text("a1", 0, 0);
		const b = new Text("b1", 0, 0);
		container.addChild(a);
		container.addChild(b);
		container.renderUpdate(20);
		a.setText("a1\na2");
		expect(container.renderUpdate(20)).toMatchObject({ lines: ["a1", "a2", "b1"], firstChanged: 1 });
		a.setText("a1");
		expect(container.renderUpdate(20)).toMatchObject({ lines: ["a1", "b1"], firstChanged: 1 });
	});

	it("handles insertion and removal in the middle", () => {
		const container = new Container();
		const a = new Text("a", 0, 0);
		const c = new Text("c", 0, 0);
		container.addChild(a);
		container.addChild(c);
		container.renderUpdate(20);
		const b = new Text("b", 0, 0);
		container.insertChild(1, b);
		expect(container.renderUpdate(20)).toMatchObject({ lines: ["a", "b", "c"], firstChanged: 1 });
		container.removeChild(a);
		expect(container.renderUpdate(20)).toMatchObject({ lines: ["b", "c"], firstChanged: 0 });
		c.setText("c2");
		expect(container.renderUpdate(20)).toMatchObject({ lines: ["b", "c2"], firstChanged: 1 });
		container.clear();
		expect(container.renderUpdate(20)).toMatchObject({ lines: [], firstChanged: 0 });
	});

	it("re-renders everything at a new width", () => {
		const container = new Container();
		container.addChild(new Text("one two three", 0, 0));
		expect(container.renderUpdate(20).lines).toEqual(["one two three"]);
		expect(container.renderUpdate(8)).toMatchObject({ lines: ["one two", "three"], firstChanged: 0 });
	});
});

describe("change propagation", () => {
	it("passes through nested containers to the root", () => {
		const root = new Container();
		const chat = new Container();
		const message = new Container();
		const text = new Text("hello", 0, 0);
		message.addChild(text);
		chat.addChild(new Text("before", 0, 0));
		chat.addChild(message);
		root.addChild(chat);
		root.addChild(new Text("footer", 0, 0));
		root.renderUpdate(20);
		text.setText("hello world");
		expect(root.renderUpdate(20)).toMatchObject({ lines: ["before", "hello world", "footer"], firstChanged: 1 });
	});

	it("re-renders untracked components every frame, tracked ones only when they change", () => {
		const root = new Container();
		const untracked = new CountingComponent(["x"]);
		const nested = new Container();
		nested.addChild(untracked);
		root.addChild(nested);
		root.addChild(new Text("tracked", 0, 0));
		root.renderUpdate(20);
		root.renderUpdate(20);
		root.renderUpdate(20);
		expect(untracked.renderCount).toBe(3);
		expect(nested.isVolatile).toBe(true);
		untracked.lines = ["y"];
		expect(root.renderUpdate(20)).toMatchObject({ lines: ["y", "tracked"], firstChanged: 0 });
	});

	it("handles transcripts larger than the argument limit of splice", () => {
		const container = new Container();
		const big = new Text(Array.from({ length: 200_000 }, (_, i) => `l${i}`).join("\n"), 0, 0);
		container.addChild(new Text("head", 0, 0));
		container.addChild(big);
		expect(container.renderUpdate(20).lines.length).toBe(200_001);
		big.setText("small");
		expect(container.renderUpdate(20).lines).toEqual(["head", "small"]);
	});

	it("render() returns a copy and does not consume the change report", () => {
		const container = new Container();
		const text = new Text("a", 0, 0);
		container.addChild(text);
		container.renderUpdate(20);
		text.setText("b");
		const copy = container.render(20);
		copy.push("mutated");
		expect(container.renderUpdate(20)).toMatchObject({ lines: ["b"], firstChanged: 0 });
	});
});

describe("children by line", () => {
	it("finds the child drawn on a line and the line a child starts on", () => {
		const container = new Container();
		const a = new Text("a1\na2", 0, 0);
		const empty = new Text("", 0, 0);
		const b = new Text("b1", 0, 0);
		for (const child of [a, empty, b]) container.addChild(child);
		container.render(20);
		expect(container.childAtLine(1)).toEqual({ component: a, start: 0 });
		expect(container.childAtLine(2)).toEqual({ component: b, start: 2 });
		expect(container.childAtLine(3)).toBeUndefined();
		expect(container.lineOfChild(b)).toBe(2);
		expect(container.lineOfChild(new Text("x"))).toBeUndefined();
	});

	it("removes a run of children at once and reports the first changed line", () => {
		const container = new Container();
		const children = Array.from({ length: 6 }, (_, i) => new Text(`c${i}\nmore ${i}`, 0, 0));
		for (const child of children) container.addChild(child);
		container.renderUpdate(20);
		container.removeChildren(1, 3);
		expect(container.children).toEqual([children[0], children[4], children[5]]);
		expect(container.renderUpdate(20)).toMatchObject({
			lines: ["c0", "more 0", "c4", "more 4", "c5", "more 5"],
			firstChanged: 2,
		});
		expect(container.lineOfChild(children[5] as Text)).toBe(4);
		// Removed children no longer make the container render again.
		(children[2] as Text).setText("changed");
		expect(container.renderUpdate(20).firstChanged).toBe(6);
	});
});

describe("Box", () => {
	it("pads its children and paints the background across the width", () => {
		const box = new Box(2, 1, (s) => `\x1b[44m${s}\x1b[49m`);
		box.addChild(new Text("hi", 0, 0));
		const lines = box.render(10);
		expect(lines).toHaveLength(3);
		expect(lines[1]).toBe("\x1b[44m  hi      \x1b[49m");
		expect(lines[0]).toBe(`\x1b[44m${" ".repeat(10)}\x1b[49m`);
	});

	it("re-decorates only the lines after a change", () => {
		const box = new Box(1, 1);
		const a = new Text("a", 0, 0);
		const b = new Text("b", 0, 0);
		box.addChild(a);
		box.addChild(b);
		expect(box.renderUpdate(10).lines).toEqual(["", " a", " b", ""]);
		b.setText("b\nc");
		expect(box.renderUpdate(10)).toMatchObject({ lines: ["", " a", " b", " c", ""], firstChanged: 3 });
	});

	it("renders nothing without content", () => {
		const box = new Box(1, 1);
		box.addChild(new Text("", 0, 0));
		expect(box.render(10)).toEqual([]);
	});
});
