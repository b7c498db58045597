// What the first prompts are (cli.md §5, §6): piped stdin, @file contents and images, positional messages.
import type { ImageContent } from "@agent/ai";
import { processFileArguments } from "./file-arguments.js";

export interface InitialInput {
	/** The first message: file text, then stdin or the first positional message. */
	initialMessage?: string;
	/** Images of @file arguments; they go with the first message. */
	initialImages: ImageContent[];
	/** The remaining messages, sent one after another. */
	messages: string[];
}

/**
 * Assembles the prompts. File text is prefixed to the first message — the stdin content when there is some,
 * else the first positional message; with neither, the file text alone is the first message. Throws
 * FileArgumentError for a missing or unreadable file.
 */
export async function buildInitialInput(options: {
	messages: readonly string[];
	fileArgs: readonly string[];
	stdinPrompt: string | undefined;
	cwd: string;
	autoResizeImages: boolean;
}): Promise<InitialInput> {
	const messages = [...options.messages];
	if (options.fileArgs.length === 0) {
		return options.stdinPrompt === undefined
			? { initialImages: [], messages }
			: { initialMessage: options.stdinPrompt, initialImages: [], messages };
	}
	const files = await processFileArguments(options.fileArgs, {
		cwd: options.cwd,
		autoResizeImages: options.autoResizeImages,
	});
	const first = options.stdinPrompt ?? messages.shift() ?? "";
	return { initialMessage: files.text + first, initialImages: files.images, messages };
}
