// The page's two inline scripts and their hashes. The page's Content-Security-Policy allows exactly these
// scripts (by SHA-256), so markup that ever slipped through the escaping could still run nothing: no other
// inline script, no event-handler attribute, no javascript: URL.
import { createHash } from "node:crypto";
import { ENTRY_FLAGS } from "./entry-outline.js";
import { ENTRY_SEPARATOR, scriptForScriptElement } from "./html-text.js";
import { SEGMENT_SIZE } from "./page-data.js";
import { highlighterSource } from "./page-highlighter.js";
import { CONTROLS_SCRIPT } from "./page-script-controls.js";
import { TRANSCRIPT_SCRIPT } from "./page-script-transcript.js";
import { TREE_SCRIPT } from "./page-script-tree.js";

/** Height of a row of the sidebar tree; the stylesheet and the virtual list both use it. */
export const TREE_ROW_HEIGHT_PX = 22;
/** Entries the transcript adds at a time, and how many it shows above a target it jumps to. */
const CHUNK = 40;
const CHUNK_BEFORE_TARGET = 10;

/** Ids of the elements holding the session's nodes (JSON) and its entry blocks (text). */
export const SESSION_DATA_ELEMENT_ID = "session-data";
export const SESSION_ENTRIES_ELEMENT_ID = "session-entries";

const BRANCH_ICON =
	'<svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><circle cx="4" cy="3" r="1.6"/><circle cx="4" cy="13" r="1.6"/>' +
	'<circle cx="12" cy="5" r="1.6"/><path d="M4 4.6v6.8M12 6.6c0 3-8 2.2-8 4.8"/></svg>';

/** Runs in <head> before anything paints: applies the reader's saved theme choice. */
const THEME_SCRIPT = `try{var t=localStorage.getItem("agent-export-theme");if(t==="light"||t==="dark")document.documentElement.setAttribute("data-theme",t)}catch(e){}`;

function constants(): string {
	return [
		`var ROW_HEIGHT = ${TREE_ROW_HEIGHT_PX};`,
		`var CHUNK = ${CHUNK};`,
		`var SEGMENT_SIZE = ${SEGMENT_SIZE};`,
		`var CHUNK_BEFORE_TARGET = ${CHUNK_BEFORE_TARGET};`,
		`var FLAG_TEXT = ${ENTRY_FLAGS.text}, FLAG_THINKING = ${ENTRY_FLAGS.thinking}, FLAG_TOOL_CALLS = ${ENTRY_FLAGS.toolCalls}, FLAG_ERROR = ${ENTRY_FLAGS.error};`,
		`var BRANCH_ICON = ${JSON.stringify(BRANCH_ICON)};`,
		`var data = JSON.parse(document.getElementById(${JSON.stringify(SESSION_DATA_ELEMENT_ID)}).textContent);`,
		`var ENTRIES_ELEMENT_ID = ${JSON.stringify(SESSION_ENTRIES_ELEMENT_ID)};`,
		`var ENTRY_SEPARATOR = ${JSON.stringify(ENTRY_SEPARATOR)};`,
	].join("\n");
}

export interface PageScripts {
	/** For <head>. */
	theme: string;
	/** For the end of <body>, after the session data. */
	app: string;
	/** The `script-src` sources that allow both. */
	scriptSources: string;
}

function sha256Source(script: string): string {
	return `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
}

let cached: PageScripts | undefined;

export function pageScripts(): PageScripts {
	if (cached) return cached;
	const app = scriptForScriptElement(
		[
			highlighterSource() ?? "",
			'(function () {\n"use strict";',
			constants(),
			TREE_SCRIPT,
			TRANSCRIPT_SCRIPT,
			CONTROLS_SCRIPT,
			"})();",
		].join("\n"),
	);
	cached = { theme: THEME_SCRIPT, app, scriptSources: `${sha256Source(THEME_SCRIPT)} ${sha256Source(app)}` };
	return cached;
}
