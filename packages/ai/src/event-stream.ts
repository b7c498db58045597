import type {
	AssistantMessage,
	AssistantMessageEvent,
	AssistantMessageEventStream as AssistantStream,
} from "./types.js";

/**
 * A single-consumer async queue of events that also carries a final result.
 * Producers `push` events and `end` it; the consumer iterates, or awaits `result()`.
 */
export class EventStream<T, R = T> implements AsyncIterable<T> {
	private readonly queue: T[] = [];
	private readonly waiting: ((value: IteratorResult<T>) => void)[] = [];
	private done = false;
	private readonly finalResult: Promise<R>;
	private resolveResult!: (result: R) => void;

	constructor(
		private readonly isTerminal: (event: T) => boolean,
		private readonly extractResult: (event: T) => R,
	) {
		this.finalResult = new Promise<R>((resolve) => {
			this.resolveResult = resolve;
		});
	}

	push(event: T): void {
		if (this.done) return;
		if (this.isTerminal(event)) {
			this.done = true;
			this.resolveResult(this.extractResult(event));
		}
		const waiter = this.waiting.shift();
		if (waiter) waiter({ value: event, done: false });
		else this.queue.push(event);
		if (this.done) this.releaseWaiters();
	}

	end(result?: R): void {
		if (result !== undefined) this.resolveResult(result);
		this.done = true;
		this.releaseWaiters();
	}

	result(): Promise<R> {
		return this.finalResult;
	}

	async *[Symbol.asyncIterator](): AsyncIterator<T> {
		while (true) {
			if (this.queue.length > 0) {
				yield this.queue.shift() as T;
				continue;
			}
			if (this.done) return;
			const next = await new Promise<IteratorResult<T>>((resolve) => this.waiting.push(resolve));
			if (next.done) return;
			yield next.value;
		}
	}

	private releaseWaiters(): void {
		// Waiters only exist while the queue is empty, so ending them loses nothing.
		for (const waiter of this.waiting.splice(0)) waiter({ value: undefined, done: true });
	}
}

export class AssistantMessageEventStream
	extends EventStream<AssistantMessageEvent, AssistantMessage>
	implements AssistantStream
{
	constructor() {
		super(
			(event) => event.type === "done" || event.type === "error",
			(event) => {
				if (event.type === "done") return event.message;
				if (event.type === "error") return event.error;
				throw new Error(`Not a terminal event: ${event.type}`);
			},
		);
	}
}

/** Factory for extensions and custom providers. */
export function createAssistantMessageEventStream(): AssistantMessageEventStream {
	return new AssistantMessageEventStream();
}
