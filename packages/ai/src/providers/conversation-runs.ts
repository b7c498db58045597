// A pass over a conversation's messages that the next request resumes instead of starting over. A request's
// history is the previous request's history with new messages at its end, so a pass that remembers where it
// stopped (its state, what it produced) only has to take the new messages; checking that the history still
// starts with the messages the pass has taken is one identity comparison per message. Anything else (a message
// replaced or removed, a shorter history, another setting) starts a new pass.

/** A pass in progress: the messages it has taken, in order. */
export interface ResumablePass {
	readonly inputs: readonly object[];
}

/** Whether `list` starts with `prefix`, element for element the same objects. */
export function startsWith(list: readonly object[], prefix: readonly object[]): boolean {
	if (list.length < prefix.length) return false;
	for (let index = 0; index < prefix.length; index++) if (list[index] !== prefix[index]) return false;
	return true;
}

/**
 * The latest passes of each conversation, found by the conversation's first message (so that a session and
 * another conversation in the same process, a compaction summary say, do not evict each other) and by the
 * settings they were made for.
 */
export class ConversationRuns<P extends ResumablePass> {
	private readonly byFirstMessage = new WeakMap<object, P[]>();

	/** `limit`: passes kept per conversation, for requests that alternate between settings. */
	constructor(private readonly limit: number) {}

	/**
	 * The pass to continue over `list`: the remembered one for which `matches` holds when `list` starts with its
	 * inputs, else a new one from `create` (replacing a remembered one `list` no longer extends). The caller
	 * then gives it `list`'s messages from `pass.inputs.length` on.
	 */
	resume(list: readonly object[], matches: (pass: P) => boolean, create: () => P): P {
		if (list.length === 0) return create();
		let passes = this.byFirstMessage.get(list[0]);
		if (!passes) {
			passes = [];
			this.byFirstMessage.set(list[0], passes);
		}
		const at = passes.findIndex(matches);
		let pass: P | undefined;
		if (at !== -1) {
			pass = passes[at];
			passes.splice(at, 1);
			if (!startsWith(list, pass.inputs)) pass = undefined;
		}
		pass ??= create();
		passes.push(pass);
		if (passes.length > this.limit) passes.shift();
		return pass;
	}
}

/** A pass remembered by the key of the settings it was made for. */
export interface KeyedPass extends ResumablePass {
	/** undefined: a pass for one request, never remembered (nothing it makes is shared with other requests). */
	readonly key: string | undefined;
}

/**
 * A pass for the settings `key` that has taken all of `list`: the one `runs` remembers for `key` when `list`
 * extends what it took, continued with the new messages; else a new one from `create`, given them all.
 */
export function passByKey<P extends KeyedPass, M extends object>(
	runs: ConversationRuns<P>,
	list: readonly M[],
	key: string | undefined,
	create: (key: string | undefined) => P,
	take: (pass: P, message: M) => void,
): P {
	const pass =
		key === undefined
			? create(undefined)
			: runs.resume(
					list,
					(candidate) => candidate.key === key,
					() => create(key),
				);
	for (let index = pass.inputs.length; index < list.length; index++) take(pass, list[index]);
	return pass;
}
