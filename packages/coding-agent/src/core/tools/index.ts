// Public API of core/tools (re-exported by the package index).
export { OPERATION_ABORTED } from "./abort.js";
export {
	captureFileVersion,
	FileChangedError,
	type FileVersion,
	type FileWriteOptions,
	isFileChangedError,
	writeFileAtomic,
} from "./atomic-write.js";
export * from "./bash.js";
export { BashOutputCollector, type BashOutputFileOptions, ROLLING_WINDOW_BYTES } from "./bash-output.js";
export {
	BashOutputFiles,
	createBashTempFilePath,
	FullOutputFile,
	fullOutputCappedNotice,
	processBashOutputFiles,
} from "./bash-output-files.js";
export * from "./edit.js";
export {
	countOccurrences,
	detectLineEnding,
	type FuzzyMatchResult,
	fuzzyFindText,
	type LineEnding,
	normalizeForFuzzyMatch,
	normalizeToLF,
	replaceUniqueText,
	restoreLineEndings,
	stripBom,
} from "./edit-diff.js";
export {
	clearExternalToolCache,
	type ExternalToolName,
	ensureTool,
	fdSupportsNoRequireGit,
	findExternalTool,
} from "./external-tools.js";
export type { FileLine } from "./file-lines.js";
export { withFileMutationQueue } from "./file-mutation-queue.js";
export { visitDirectory, type WalkEntry, type WalkEntryKind, type WalkOptions, walkDirectory } from "./file-walker.js";
export * from "./find.js";
export { type FindSearchRequest, type FindSearchResult, runFindSearch } from "./find-search.js";
export * from "./grep.js";
export type { GrepMatch, GrepSearchRequest, GrepSearchResult } from "./grep-search.js";
export { createIgnoreLayer, type IgnoreLayer, isIgnoredByLayers } from "./ignore-rules.js";
export { detectImageMimeTypeFromFile, type SupportedImageMimeType, sniffImageMimeType } from "./image-mime.js";
export { formatDimensionNote, type ImageResizeOptions, type ResizedImage, resizeImage } from "./image-resize.js";
export { blockImagesInMessages, IMAGES_DISABLED_TEXT } from "./images-blocked.js";
export { generateDiffString } from "./line-diff.js";
export * from "./ls.js";
export { comparePaths } from "./path-order.js";
export { expandPath, resolveReadPath, resolveToCwd } from "./path-utils.js";
export * from "./read.js";
export {
	describeNonRegularFile,
	isNotRegularFileError,
	NotRegularFileError,
	openRegularFile,
	readRegularFile,
} from "./regular-file.js";
export { getManagedBinDir, getShellEnv, resolveShell, type ShellConfig } from "./shell.js";
export {
	providerKeysRemovedNotice,
	ShellEnvironment,
	type ShellEnvironmentAudience,
	type ShellEnvironmentOptions,
} from "./shell-env.js";
export * from "./tool-sets.js";
export {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	GREP_MAX_LINE_LENGTH,
	type TruncationOptions,
	type TruncationResult,
	truncateHead,
	truncateLine,
	truncateTail,
} from "./truncate.js";
export { assertInsideWorkspace } from "./workspace-confinement.js";
export * from "./write.js";
