import {
	ChangeNotifier,
	type ChangeTracking,
	type Component,
	type IncrementalRender,
	isChangeTracking,
	isIncrementalRender,
	type RenderUpdate,
} from "./component.js";
import { replaceRange } from "./rendering/line-array.js";

interface ChildSlot {
	component: Component;
	index: number;
	/** Index of the child's first line in the container's lines. */
	start: number;
	count: number;
	/** The array the child returned last time (tracked children return the same array while unchanged). */
	lastLines: readonly string[] | undefined;
	/** Not rendered at the current width yet: compare from its first line. */
	isFresh: boolean;
	unsubscribe: (() => void) | undefined;
}

/**
 * A component made of children rendered one below the other.
 *
 * The container keeps the concatenated lines of its children and, on each render, re-renders only the
 * children that reported a change (plus those that cannot report changes), splicing their new lines in
 * place. A frame in which nothing changed costs O(1) no matter how many children there are, and
 * `renderUpdate` tells the caller the first line that may differ from the previous frame.
 */
export class Container implements Component, ChangeTracking, IncrementalRender {
	private readonly slots: ChildSlot[] = [];
	private readonly childList: Component[] = [];
	private readonly lines: string[] = [];
	private renderedWidth = -1;
	private pendingFirstChanged = 0;
	private readonly dirtySlots = new Set<ChildSlot>();
	/** Children re-rendered on every frame: they do not report changes, or are volatile themselves. */
	private readonly polledSlots = new Set<ChildSlot>();
	private readonly changeNotifier = new ChangeNotifier();
	private hasNotifiedSinceRender = false;

	/** The children, top to bottom. Change them with addChild / insertChild / removeChild / clear. */
	get children(): readonly Component[] {
		return this.childList;
	}

	get isVolatile(): boolean {
		return this.polledSlots.size > 0;
	}

	addChild(component: Component): void {
		this.insertChild(this.slots.length, component);
	}

	insertChild(index: number, component: Component): void {
		const at = Math.max(0, Math.min(index, this.slots.length));
		const start = at < this.slots.length ? this.slots[at].start : this.lines.length;
		const slot: ChildSlot = {
			component,
			index: at,
			start,
			count: 0,
			lastLines: undefined,
			isFresh: true,
			unsubscribe: undefined,
		};
		this.slots.splice(at, 0, slot);
		this.childList.splice(at, 0, component);
		for (let i = at + 1; i < this.slots.length; i++) this.slots[i].index = i;
		if (isChangeTracking(component)) {
			slot.unsubscribe = component.addChangeListener(() => this.onChildChanged(slot));
			if (component.isVolatile) this.polledSlots.add(slot);
		} else {
			this.polledSlots.add(slot);
		}
		this.dirtySlots.add(slot);
		this.notifyChanged(true);
	}

	removeChild(component: Component): void {
		const at = this.childList.indexOf(component);
		if (at === -1) return;
		const slot = this.slots[at];
		if (slot.count > 0) this.lines.splice(slot.start, slot.count);
		this.pendingFirstChanged = Math.min(this.pendingFirstChanged, slot.start);
		this.slots.splice(at, 1);
		this.childList.splice(at, 1);
		for (let i = at; i < this.slots.length; i++) {
			this.slots[i].index = i;
			this.slots[i].start -= slot.count;
		}
		this.detach(slot);
		this.notifyChanged(true);
	}

	/** Removes `count` children from `start` on at once (cheaper than one removeChild per child). */
	removeChildren(start: number, count: number): void {
		const from = Math.max(0, Math.min(start, this.slots.length));
		const to = Math.min(this.slots.length, from + Math.max(0, count));
		if (to <= from) return;
		const removed = this.slots.splice(from, to - from);
		this.childList.splice(from, to - from);
		let removedLines = 0;
		for (const slot of removed) {
			removedLines += slot.count;
			this.detach(slot);
		}
		const firstLine = (removed[0] as ChildSlot).start;
		if (removedLines > 0) this.lines.splice(firstLine, removedLines);
		this.pendingFirstChanged = Math.min(this.pendingFirstChanged, firstLine);
		for (let i = from; i < this.slots.length; i++) {
			const slot = this.slots[i] as ChildSlot;
			slot.index = i;
			slot.start -= removedLines;
		}
		this.notifyChanged(true);
	}

	clear(): void {
		for (const slot of this.slots) this.detach(slot);
		this.slots.length = 0;
		this.childList.length = 0;
		this.lines.length = 0;
		this.pendingFirstChanged = 0;
		this.notifyChanged(true);
	}

	invalidate(): void {
		for (const slot of this.slots) {
			slot.component.invalidate();
			slot.isFresh = true;
			this.dirtySlots.add(slot);
		}
		this.notifyChanged(true);
	}

	addChangeListener(listener: () => void): () => void {
		return this.changeNotifier.add(listener);
	}

	render(width: number): string[] {
		this.refresh(width);
		return this.lines.slice();
	}

	renderUpdate(width: number): RenderUpdate {
		this.refresh(width);
		const firstChanged = Math.min(this.pendingFirstChanged, this.lines.length);
		this.pendingFirstChanged = Number.POSITIVE_INFINITY;
		return { lines: this.lines, firstChanged };
	}

	/**
	 * The child drawn at `line` of the last render and the line where it starts; undefined past the end. Valid
	 * after a render and until the children change.
	 */
	childAtLine(line: number): { component: Component; start: number } | undefined {
		if (line < 0 || line >= this.lines.length) return undefined;
		let low = 0;
		let high = this.slots.length - 1;
		while (low <= high) {
			const middle = (low + high) >> 1;
			const slot = this.slots[middle];
			if (line < slot.start) high = middle - 1;
			else if (line >= slot.start + slot.count) low = middle + 1;
			else return { component: slot.component, start: slot.start };
		}
		return undefined;
	}

	/** The line where `component` starts in the last render, or undefined when it is not a child. */
	lineOfChild(component: Component): number | undefined {
		const at = this.childList.indexOf(component);
		return at === -1 ? undefined : this.slots[at].start;
	}

	/** Tells the listeners (the parent container) that this container must be rendered again. */
	protected notifyChanged(force = false): void {
		if (this.hasNotifiedSinceRender && !force) return;
		this.hasNotifiedSinceRender = true;
		this.changeNotifier.notify();
	}

	private detach(slot: ChildSlot): void {
		slot.unsubscribe?.();
		slot.unsubscribe = undefined;
		this.dirtySlots.delete(slot);
		this.polledSlots.delete(slot);
	}

	private onChildChanged(slot: ChildSlot): void {
		const wasVolatile = this.polledSlots.size > 0;
		this.dirtySlots.add(slot);
		if ((slot.component as Component & ChangeTracking).isVolatile) this.polledSlots.add(slot);
		else this.polledSlots.delete(slot);
		this.notifyChanged(wasVolatile !== this.polledSlots.size > 0);
	}

	/** Brings `lines` up to date for `width`, re-rendering only dirty and polled children. */
	private refresh(width: number): void {
		this.hasNotifiedSinceRender = false;
		if (width !== this.renderedWidth) {
			this.renderedWidth = width;
			for (const slot of this.slots) {
				slot.isFresh = true;
				this.dirtySlots.add(slot);
			}
			this.pendingFirstChanged = 0;
		}
		if (this.dirtySlots.size === 0 && this.polledSlots.size === 0) return;
		const pending =
			this.polledSlots.size === 0 ? [...this.dirtySlots] : [...new Set([...this.dirtySlots, ...this.polledSlots])];
		if (pending.length > 1) pending.sort((a, b) => a.index - b.index);
		this.dirtySlots.clear();

		let shift = 0;
		let firstResized = -1;
		for (const slot of pending) {
			slot.start += shift;
			const delta = this.refreshChild(slot, width);
			if (delta !== 0) {
				shift += delta;
				if (firstResized === -1) firstResized = slot.index;
			}
		}
		if (firstResized !== -1) {
			for (let i = firstResized + 1; i < this.slots.length; i++) {
				const previous = this.slots[i - 1];
				this.slots[i].start = previous.start + previous.count;
			}
		}
	}

	/** Re-renders one child and splices its changed lines in; returns the change in its line count. */
	private refreshChild(slot: ChildSlot, width: number): number {
		const { component } = slot;
		let newLines: readonly string[];
		let compareFrom = 0;
		if (isIncrementalRender(component)) {
			const update = component.renderUpdate(width);
			newLines = update.lines;
			if (!slot.isFresh) compareFrom = Math.min(update.firstChanged, slot.count, newLines.length);
		} else {
			newLines = component.render(width);
			// Tracked components hand back the same array while their output is unchanged.
			if (!slot.isFresh && newLines === slot.lastLines && isChangeTracking(component)) return 0;
			slot.lastLines = newLines;
		}
		slot.isFresh = false;
		const oldCount = slot.count;
		const common = Math.min(oldCount, newLines.length);
		let first = compareFrom;
		while (first < common && this.lines[slot.start + first] === newLines[first]) first++;
		if (first === common && oldCount === newLines.length) return 0;
		this.pendingFirstChanged = Math.min(this.pendingFirstChanged, slot.start + first);
		replaceRange(this.lines, slot.start + first, oldCount - first, newLines, first);
		slot.count = newLines.length;
		return slot.count - oldCount;
	}
}
