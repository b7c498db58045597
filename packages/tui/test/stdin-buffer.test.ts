import { StdinBuffer } from "@agent/tui";
import { describe, expect, it } from "vitest";

function collect() {
	const events: { kind: "key" | "paste"; data: string }[] = [];
	const buffer = new StdinBuffer({
		onSequence: (data) => events.push({ kind: "key", data }),
		onPaste: (data) => events.push({ kind: "paste", data }),
	});
	return { buffer, events, keys: () => events.filter((e) => e.kind === "key").map((e) => e.data) };
}

describe("splitting", () => {
	it("splits a chunk into characters and escape sequences", () => {
		const { buffer, keys } = collect();
		buffer.process("ab\x1b[A\r\x1b[1;5C\x1bOP\x1b[13;2u\x1bx😀");
		expect(keys()).toEqual(["a", "b", "\x1b[A", "\r", "\x1b[1;5C", "\x1bOP", "\x1b[13;2u", "\x1bx", "😀"]);
		buffer.destroy();
	});

	it("joins an escape sequence split across chunks", () => {
		const { buffer, keys } = collect();
		buffer.process("\x1b[");
		buffer.process("1;5");
		expect(keys()).toEqual([]);
		buffer.process("A");
		expect(keys()).toEqual(["\x1b[1;5A"]);
		buffer.destroy();
	});

	it("emits a lone Escape once the timeout flushes it", () => {
		const { buffer, keys } = collect();
		buffer.process("\x1b");
		expect(keys()).toEqual([]);
		buffer.flush();
		expect(keys()).toEqual(["\x1b"]);
	});

	it("keeps OSC and APC replies whole", () => {
		const { buffer, keys } = collect();
		buffer.process("\x1b]11;rgb:0000/0000/0000\x07\x1b_Gi=1;OK\x1b\\x");
		expect(keys()).toEqual(["\x1b]11;rgb:0000/0000/0000\x07", "\x1b_Gi=1;OK\x1b\\", "x"]);
		buffer.destroy();
	});

	it("treats ESC ESC [ A as one key (Alt+Up)", () => {
		const { buffer, keys } = collect();
		buffer.process("\x1b\x1b[A");
		expect(keys()).toEqual(["\x1b\x1b[A"]);
		buffer.destroy();
	});
});

describe("bracketed paste", () => {
	it("delivers a paste in one event, with escape bytes inside it untouched", () => {
		const { buffer, events } = collect();
		buffer.process("x\x1b[200~line 1\r\n\x1b[Aline 2\x1b[201~y");
		expect(events).toEqual([
			{ kind: "key", data: "x" },
			{ kind: "paste", data: "line 1\r\n\x1b[Aline 2" },
			{ kind: "key", data: "y" },
		]);
	});

	it("joins a paste whose start and end markers are split across chunks", () => {
		const { buffer, events } = collect();
		buffer.process("\x1b[20");
		buffer.process("0~hello ");
		buffer.process("world\x1b[2");
		buffer.process("01");
		expect(events).toEqual([]);
		buffer.process("~z");
		expect(events).toEqual([
			{ kind: "paste", data: "hello world" },
			{ kind: "key", data: "z" },
		]);
	});

	it("waits for the end marker even when the timeout fires", () => {
		const { buffer, events } = collect();
		buffer.process("\x1b[200~partial");
		buffer.flush();
		expect(events).toEqual([]);
		buffer.process(" rest\x1b[201~");
		expect(events).toEqual([{ kind: "paste", data: "partial rest" }]);
	});
});

describe("events", () => {
	it("emits data and paste events to listeners added with on()", () => {
		const buffer = new StdinBuffer();
		const seen: [string, string][] = [];
		buffer.on("data", (sequence) => seen.push(["data", sequence]));
		buffer.on("paste", (text) => seen.push(["paste", text]));
		buffer.process("a\x1b[A\x1b[200~pasted\ntext\x1b[201~b");
		expect(seen).toEqual([
			["data", "a"],
			["data", "\x1b[A"],
			["paste", "pasted\ntext"],
			["data", "b"],
		]);
		buffer.destroy();
	});
});
