// `pi.events`: channels every extension shares (docs/extensions.md "`ExtensionAPI`"). A handler that throws or rejects is logged
// and skipped, so one extension cannot break another's subscription.
import type { EventBus } from "./types.js";

export function eventHandlerErrorText(channel: string, error: unknown): string {
	const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
	return `Event handler error (${channel}): ${detail}`;
}

export function createEventBus(log: (message: string) => void = (message) => console.error(message)): EventBus {
	const channels = new Map<string, Set<(data: unknown) => void | Promise<void>>>();
	return {
		emit(channel, data) {
			const handlers = channels.get(channel);
			if (!handlers) return;
			for (const handler of [...handlers]) {
				try {
					const result = handler(data);
					if (result instanceof Promise)
						result.catch((error: unknown) => log(eventHandlerErrorText(channel, error)));
				} catch (error) {
					log(eventHandlerErrorText(channel, error));
				}
			}
		},
		on(channel, handler) {
			let handlers = channels.get(channel);
			if (!handlers) {
				handlers = new Set();
				channels.set(channel, handlers);
			}
			handlers.add(handler);
			return () => {
				handlers.delete(handler);
			};
		},
	};
}
