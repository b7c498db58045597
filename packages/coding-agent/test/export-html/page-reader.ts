// Reads an exported page back: the shell (markup around the embedded data), the nodes and every entry's block.
import { gunzipSync } from "node:zlib";
import { expect } from "vitest";
import { ENTRY_SEPARATOR } from "../../src/core/export-html/html-text.js";
import type { PageData } from "../../src/core/export-html/page-data.js";

export interface ExportedPage {
	/** The page without the contents of its script elements. */
	shell: string;
	data: PageData;
	/** Entry blocks by node index. */
	blocks: string[];
	/** The text between <script> and </script> of each script element, in order. */
	scripts: string[];
}

const SCRIPT = /<script([^>]*)>([\s\S]*?)<\/script>/g;

export function readPage(html: string): ExportedPage {
	const scripts: string[] = [];
	let dataText: string | undefined;
	let entriesText: string | undefined;
	for (const match of html.matchAll(SCRIPT)) {
		const [, attributes = "", text = ""] = match;
		scripts.push(text);
		if (attributes.includes('id="session-data"')) dataText = text;
		if (attributes.includes('id="session-entries"')) entriesText = text;
	}
	expect(dataText, "the page embeds its nodes").toBeDefined();
	expect(entriesText, "the page embeds its entry blocks").toBeDefined();
	const data = JSON.parse(dataText as string) as PageData;
	const segments = JSON.parse(entriesText as string) as string[];
	const blocks = segments.flatMap((segment) =>
		gunzipSync(Buffer.from(segment, "base64")).toString("utf8").split(ENTRY_SEPARATOR),
	);
	expect(blocks.length).toBe(data.nodes.length);
	return { shell: html.replace(SCRIPT, "<script$1></script>"), data, blocks, scripts };
}

/** Index of the node with this entry id; fails the test when there is none. */
export function nodeIndex(page: ExportedPage, id: string): number {
	const index = page.data.nodes.findIndex((node) => node.id === id);
	expect(index, `entry ${id} is on the page`).toBeGreaterThanOrEqual(0);
	return index;
}

/** The block of the entry with this id. */
export function blockOf(page: ExportedPage, id: string): string {
	return page.blocks[nodeIndex(page, id)] as string;
}

/** Ids from the root to a node, following the nodes' parents. */
export function pathTo(page: ExportedPage, index: number): string[] {
	const ids: string[] = [];
	for (let at = index; at >= 0; at = page.data.nodes[at]?.p ?? -1) ids.unshift(page.data.nodes[at]?.id ?? "");
	return ids;
}
