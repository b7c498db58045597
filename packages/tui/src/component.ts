/**
 * The component model. A component renders itself to one string per terminal line; lines may contain
 * ANSI styling and must not be wider than `width` visible columns.
 *
 * Components may additionally report when their output changes (`ChangeTracking`). Containers then
 * re-render a child only after it reported a change, so the cost of a frame follows what changed, not
 * how many components exist. Components that do not report changes are re-rendered on every frame,
 * which keeps components written against the plain interface correct.
 */

export interface Component {
	/** One string per line; each line's visible width must be <= width. */
	render(width: number): string[];
	/** Raw terminal input while the component has focus. */
	handleInput?(data: string): void;
	/** When true, Kitty key-release events are delivered too (default: filtered out). */
	wantsKeyRelease?: boolean;
	/** Drops caches, e.g. after a theme change; the next render recomputes everything. */
	invalidate(): void;
}

/** A component that shows focus; the TUI sets `focused` when focus moves. */
export interface Focusable {
	focused: boolean;
}

export function isFocusable(component: Component | null | undefined): component is Component & Focusable {
	return component !== null && component !== undefined && "focused" in component;
}

/**
 * Zero-width APC sequence a focused component emits at its cursor position. The TUI removes it and puts
 * the hardware cursor there (which input methods use to place their candidate window).
 */
export const CURSOR_MARKER = "\x1b_pi:c\x07";

/** Implemented by components that tell their container when their rendered lines may have changed. */
export interface ChangeTracking {
	/** Registers `listener`, called whenever the output may have changed; returns the unsubscribe function. */
	addChangeListener(listener: () => void): () => void;
	/**
	 * True while the output may change without a notification (e.g. a container holding components that
	 * do not report changes): the container then re-renders it on every frame.
	 */
	readonly isVolatile?: boolean;
}

export function isChangeTracking(component: Component): component is Component & ChangeTracking {
	return typeof (component as Partial<ChangeTracking>).addChangeListener === "function";
}

/** Lines of a render plus which of them changed since the previous `renderUpdate` call. */
export interface RenderUpdate {
	/** Valid until the next render call on the same component; callers must not keep or modify it. */
	readonly lines: readonly string[];
	/** Every line before this index is identical to the previous update's line at that index. */
	readonly firstChanged: number;
}

/** Implemented by composite components that can say which part of their output changed. */
export interface IncrementalRender {
	renderUpdate(width: number): RenderUpdate;
}

export function isIncrementalRender(component: Component): component is Component & IncrementalRender {
	return typeof (component as Partial<IncrementalRender>).renderUpdate === "function";
}

/** Notifies a set of change listeners. */
export class ChangeNotifier {
	private listeners: Set<() => void> | undefined;

	add(listener: () => void): () => void {
		this.listeners ??= new Set();
		this.listeners.add(listener);
		return () => {
			this.listeners?.delete(listener);
		};
	}

	notify(): void {
		if (!this.listeners) return;
		for (const listener of [...this.listeners]) listener();
	}
}

/**
 * Base class for leaf components: lines are rendered by `renderLines` once per width and served from the
 * cache until the subclass calls `markChanged()` (or `invalidate()` is called).
 */
export abstract class CachedComponent implements Component, ChangeTracking {
	private cachedWidth = -1;
	private cachedLines: string[] | undefined;
	private readonly changeNotifier = new ChangeNotifier();

	/** Computes the lines for `width`; called only when the cache is stale. */
	protected abstract renderLines(width: number): string[];

	render(width: number): string[] {
		if (this.cachedLines === undefined || this.cachedWidth !== width) {
			this.cachedLines = this.renderLines(width);
			this.cachedWidth = width;
		}
		return this.cachedLines;
	}

	invalidate(): void {
		this.markChanged();
	}

	addChangeListener(listener: () => void): () => void {
		return this.changeNotifier.add(listener);
	}

	/** Drops the cached lines without notifying (for use inside `render`, when the caller is already rendering). */
	protected clearCache(): void {
		this.cachedLines = undefined;
	}

	/** Drops the cached lines and tells containers to re-render this component on the next frame. */
	protected markChanged(): void {
		this.cachedLines = undefined;
		this.changeNotifier.notify();
	}
}
