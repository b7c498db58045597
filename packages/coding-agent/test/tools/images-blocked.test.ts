import type { Message } from "@agent/ai";
import { blockImagesInMessages, IMAGES_DISABLED_TEXT } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";

const image = { type: "image", data: "AAAA", mimeType: "image/png" } as const;

describe("images-blocked mode", () => {
	it("replaces images in user and tool results and collapses repeats", () => {
		const messages: Message[] = [
			{ role: "user", content: [{ type: "text", text: "look" }, image, image], timestamp: 1 },
			{
				role: "toolResult",
				toolCallId: "c1",
				toolName: "read",
				content: [{ type: "text", text: "Read image file [image/png]" }, image],
				isError: false,
				timestamp: 2,
			},
		];
		expect(blockImagesInMessages(messages)).toEqual([
			{
				role: "user",
				content: [
					{ type: "text", text: "look" },
					{ type: "text", text: IMAGES_DISABLED_TEXT },
				],
				timestamp: 1,
			},
			{
				role: "toolResult",
				toolCallId: "c1",
				toolName: "read",
				content: [
					{ type: "text", text: "Read image file [image/png]" },
					{ type: "text", text: "Image reading is disabled." },
				],
				isError: false,
				timestamp: 2,
			},
		]);
	});

	it("returns messages without images as the same objects", () => {
		const messages: Message[] = [{ role: "user", content: "plain", timestamp: 1 }];
		expect(blockImagesInMessages(messages)[0]).toBe(messages[0]);
	});
});
