// `agent --export <session.jsonl> [output.html]` (cli.md §9).
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type CliIo, EXIT_FAILURE } from "./help.js";

export const HTML_EXPORT_UNAVAILABLE_TEXT = "HTML export is not available in this build yet.";

/**
 * Checks the input and hands it to the HTML exporter. The exporter is not part of this build: until it is, the
 * command says so and exits 1 (it never writes a partial file).
 */
export async function runExportCommand(
	inputPath: string,
	_outputPath: string | undefined,
	options: { cwd: string; io: CliIo },
): Promise<number> {
	const input = resolve(options.cwd, inputPath);
	if (!existsSync(input)) {
		options.io.stderr.write(`Error: File not found: ${input}\n`);
		return EXIT_FAILURE;
	}
	options.io.stderr.write(`Error: ${HTML_EXPORT_UNAVAILABLE_TEXT}\n`);
	return EXIT_FAILURE;
}
