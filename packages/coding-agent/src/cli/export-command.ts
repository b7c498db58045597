// `agent --export <session.jsonl> [output.html]` (docs/export.md).
import { type CliIo, EXIT_FAILURE, EXIT_SUCCESS } from "./help.js";

/**
 * Renders the session file (all branches) to a standalone HTML file: `Exported to: <path>` on stdout, or
 * `Error: <message>` on stderr and exit 1 (`File not found: <path>`, a file that is not a session, a write
 * failure). The default output is `agent-session-<input basename>.html` in the current directory.
 */
export async function runExportCommand(
	inputPath: string,
	outputPath: string | undefined,
	options: { cwd: string; io: CliIo },
): Promise<number> {
	const { exportSessionToHtml } = await import("../core/export-html/export-session.js");
	try {
		const written = await exportSessionToHtml(inputPath, outputPath, { cwd: options.cwd });
		options.io.stdout.write(`Exported to: ${written}\n`);
		return EXIT_SUCCESS;
	} catch (error) {
		options.io.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
		return EXIT_FAILURE;
	}
}
