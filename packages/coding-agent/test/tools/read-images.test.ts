import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createReadTool, resizeImage, sniffImageMimeType } from "@agent/coding-agent";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { run, useTempDir } from "../helpers/tools-fixtures.js";

const tempDir = useTempDir("agent-read-img-");

const solid = (width: number, height: number) =>
	sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
const noise = (width: number, height: number) =>
	sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });

async function imageSize(base64: string): Promise<{ width?: number; height?: number; format?: string }> {
	const { width, height, format } = await sharp(Buffer.from(base64, "base64")).metadata();
	return { width, height, format };
}

describe("image detection by content", () => {
	it("recognises PNG, JPEG, GIF and WebP signatures and nothing else", async () => {
		expect(sniffImageMimeType(await solid(4, 4).png().toBuffer())).toBe("image/png");
		expect(sniffImageMimeType(await solid(4, 4).jpeg().toBuffer())).toBe("image/jpeg");
		expect(sniffImageMimeType(await solid(4, 4).gif().toBuffer())).toBe("image/gif");
		expect(sniffImageMimeType(await solid(4, 4).webp().toBuffer())).toBe("image/webp");
		expect(sniffImageMimeType(Buffer.from("%PDF-1.7"))).toBeNull();
		expect(sniffImageMimeType(Buffer.from("RIFF....WAVE"))).toBeNull();
	});
});

describe("reading images", () => {
	it("sends a small image unchanged with no dimension note", async () => {
		const gif = await solid(20, 10).gif().toBuffer();
		writeFileSync(join(tempDir(), "small.gif"), gif);
		const result = await run(createReadTool(tempDir()), { path: "small.gif" });
		expect(result.content).toEqual([
			{ type: "text", text: "Read image file [image/gif]" },
			{ type: "image", data: gif.toString("base64"), mimeType: "image/gif" },
		]);
	});

	it("scales an image larger than 2000x2000 down and tells the model how to map coordinates", async () => {
		writeFileSync(join(tempDir(), "wide.png"), await solid(3000, 1000).png().toBuffer());
		const result = await run(createReadTool(tempDir()), { path: "wide.png" });
		expect(result.content[0]).toEqual({
			type: "text",
			text: "Read image file [image/png]\n[Image: original 3000x1000, displayed at 2000x667. Multiply coordinates by 1.50 to map to original image.]",
		});
		const image = result.content[1];
		expect(image.type).toBe("image");
		if (image.type !== "image") return;
		expect(await imageSize(image.data)).toMatchObject({ width: 2000, height: 667 });
	});

	it("follows EXIF orientation when measuring and scaling", async () => {
		const rotated = await solid(3000, 1000).jpeg().withMetadata({ orientation: 6 }).toBuffer();
		writeFileSync(join(tempDir(), "photo.jpg"), rotated);
		const result = await run(createReadTool(tempDir()), { path: "photo.jpg" });
		expect(result.content[0]).toMatchObject({
			text: expect.stringContaining("[Image: original 1000x3000, displayed at 667x2000."),
		});
		const image = result.content[1];
		if (image.type !== "image") throw new Error("expected an image part");
		expect(await imageSize(image.data)).toMatchObject({ width: 667, height: 2000 });
	});

	it("sends the original image when resizing is turned off", async () => {
		const png = await solid(2500, 100).png().toBuffer();
		writeFileSync(join(tempDir(), "big.png"), png);
		const result = await run(createReadTool(tempDir(), { autoResizeImages: false }), { path: "big.png" });
		expect(result.content).toEqual([
			{ type: "text", text: "Read image file [image/png]" },
			{ type: "image", data: png.toString("base64"), mimeType: "image/png" },
		]);
	});

	it("sends the original when the image cannot be decoded", async () => {
		const broken = Buffer.concat([
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
			Buffer.from("garbage"),
		]);
		writeFileSync(join(tempDir(), "broken.png"), broken);
		const result = await run(createReadTool(tempDir()), { path: "broken.png" });
		expect(result.content).toEqual([
			{ type: "text", text: "Read image file [image/png]" },
			{ type: "image", data: broken.toString("base64"), mimeType: "image/png" },
		]);
	});
});

describe("resizeImage byte budget", () => {
	it("steps down JPEG quality and then size until the image fits the byte budget", async () => {
		const input = await noise(600, 400).png().toBuffer();
		const resized = await resizeImage(input, "image/png", { maxBytes: 40 * 1024 });
		expect(resized).not.toBeNull();
		expect(resized!.mimeType).toBe("image/jpeg");
		expect(Math.ceil((Buffer.from(resized!.data, "base64").length / 3) * 4)).toBeLessThanOrEqual(40 * 1024 + 4);
		expect(resized!.wasResized).toBe(true);
		expect(resized!.width).toBeLessThan(600);
		expect(resized!.width).toBeGreaterThanOrEqual(100);
	});

	it("never scales a side below 100 pixels, returning the smallest attempt instead", async () => {
		const input = await noise(300, 300).png().toBuffer();
		const resized = await resizeImage(input, "image/png", { maxBytes: 100 });
		expect(resized!.width).toBeGreaterThanOrEqual(100);
		expect(resized!.height).toBeGreaterThanOrEqual(100);
	});
});
