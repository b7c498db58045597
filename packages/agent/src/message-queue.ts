import type { AgentMessage, QueueMode } from "./types.js";

/**
 * A FIFO of messages the user queued while the agent runs (steering or follow-up). In "one-at-a-time"
 * mode each poll hands out only the oldest message, so the model answers them one by one; in "all" mode a
 * poll drains the queue.
 */
export class MessageQueue {
	private messages: AgentMessage[] = [];

	constructor(public mode: QueueMode) {}

	enqueue(message: AgentMessage): void {
		this.messages.push(message);
	}

	dequeue(): AgentMessage[] {
		if (this.messages.length === 0) return [];
		if (this.mode === "all") return this.messages.splice(0);
		return this.messages.splice(0, 1);
	}

	clear(): void {
		this.messages = [];
	}

	get size(): number {
		return this.messages.length;
	}
}
