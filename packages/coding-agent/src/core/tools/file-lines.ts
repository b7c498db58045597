// Chosen lines of a file, read without holding the file: grep shows a few lines around each match, and the
// file may be a 2 GB log.
import { closeSync } from "node:fs";
import { openRegularFileSync, readChunk } from "./regular-file.js";
import { incompleteTailLength } from "./utf8.js";

export interface FileLine {
	/** The line (CR bytes included, as in the file), cut to the byte budget at a character boundary. */
	text: string;
	/** The line was longer than the budget. */
	cut: boolean;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * The lines `lineNumbers` (1-based, split at "\n" as `text.split("\n")` splits) of a regular file, each cut to
 * `maxLineBytes`; a line past the end of the file is absent (a file ending in "\n" has an empty last line).
 * Reading stops after the last wanted line. Rejects for a file that is missing or not a regular file.
 */
export async function readLinesOfFile(
	path: string,
	lineNumbers: ReadonlySet<number>,
	maxLineBytes: number,
): Promise<Map<number, FileLine>> {
	const found = new Map<number, FileLine>();
	const lastWanted = Math.max(0, ...lineNumbers);
	if (lastWanted === 0) return found;
	const { fd } = openRegularFileSync(path);
	try {
		const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
		let line = 1;
		let pieces: Buffer[] = [];
		let kept = 0;
		let cut = false;
		const finishLine = () => {
			if (lineNumbers.has(line)) {
				const bytes = Buffer.concat(pieces, kept);
				const whole = cut ? bytes.subarray(0, bytes.length - incompleteTailLength(bytes)) : bytes;
				found.set(line, { text: whole.toString("utf8"), cut });
			}
			line++;
			pieces = [];
			kept = 0;
			cut = false;
		};
		const addPiece = (piece: Buffer) => {
			if (!lineNumbers.has(line) || piece.length === 0) return;
			const room = maxLineBytes - kept;
			if (piece.length > room) cut = true;
			const taken = piece.subarray(0, Math.max(0, Math.min(room, piece.length)));
			if (taken.length === 0) return;
			pieces.push(Buffer.from(taken));
			kept += taken.length;
		};
		let position = 0;
		while (line <= lastWanted) {
			const bytesRead = await readChunk(fd, buffer, position);
			if (bytesRead === 0) {
				finishLine();
				break;
			}
			position += bytesRead;
			let start = 0;
			while (start < bytesRead && line <= lastWanted) {
				const newline = buffer.indexOf(10, start);
				if (newline === -1 || newline >= bytesRead) {
					addPiece(buffer.subarray(start, bytesRead));
					break;
				}
				addPiece(buffer.subarray(start, newline));
				finishLine();
				start = newline + 1;
			}
		}
		return found;
	} finally {
		closeSync(fd);
	}
}
