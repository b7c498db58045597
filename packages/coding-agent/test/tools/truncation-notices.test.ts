import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type BashToolDetails, createBashTool, createReadTool } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";
import { redirectTmpdir, run, textOf, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-notices-");
redirectTmpdir(tempDir);

describe("truncation notices tell the model how to get the rest", () => {
	it("read names the offset to continue from (offset=2001 after 2000 lines)", async () => {
		writeFileSync(join(tempDir(), "long.txt"), Array.from({ length: 2500 }, (_, i) => `row ${i + 1}`).join("\n"));
		const text = textOf(await run(createReadTool(tempDir()), { path: "long.txt" }));
		expect(text.endsWith("\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")).toBe(true);
		const next = textOf(await run(createReadTool(tempDir()), { path: "long.txt", offset: 2001 }));
		expect(next.split("\n")[0]).toBe("row 2001");
		expect(next.split("\n").at(-1)).toBe("row 2500");
	});

	it("bash names the limit, the lines shown and the file with all 80KB", async () => {
		const line = "l".repeat(79);
		writeFileSync(join(tempDir(), "large.log"), `${Array.from({ length: 1024 }, () => line).join("\n")}\n`);
		const result = await run<BashToolDetails>(createBashTool(tempDir()), { command: "cat large.log" });
		const { truncation, fullOutputPath } = result.details;
		expect(truncation).toMatchObject({
			truncatedBy: "bytes",
			totalBytes: 81_920,
			totalLines: 1025,
			maxBytes: 51_200,
		});
		expect(
			textOf(result).endsWith(`[Showing lines 385-1025 of 1025 (50.0KB limit). Full output: ${fullOutputPath}]`),
		).toBe(true);
		expect(readFileSync(fullOutputPath!, "utf8")).toBe(readFileSync(join(tempDir(), "large.log"), "utf8"));
	});
});
