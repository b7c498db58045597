// What the first prompts are (docs/cli.md "Input"): piped stdin, @file contents and images, positional messages.
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

function isBlank(text: string): boolean {
	return text.trim().length === 0;
}

/**
 * Assembles the prompts. File text is prefixed to the first message — the stdin content when there is some,
 * else the first positional message; with neither, the file text alone is the first message. Blank messages
 * (`agent -p "$TASK"` with TASK unset, an empty @file) are not prompts: sending them spends a model call on
 * nothing, as empty input in the editor and empty piped stdin are ignored. Throws FileArgumentError for a
 * missing or unreadable file.
 */
export async function buildInitialInput(options: {
	messages: readonly string[];
	fileArgs: readonly string[];
	stdinPrompt: string | undefined;
	cwd: string;
	autoResizeImages: boolean;
}): Promise<InitialInput> {
	const messages = options.messages.filter((message) => !isBlank(message));
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
	const initialMessage = files.text + first;
	if (isBlank(initialMessage) && files.images.length === 0) return { initialImages: [], messages };
	return { initialMessage, initialImages: files.images, messages };
}
