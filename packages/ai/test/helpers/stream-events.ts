// Reading an adapter's event stream the way every provider test does, whatever the API.
import type { AssistantMessage, AssistantMessageEvent, AssistantMessageEventStream } from "../../src/types.js";

export interface CollectedStream {
	events: AssistantMessageEvent[];
	types: string[];
	result: AssistantMessage;
}

/** Drains a stream; also checks that `result()` resolves to the terminal event's message. */
export async function collect(stream: AssistantMessageEventStream): Promise<CollectedStream> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	const result = await stream.result();
	return { events, types: events.map((e) => e.type), result };
}

export function deltasOf(events: AssistantMessageEvent[], type: "text_delta" | "thinking_delta" | "toolcall_delta") {
	return events.flatMap((e) => (e.type === type ? [e.delta] : []));
}

/** Every `*_start` has exactly one matching `*_end` for the same content index, after it. */
export function expectBalancedBlocks(events: AssistantMessageEvent[]): void {
	const open = new Map<number, string>();
	for (const event of events) {
		const match = /^(text|thinking|toolcall)_(start|delta|end)$/.exec(event.type);
		if (!match || !("contentIndex" in event)) continue;
		const [, kind, phase] = match;
		if (phase === "start") {
			if (open.has(event.contentIndex)) throw new Error(`block ${event.contentIndex} started twice`);
			open.set(event.contentIndex, kind);
		} else if (open.get(event.contentIndex) !== kind) {
			throw new Error(`${event.type} for block ${event.contentIndex} that is not an open ${kind} block`);
		} else if (phase === "end") {
			open.delete(event.contentIndex);
		}
	}
	if (open.size > 0) throw new Error(`blocks never ended: ${[...open.keys()].join(", ")}`);
}

const INTERNAL_FIELDS = ["partialJson", "partialArgs", "index"];

/** No streaming bookkeeping left on any block of a final message. */
export function internalFieldsOf(message: AssistantMessage): string[] {
	return message.content.flatMap((block) => INTERNAL_FIELDS.filter((field) => field in block));
}

/** Drains a stream started with `controller.signal`, aborting the request once `shouldAbort(event)` is true. */
export async function collectAbortingWhen(
	stream: AssistantMessageEventStream,
	controller: AbortController,
	shouldAbort: (event: AssistantMessageEvent) => boolean,
): Promise<CollectedStream> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) {
		events.push(event);
		if (!controller.signal.aborted && shouldAbort(event)) controller.abort();
	}
	const result = await stream.result();
	return { events, types: events.map((e) => e.type), result };
}
