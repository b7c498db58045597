import { comparePaths } from "./path-order.js";

/** What the grep tool asks of a search engine (ripgrep or the built-in one), and what it gets back. */

export type GrepEngineChoice = "auto" | "rg" | "builtin";

export interface GrepSearchRequest {
	pattern: string;
	/** Absolute file or directory. */
	searchPath: string;
	isDirectory: boolean;
	ignoreCase: boolean;
	literal: boolean;
	glob?: string;
	/** Matches wanted; the engine looks for one more to know whether the limit was reached. */
	limit: number;
	signal?: AbortSignal;
}

export interface GrepMatch {
	/** Absolute path of the file. */
	filePath: string;
	/** 1-based. */
	lineNumber: number;
}

export interface GrepSearchResult {
	/** At most `limit`, sorted by path then line. */
	matches: GrepMatch[];
	/** More matches exist than were returned. */
	limitReached: boolean;
	/** Contents of files the engine already read, so formatting need not read them again. */
	fileContents?: Map<string, string>;
}

export const RG_UNAVAILABLE_MESSAGE = "ripgrep (rg) is not available and could not be downloaded";

export function compareMatches(a: GrepMatch, b: GrepMatch): number {
	if (a.filePath !== b.filePath) return comparePaths(a.filePath, b.filePath);
	return a.lineNumber - b.lineNumber;
}
