// What `AgentSession.onStateChange` listens to: told after a method of the session changed what a status line
// shows. Not an event of the wire, which only reports runs.
export class StateChangeNotifier {
	private readonly listeners = new Set<() => void>();

	/** Returns the unsubscribe function. */
	subscribe(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	notify(): void {
		for (const listener of this.listeners) listener();
	}

	/** Runs `change` (sync or async), then tells the listeners, whether it succeeded or not. */
	notifyAfter<T>(change: () => T): T {
		let result: T;
		try {
			result = change();
		} catch (error) {
			this.notify();
			throw error;
		}
		if (result instanceof Promise) return result.finally(() => this.notify()) as T;
		this.notify();
		return result;
	}
}
