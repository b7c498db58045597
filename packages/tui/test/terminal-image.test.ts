// The low-level image helpers: sizes read from real file headers, the Kitty and iTerm2 escape sequences, the row
// arithmetic, and what the terminal's capabilities make renderImage draw.
import {
	allocateImageId,
	calculateImageRows,
	deleteAllKittyImages,
	deleteKittyImage,
	detectCapabilities,
	encodeITerm2,
	encodeKitty,
	getCapabilities,
	getCellDimensions,
	getGifDimensions,
	getImageDimensions,
	getJpegDimensions,
	getPngDimensions,
	getWebpDimensions,
	imageFallback,
	renderImage,
	resetCapabilitiesCache,
	setCellDimensions,
} from "@agent/tui";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	gifBase64,
	jpegBase64,
	pngBase64,
	webpVp8Base64,
	webpVp8lBase64,
	webpVp8xBase64,
} from "./helpers/image-bytes.js";

describe("image dimensions", () => {
	it("reads PNG, JPEG and GIF headers", () => {
		expect(getPngDimensions(pngBase64(640, 480))).toEqual({ widthPx: 640, heightPx: 480 });
		expect(getJpegDimensions(jpegBase64(1024, 300))).toEqual({ widthPx: 1024, heightPx: 300 });
		expect(getGifDimensions(gifBase64(320, 200))).toEqual({ widthPx: 320, heightPx: 200 });
	});

	it("reads lossy, lossless and extended WebP headers", () => {
		expect(getWebpDimensions(webpVp8Base64(400, 300))).toEqual({ widthPx: 400, heightPx: 300 });
		expect(getWebpDimensions(webpVp8lBase64(1000, 750))).toEqual({ widthPx: 1000, heightPx: 750 });
		expect(getWebpDimensions(webpVp8xBase64(5000, 70000))).toEqual({ widthPx: 5000, heightPx: 70000 });
	});

	it("returns null for data of another format or cut short", () => {
		expect(getPngDimensions(gifBase64(1, 1))).toBeNull();
		expect(getJpegDimensions(pngBase64(1, 1))).toBeNull();
		expect(getGifDimensions(pngBase64(1, 1))).toBeNull();
		expect(getWebpDimensions(jpegBase64(1, 1))).toBeNull();
		expect(getPngDimensions(pngBase64(640, 480).slice(0, 12))).toBeNull();
		expect(getJpegDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xe0]).toString("base64"))).toBeNull();
	});

	it("picks the reader by MIME type, and null for types it does not know", () => {
		expect(getImageDimensions(pngBase64(10, 20), "image/png")).toEqual({ widthPx: 10, heightPx: 20 });
		expect(getImageDimensions(jpegBase64(30, 40), "image/jpeg")).toEqual({ widthPx: 30, heightPx: 40 });
		expect(getImageDimensions(gifBase64(5, 6), "image/gif")).toEqual({ widthPx: 5, heightPx: 6 });
		expect(getImageDimensions(webpVp8Base64(7, 8), "image/webp")).toEqual({ widthPx: 7, heightPx: 8 });
		expect(getImageDimensions(pngBase64(10, 20), "image/jpeg")).toBeNull();
		expect(getImageDimensions(pngBase64(10, 20), "image/svg+xml")).toBeNull();
	});
});

describe("Kitty graphics sequences", () => {
	it("sends small data in one APC command with size and id", () => {
		expect(encodeKitty("QUJD", { columns: 20, rows: 4, imageId: 7 })).toBe(
			"\x1b_Ga=T,f=100,q=2,C=1,i=7,p=1,c=20,r=4;QUJD\x1b\\",
		);
		expect(encodeKitty("QUJD")).toBe("\x1b_Ga=T,f=100,q=2,C=1;QUJD\x1b\\");
	});

	it("splits data over 4096 bytes into chunks, m=1 on all but the last", () => {
		const data = "A".repeat(4096 * 2 + 10);
		const sequence = encodeKitty(data, { columns: 3 });
		expect(sequence).toBe(
			`\x1b_Ga=T,f=100,q=2,C=1,c=3,m=1;${"A".repeat(4096)}\x1b\\` +
				`\x1b_Gm=1;${"A".repeat(4096)}\x1b\\` +
				`\x1b_Gm=0;${"A".repeat(10)}\x1b\\`,
		);
	});

	it("deletes one image by id, or all, freeing their data", () => {
		expect(deleteKittyImage(42)).toBe("\x1b_Ga=d,d=I,i=42,q=2\x1b\\");
		expect(deleteAllKittyImages()).toBe("\x1b_Ga=d,d=A,q=2\x1b\\");
	});

	it("allocates ids within Kitty's 32-bit range, never 0", () => {
		const ids = Array.from({ length: 200 }, () => allocateImageId());
		for (const id of ids) {
			expect(Number.isInteger(id)).toBe(true);
			expect(id).toBeGreaterThanOrEqual(1);
			expect(id).toBeLessThanOrEqual(0xffff_ffff);
		}
		expect(new Set(ids).size).toBeGreaterThan(190);
	});
});

describe("iTerm2 inline images", () => {
	it("writes an OSC 1337 File sequence with the name in base64 and the decoded size", () => {
		expect(encodeITerm2("QUJDRA==", { width: 10, height: 2, name: "a.png" })).toBe(
			"\x1b]1337;File=name=YS5wbmc=;size=4;width=10;height=2;preserveAspectRatio=1;inline=1:QUJDRA==\x07",
		);
	});

	it("takes iTerm2's own units and can stretch or download instead of showing inline", () => {
		expect(encodeITerm2("QUJD", { width: "50%", height: "auto", preserveAspectRatio: false, inline: false })).toBe(
			"\x1b]1337;File=size=3;width=50%;height=auto;preserveAspectRatio=0;inline=0:QUJD\x07",
		);
	});
});

describe("layout", () => {
	const saved = getCellDimensions();
	beforeEach(() => setCellDimensions({ widthPx: 10, heightPx: 20 }));
	afterEach(() => setCellDimensions(saved));

	it("calculateImageRows keeps the aspect ratio, rounding up, at least one row", () => {
		expect(calculateImageRows({ widthPx: 200, heightPx: 100 }, 20)).toBe(5);
		expect(calculateImageRows({ widthPx: 200, heightPx: 101 }, 20)).toBe(6);
		expect(calculateImageRows({ widthPx: 1000, heightPx: 1 }, 10)).toBe(1);
		expect(calculateImageRows({ widthPx: 100, heightPx: 100 }, 10, { widthPx: 8, heightPx: 16 })).toBe(5);
	});

	it("imageFallback names the file, or the MIME type, and the size", () => {
		expect(imageFallback("image/png", { widthPx: 640, heightPx: 480 }, "shot.png")).toBe("[Image: shot.png 640x480]");
		expect(imageFallback("image/jpeg")).toBe("[Image: image/jpeg]");
	});
});

describe("capabilities", () => {
	it("detects images, true colour and hyperlinks from the environment", () => {
		expect(detectCapabilities({ TERM: "xterm-kitty" })).toEqual({
			images: "kitty",
			trueColor: true,
			hyperlinks: true,
		});
		expect(detectCapabilities({ TERM_PROGRAM: "iTerm.app" })).toEqual({
			images: "iterm2",
			trueColor: true,
			hyperlinks: true,
		});
		expect(detectCapabilities({ TERM: "xterm-256color", COLORTERM: "truecolor" })).toEqual({
			images: null,
			trueColor: true,
			hyperlinks: false,
		});
		expect(detectCapabilities({ TERM: "xterm-kitty", TMUX: "/tmp/tmux-1/default,1,0" }).images).toBeNull();
		expect(detectCapabilities({ TERM: "dumb" })).toEqual({ images: null, trueColor: false, hyperlinks: false });
	});

	describe("getCapabilities and renderImage", () => {
		const keys = ["TERM", "TERM_PROGRAM", "TMUX", "KITTY_WINDOW_ID", "ITERM_SESSION_ID", "COLORTERM"];
		let env: Record<string, string | undefined> = {};
		const cell = getCellDimensions();
		beforeEach(() => {
			env = Object.fromEntries(keys.map((key) => [key, process.env[key]]));
			for (const key of keys) delete process.env[key];
			setCellDimensions({ widthPx: 10, heightPx: 20 });
			resetCapabilitiesCache();
		});
		afterEach(() => {
			for (const [key, value] of Object.entries(env)) {
				if (value === undefined) delete process.env[key];
				else process.env[key] = value;
			}
			setCellDimensions(cell);
			resetCapabilitiesCache();
		});

		it("caches the detection until the cache is reset", () => {
			process.env.TERM = "xterm-kitty";
			expect(getCapabilities().images).toBe("kitty");
			process.env.TERM = "xterm";
			expect(getCapabilities().images).toBe("kitty");
			resetCapabilitiesCache();
			expect(getCapabilities().images).toBeNull();
		});

		it("draws with Kitty, scaled to the width limit and given id", () => {
			process.env.TERM = "xterm-kitty";
			const data = pngBase64(400, 200);
			expect(renderImage(data, { widthPx: 400, heightPx: 200 }, { maxWidthCells: 20, imageId: 9 })).toEqual({
				sequence: encodeKitty(data, { columns: 20, rows: 5, imageId: 9 }),
				rows: 5,
				imageId: 9,
			});
		});

		it("draws with iTerm2, shrunk to fit the row limit", () => {
			process.env.TERM_PROGRAM = "iTerm.app";
			const data = pngBase64(400, 400);
			// 40 columns would take 20 rows; 5 rows fit 10 columns.
			expect(renderImage(data, { widthPx: 400, heightPx: 400 }, { maxWidthCells: 40, maxHeightCells: 5 })).toEqual({
				sequence: encodeITerm2(data, { width: 10, height: 5, preserveAspectRatio: true }),
				rows: 5,
			});
		});

		it("is null on a terminal without an image protocol", () => {
			process.env.TERM = "xterm-256color";
			expect(renderImage(pngBase64(10, 10), { widthPx: 10, heightPx: 10 })).toBeNull();
		});
	});
});
