// Stored sessions as ACP sees them: `session/list` pages and the file behind a session id.
import type { SessionInfo as AcpSessionInfo, ListSessionsResponse } from "@agentclientprotocol/sdk";
import type { SessionInfo } from "../../core/session/entries.js";
import { listAllSessions, listSessionsInDir } from "../../core/session/session-listing.js";
import { getSessionDirForCwd } from "../../core/session/session-paths.js";

export interface SessionCatalogOptions {
	agentDir: string;
	/** `--session-dir`: every session lives there, whatever its cwd. */
	sessionDir?: string;
}

/** Sessions per `session/list` page. */
export const SESSION_PAGE_SIZE = 100;

const MAX_TITLE_LENGTH = 120;

/** Sessions of `cwd` (all projects without one), newest first. */
async function listStored(options: SessionCatalogOptions, cwd: string | undefined): Promise<SessionInfo[]> {
	if (options.sessionDir !== undefined) {
		const all = await listSessionsInDir(options.sessionDir);
		return cwd === undefined ? all : all.filter((session) => session.cwd === cwd);
	}
	if (cwd === undefined) return listAllSessions(options.agentDir);
	const local = await listSessionsInDir(getSessionDirForCwd(cwd, options.agentDir));
	return local.filter((session) => session.cwd === cwd);
}

function titleOf(session: SessionInfo): string | undefined {
	if (session.name) return session.name;
	if (session.messageCount === 0) return undefined;
	const firstLine = session.firstMessage.split("\n", 1)[0]?.trim() ?? "";
	return firstLine.length > MAX_TITLE_LENGTH ? `${firstLine.slice(0, MAX_TITLE_LENGTH)}…` : firstLine || undefined;
}

function toAcpSessionInfo(session: SessionInfo): AcpSessionInfo {
	const title = titleOf(session);
	return {
		sessionId: session.id,
		cwd: session.cwd,
		...(title !== undefined ? { title } : {}),
		updatedAt: session.modified.toISOString(),
	};
}

/** The cursor is the offset of the page's first session, opaque to the client. */
function decodeCursor(cursor: string | null | undefined): number {
	if (!cursor) return 0;
	const offset = Number.parseInt(Buffer.from(cursor, "base64url").toString("utf8"), 10);
	return Number.isSafeInteger(offset) && offset >= 0 ? offset : 0;
}

export async function listSessionPage(
	options: SessionCatalogOptions,
	cwd: string | undefined,
	cursor: string | null | undefined,
): Promise<ListSessionsResponse> {
	const stored = (await listStored(options, cwd)).filter((session) => session.cwd !== "");
	const offset = decodeCursor(cursor);
	const page = stored.slice(offset, offset + SESSION_PAGE_SIZE);
	const next = offset + page.length;
	return {
		sessions: page.map(toAcpSessionInfo),
		...(next < stored.length ? { nextCursor: Buffer.from(String(next), "utf8").toString("base64url") } : {}),
	};
}

/** The file of the stored session with exactly this id: in the cwd's folder first, then anywhere. */
export async function findSessionFile(
	options: SessionCatalogOptions,
	sessionId: string,
	cwd: string,
): Promise<string | undefined> {
	const local = await listStored(options, cwd);
	const found = local.find((session) => session.id === sessionId);
	if (found) return found.path;
	const everywhere = await listStored(options, undefined);
	return everywhere.find((session) => session.id === sessionId)?.path;
}
