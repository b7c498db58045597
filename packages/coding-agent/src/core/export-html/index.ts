// Public API of core/export-html (re-exported by the package index).
export {
	defaultHtmlExportPath,
	type ExportableSession,
	type ExportHtmlOptions,
	exportAgentSessionToHtml,
	exportSessionToHtml,
	fileNotFoundError,
	HTML_EXPORT_FILE_PREFIX,
	IN_MEMORY_SESSION_EXPORT_ERROR,
	NOTHING_TO_EXPORT_ERROR,
	renderSessionTextToHtml,
} from "./export-session.js";
export type { ExportedTool, SessionPageOptions } from "./render-page.js";
