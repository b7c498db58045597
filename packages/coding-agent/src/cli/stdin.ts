// Piped stdin (docs/cli.md "Input"): read to EOF, decoded as UTF-8, trimmed.
import { StringDecoder } from "node:string_decoder";

/** Reads the whole stream. A parent that never closes our stdin makes this wait: that is the contract. */
export function readStreamToEnd(stream: NodeJS.ReadableStream): Promise<string> {
	return new Promise((resolve, reject) => {
		const decoder = new StringDecoder("utf8");
		let text = "";
		stream.on("data", (chunk: Buffer | string) => {
			text += typeof chunk === "string" ? chunk : decoder.write(chunk);
		});
		stream.once("end", () => resolve(text + decoder.end()));
		stream.once("error", reject);
	});
}

/**
 * The trimmed content of piped stdin, or undefined when stdin is a terminal (nothing is read then) unless
 * `force` (a lone `-` argument) asks to read it anyway.
 */
export async function readPipedStdin(
	stdin: NodeJS.ReadStream = process.stdin,
	force = false,
): Promise<string | undefined> {
	if (stdin.isTTY && !force) return undefined;
	const text = (await readStreamToEnd(stdin)).trim();
	return text.length > 0 ? text : undefined;
}
