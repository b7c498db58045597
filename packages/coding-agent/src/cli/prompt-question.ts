// A yes/no question on the terminal (the cross-project fork of `--session <id>`, docs/cli.md "Sessions").
import { createInterface } from "node:readline/promises";

/** `y` / `yes` (any case) is yes; anything else, or closing the input, is no. */
export async function askYesNo(
	question: string,
	input: NodeJS.ReadableStream = process.stdin,
	output: NodeJS.WritableStream = process.stderr,
): Promise<boolean> {
	const reader = createInterface({ input, output, terminal: false });
	try {
		output.write(question);
		const answer = await new Promise<string>((resolve) => {
			reader.once("line", resolve);
			reader.once("close", () => resolve(""));
		});
		return /^(y|yes)$/i.test(answer.trim());
	} finally {
		reader.close();
	}
}
