import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { attachJsonlReader, JsonlLineSplitter, JsonlWriter, serializeJsonLine } from "../../src/modes/rpc/jsonl.js";

function split(chunks: (string | Buffer)[], end = true): string[] {
	const lines: string[] = [];
	const splitter = new JsonlLineSplitter((line) => lines.push(line));
	for (const chunk of chunks) splitter.push(chunk);
	if (end) splitter.end();
	return lines;
}

describe("splitting input into records", () => {
	it("splits on LF only: U+2028 and U+2029 inside a string stay in the record", () => {
		const record = serializeJsonLine({ type: "prompt", message: "a\u2028b\u2029c" });
		expect(record).toBe('{"type":"prompt","message":"a\u2028b\u2029c"}\n');
		const lines = split([record, record]);
		expect(lines).toHaveLength(2);
		expect(JSON.parse(lines[0] as string).message).toBe("a\u2028b\u2029c");
	});

	it("keeps a multi-byte character whole when a chunk boundary cuts through it", () => {
		const bytes = Buffer.from('{"m":"héllo → 日本"}\n', "utf8");
		const chunks: Buffer[] = [];
		for (let i = 0; i < bytes.length; i++) chunks.push(bytes.subarray(i, i + 1));
		expect(split(chunks)).toEqual(['{"m":"héllo → 日本"}']);
	});

	it("strips one trailing CR (CRLF input) and no more", () => {
		expect(split(['{"a":1}\r\n{"b":2}\r\r\n'])).toEqual(['{"a":1}', '{"b":2}\r']);
	});

	it("delivers empty lines (they get a parse error upstream)", () => {
		expect(split(["\n\n{}\n"])).toEqual(["", "", "{}"]);
	});

	it("delivers a final line without a newline at end of input, and nothing for an empty remainder", () => {
		expect(split(['{"a":1}\n{"b":'], false)).toEqual(['{"a":1}']);
		expect(split(['{"a":1}\n{"b":2}'])).toEqual(['{"a":1}', '{"b":2}']);
		expect(split(['{"a":1}\n'])).toEqual(['{"a":1}']);
	});

	it("joins a record spread over many chunks", () => {
		const text = `${JSON.stringify({ message: "x".repeat(100_000) })}\n`;
		const chunks: string[] = [];
		for (let i = 0; i < text.length; i += 1000) chunks.push(text.slice(i, i + 1000));
		const lines = split(chunks);
		expect(lines).toHaveLength(1);
		expect(JSON.parse(lines[0] as string).message).toHaveLength(100_000);
	});

	it("reads a stream to its end and then reports the end", async () => {
		const stream = new PassThrough();
		const lines: string[] = [];
		const ended = new Promise<void>((resolve) => attachJsonlReader(stream, (line) => lines.push(line), resolve));
		stream.write("one\ntw");
		stream.end("o");
		await ended;
		expect(lines).toEqual(["one", "two"]);
	});
});

describe("writing records", () => {
	it("writes one compact JSON value per line and flushes", async () => {
		const stream = new PassThrough();
		let output = "";
		stream.on("data", (chunk: Buffer) => {
			output += chunk.toString("utf8");
		});
		const writer = new JsonlWriter(stream);
		writer.write({ type: "agent_start" });
		writer.write({ type: "x", text: "line\nbreak" });
		await writer.flush();
		expect(output).toBe('{"type":"agent_start"}\n{"type":"x","text":"line\\nbreak"}\n');
	});
});
