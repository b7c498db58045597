// What the session picker shows, as pure functions: search (`re:<regex>`, `"exact phrase"`, or fuzzy words),
// the named-only filter, and the three orders (threaded: forks under their parent; recent; best match first).
import { fuzzyMatch } from "@agent/tui";
import type { SessionInfo } from "../../../core/session/entries.js";

export type SessionSort = "threaded" | "recent" | "fuzzy";

export const SESSION_SORTS: readonly SessionSort[] = ["threaded", "recent", "fuzzy"];

export interface SessionRow {
	session: SessionInfo;
	/** Nesting under a parent session (threaded order). */
	depth: number;
}

/** The text a session is known by: its name, else its first message. */
export function sessionTitle(session: SessionInfo): string {
	return (session.name ?? session.firstMessage).replace(/\s+/g, " ").trim();
}

type Matcher = (session: SessionInfo) => number | undefined;

/** A matcher returning a score (lower is better) or undefined for no match; `error` for a bad regex. */
export function parseSessionQuery(query: string): { match: Matcher; error?: string } {
	const trimmed = query.trim();
	if (!trimmed) return { match: () => 0 };
	if (trimmed.startsWith("re:")) {
		try {
			const regex = new RegExp(trimmed.slice(3), "i");
			return {
				match: (session) =>
					regex.test(sessionTitle(session)) || regex.test(session.allMessagesText) ? 0 : undefined,
			};
		} catch (error) {
			return { match: () => undefined, error: error instanceof Error ? error.message : String(error) };
		}
	}
	const exact = /^"(.*)"$/.exec(trimmed);
	if (exact) {
		const phrase = exact[1].toLowerCase();
		return {
			match: (session) =>
				sessionTitle(session).toLowerCase().includes(phrase) ||
				session.allMessagesText.toLowerCase().includes(phrase)
					? 0
					: undefined,
		};
	}
	const words = trimmed.split(/\s+/);
	return {
		match: (session) => {
			const text = `${session.name ?? ""} ${session.firstMessage} ${session.cwd}`;
			let score = 0;
			for (const word of words) {
				const result = fuzzyMatch(word, text);
				if (!result.matches) return undefined;
				score += result.score;
			}
			return score;
		},
	};
}

export function buildSessionRows(
	sessions: readonly SessionInfo[],
	options: { query: string; sort: SessionSort; namedOnly: boolean },
): { rows: SessionRow[]; error?: string } {
	const { match, error } = parseSessionQuery(options.query);
	const scored: { session: SessionInfo; score: number }[] = [];
	for (const session of sessions) {
		if (options.namedOnly && !session.name) continue;
		const score = match(session);
		if (score !== undefined) scored.push({ session, score });
	}
	const byRecent = (a: SessionInfo, b: SessionInfo) => b.modified.getTime() - a.modified.getTime();
	let rows: SessionRow[];
	if (options.sort === "fuzzy" && options.query.trim()) {
		scored.sort((a, b) => a.score - b.score || byRecent(a.session, b.session));
		rows = scored.map(({ session }) => ({ session, depth: 0 }));
	} else if (options.sort === "threaded") {
		rows = threadSessions(scored.map((entry) => entry.session).sort(byRecent));
	} else {
		rows = scored
			.map((entry) => entry.session)
			.sort(byRecent)
			.map((session) => ({ session, depth: 0 }));
	}
	return error ? { rows, error } : { rows };
}

/** Forks listed under the session they came from (when it is in the list), newest first at each level. */
function threadSessions(sessions: SessionInfo[]): SessionRow[] {
	const byPath = new Map(sessions.map((session) => [session.path, session]));
	const children = new Map<string, SessionInfo[]>();
	const roots: SessionInfo[] = [];
	for (const session of sessions) {
		const parent = session.parentSessionPath;
		if (parent && parent !== session.path && byPath.has(parent)) {
			const list = children.get(parent) ?? [];
			list.push(session);
			children.set(parent, list);
		} else {
			roots.push(session);
		}
	}
	const rows: SessionRow[] = [];
	const visited = new Set<string>();
	const visit = (session: SessionInfo, depth: number) => {
		if (visited.has(session.path)) return;
		visited.add(session.path);
		rows.push({ session, depth });
		for (const child of children.get(session.path) ?? []) visit(child, depth + 1);
	};
	for (const root of roots) visit(root, 0);
	// Sessions in a parent cycle have no root: list them flat rather than lose them.
	for (const session of sessions) visit(session, 0);
	return rows;
}
