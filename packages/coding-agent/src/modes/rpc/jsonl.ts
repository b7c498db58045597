// Strict JSON Lines framing (docs/rpc.md "Framing"): LF is the only record separator. Node's `readline` also splits on
// U+2028/U+2029, which JSON strings may contain unescaped, so it must not be used for this protocol.
import { format } from "node:util";
import { JsonlLineSplitter } from "../../core/line-splitter.js";

export { JsonlLineSplitter };

/** One record: compact JSON and a single LF. U+2028/U+2029 stay as they are, as JSON.stringify writes them. */
export function serializeJsonLine(value: unknown): string {
	return `${JSON.stringify(value)}\n`;
}

/**
 * Feeds `stream` through a splitter. Returns a function that detaches the listeners. `onEnd` runs after the
 * last line was delivered.
 */
export function attachJsonlReader(
	stream: NodeJS.ReadableStream,
	onLine: (line: string) => void,
	onEnd?: () => void,
): () => void {
	const splitter = new JsonlLineSplitter(onLine);
	const onData = (chunk: Buffer | string) => splitter.push(chunk);
	const onStreamEnd = () => {
		splitter.end();
		onEnd?.();
	};
	stream.on("data", onData);
	stream.once("end", onStreamEnd);
	return () => {
		stream.off("data", onData);
		stream.off("end", onStreamEnd);
	};
}

/**
 * Writes records to a stream (stdout) in the order produced, without batching. A reader that went away
 * (EPIPE) stops the writer instead of crashing the process; `flush()` resolves once everything written so far
 * has been handed to the OS, so a process can exit without losing its last lines.
 */
export class JsonlWriter {
	private closed = false;
	private readonly closeListeners: (() => void)[] = [];

	constructor(private readonly stream: NodeJS.WritableStream) {
		stream.on("error", (error: NodeJS.ErrnoException) => {
			if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED")
				process.stderr.write(`Output stream failed: ${error.message}\n`);
			if (this.closed) return;
			this.closed = true;
			for (const listener of this.closeListeners.splice(0)) listener();
		});
	}

	/** Called once when the reader goes away. */
	onClosed(listener: () => void): void {
		if (this.closed) listener();
		else this.closeListeners.push(listener);
	}

	get isClosed(): boolean {
		return this.closed;
	}

	write(value: unknown): void {
		if (this.closed) return;
		this.stream.write(serializeJsonLine(value));
	}

	flush(): Promise<void> {
		if (this.closed) return Promise.resolve();
		return new Promise((resolve) => {
			this.stream.write("", () => resolve());
		});
	}
}

/**
 * Sends `console.log`/`info`/`debug` to stderr for the rest of the process, so that a stray log line (an
 * extension's, a library's) can never corrupt a stdout that carries only records or the final answer.
 */
export function routeConsoleToStderr(): void {
	const toStderr = (...args: unknown[]) => {
		process.stderr.write(`${format(...args)}\n`);
	};
	console.log = toStderr;
	console.info = toStderr;
	console.debug = toStderr;
}
