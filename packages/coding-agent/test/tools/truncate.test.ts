import { formatSize, truncateHead, truncateLine, truncateTail } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";

const lines = (count: number, make: (i: number) => string = (i) => `line ${i}`) =>
	Array.from({ length: count }, (_, i) => make(i + 1)).join("\n");

describe("truncateHead", () => {
	it("returns small content untouched", () => {
		const content = lines(10);
		const result = truncateHead(content);
		expect(result).toMatchObject({ content, truncated: false, truncatedBy: null, totalLines: 10, outputLines: 10 });
		expect(result.outputBytes).toBe(Buffer.byteLength(content));
	});

	it("keeps the first 2000 of 2500 lines, truncated by lines", () => {
		const result = truncateHead(lines(2500), { maxLines: 2000 });
		expect(result.truncatedBy).toBe("lines");
		expect(result.outputLines).toBe(2000);
		expect(result.totalLines).toBe(2500);
		expect(result.content.split("\n").at(-1)).toBe("line 2000");
		expect(result.content.startsWith("line 1\nline 2\n")).toBe(true);
	});

	it("stops at the byte limit on a whole line, truncated by bytes", () => {
		const content = lines(100, () => "x".repeat(1023));
		const result = truncateHead(content, { maxBytes: 50_000 });
		expect(result.truncatedBy).toBe("bytes");
		// 48 lines take 48*1023 + 47 newlines = 49151 bytes; a 49th would pass 50000.
		expect(result.outputLines).toBe(48);
		expect(result.outputBytes).toBe(49_151);
		expect(result.content.split("\n").every((line) => line.length === 1023)).toBe(true);
	});

	it("returns nothing and flags a first line over the limit", () => {
		const result = truncateHead(`${"y".repeat(60 * 1024)}\nshort`);
		expect(result).toMatchObject({
			content: "",
			truncated: true,
			truncatedBy: "bytes",
			firstLineExceedsLimit: true,
			outputLines: 0,
			outputBytes: 0,
		});
	});

	it("returns the empty string untouched", () => {
		expect(truncateHead("")).toMatchObject({ content: "", truncated: false, totalLines: 1, totalBytes: 0 });
	});
});

describe("truncateTail", () => {
	it("returns small content untouched", () => {
		const content = lines(10);
		expect(truncateTail(content)).toMatchObject({ content, truncated: false, truncatedBy: null });
	});

	it("keeps the last 2000 of 3000 lines", () => {
		const result = truncateTail(lines(3000), { maxLines: 2000 });
		expect(result.truncatedBy).toBe("lines");
		expect(result.outputLines).toBe(2000);
		expect(result.content.split("\n")[0]).toBe("line 1001");
		expect(result.content.split("\n").at(-1)).toBe("line 3000");
	});

	it("keeps whole lines from the end within the byte limit", () => {
		const content = lines(100, (i) => `${String(i).padStart(3, "0")}${"x".repeat(1021)}`);
		const result = truncateTail(content, { maxBytes: 50_000 });
		expect(result.truncatedBy).toBe("bytes");
		expect(result.outputLines).toBe(48);
		expect(result.content.startsWith("053")).toBe(true);
		expect(result.content.endsWith(`100${"x".repeat(1021)}`)).toBe(true);
		expect(result.lastLinePartial).toBe(false);
	});

	it("cuts an oversized last line at a UTF-8 boundary and flags it partial", () => {
		const chinese = "中文字符".repeat(6000); // 72,000 bytes, 3 bytes per character
		const result = truncateTail(`head\n${chinese}`, { maxBytes: 50_000 });
		expect(result.lastLinePartial).toBe(true);
		expect(result.truncatedBy).toBe("bytes");
		expect(result.content).not.toContain("\uFFFD");
		expect(chinese.endsWith(result.content)).toBe(true);
		// 50,000 is not a multiple of 3: the cut moves forward to the next character start.
		expect(result.outputBytes).toBe(49_998);
		expect(Buffer.byteLength(result.content)).toBe(result.outputBytes);
	});

	it("keeps the end of a huge last line even when the output ends with a newline", () => {
		const result = truncateTail(`head\n${"x".repeat(100)}\n\n`, { maxBytes: 12 });
		expect(result.lastLinePartial).toBe(true);
		expect(result.truncatedBy).toBe("bytes");
		expect(result.content).toBe(`${"x".repeat(10)}\n\n`);
		expect(result.outputLines).toBe(3);
		expect(result.outputBytes).toBe(12);
	});

	it("keeps only the trailing empty lines when the byte limit leaves no room for the line before them", () => {
		const result = truncateTail("\n\n", { maxLines: 3, maxBytes: 1 });
		expect(result).toMatchObject({ content: "\n", outputLines: 2, outputBytes: 1, lastLinePartial: false });
	});

	it("does not truncate content exactly at the limits", () => {
		const atLineLimit = lines(2000, () => "a");
		expect(truncateTail(atLineLimit).truncated).toBe(false);
		const atByteLimit = "b".repeat(50 * 1024);
		const result = truncateTail(atByteLimit);
		expect(result.truncated).toBe(false);
		expect(result.totalBytes).toBe(51_200);
		expect(truncateTail(`${atByteLimit}b`).truncated).toBe(true);
		expect(truncateTail(`${atLineLimit}\na`).truncated).toBe(true);
	});
});

describe("truncateLine", () => {
	it("leaves a 100-character line alone", () => {
		const line = "z".repeat(100);
		expect(truncateLine(line, 500)).toEqual({ text: line, wasTruncated: false });
	});

	it("cuts an 800-character line to 500 plus the marker", () => {
		const line = "q".repeat(800);
		const { text, wasTruncated } = truncateLine(line, 500);
		expect(wasTruncated).toBe(true);
		expect(text).toBe(`${"q".repeat(500)}... [truncated]`);
	});

	it("never splits a surrogate pair", () => {
		const line = `${"a".repeat(499)}😀tail`;
		expect(truncateLine(line, 500).text).toBe(`${"a".repeat(499)}... [truncated]`);
	});
});

describe("formatSize", () => {
	it("renders bytes, KB and MB as the notices show them", () => {
		expect(formatSize(512)).toBe("512B");
		expect(formatSize(51_200)).toBe("50.0KB");
		expect(formatSize(1536 * 1024)).toBe("1.5MB");
	});
});
