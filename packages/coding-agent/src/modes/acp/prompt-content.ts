// An ACP prompt (content blocks) as the text and images AgentSession.prompt takes. Pure.
import { fileURLToPath } from "node:url";
import type { ImageContent } from "@agent/ai";
import type { ContentBlock } from "@agentclientprotocol/sdk";

export interface PromptInput {
	text: string;
	images: ImageContent[];
}

/** A file URI as its path (what the tools take); any other URI as it is. */
export function uriToPath(uri: string): string {
	if (!uri.startsWith("file://")) return uri;
	try {
		return fileURLToPath(uri);
	} catch {
		return uri;
	}
}

/**
 * Text blocks and resource links form the message in order (a link becomes `@<path>`, which the model can
 * read); embedded resources (the editor's copy of a file or selection) follow as `<context>` blocks; images
 * are attached. Audio is not offered in `promptCapabilities` and is left out.
 */
export function toPromptInput(blocks: readonly ContentBlock[]): PromptInput {
	let text = "";
	const contexts: string[] = [];
	const images: ImageContent[] = [];
	for (const block of blocks) {
		switch (block.type) {
			case "text":
				text += block.text;
				break;
			case "resource_link":
				text += `@${uriToPath(block.uri)}`;
				break;
			case "image":
				images.push({ type: "image", data: block.data, mimeType: block.mimeType });
				break;
			case "resource": {
				const { resource } = block;
				if ("text" in resource) {
					contexts.push(`<context ref="${uriToPath(resource.uri)}">\n${resource.text}\n</context>`);
				} else if (resource.mimeType?.startsWith("image/")) {
					images.push({ type: "image", data: resource.blob, mimeType: resource.mimeType });
				}
				break;
			}
			default:
				break;
		}
	}
	if (contexts.length > 0) text = [text, ...contexts].filter((part) => part.length > 0).join("\n\n");
	return { text, images };
}
