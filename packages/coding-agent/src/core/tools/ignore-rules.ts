import { dirname, join, sep } from "node:path";
import type { Ignore, TestResult } from "ignore";
import { loadIgnore } from "./pattern-libraries.js";
import { readRegularFile, readRegularFileSync } from "./regular-file.js";

/** Ignore files honoured in every directory; later files take precedence (as in ripgrep). */
export const IGNORE_FILE_NAMES = [".gitignore", ".ignore"] as const;

/** Which ignore files a walk reads in each directory, and how their patterns match names. */
export interface IgnoreFileOptions {
	/** Later files take precedence. */
	names: readonly string[];
	ignoreCase: boolean;
}

/** The tools' rules: ripgrep's ignore files, and case-sensitive, as git on Linux and rg and fd match. */
const TOOL_IGNORE_FILES: IgnoreFileOptions = { names: IGNORE_FILE_NAMES, ignoreCase: false };

/**
 * Name-only rules: every pattern is a plain name (`node_modules`, `.env`) or `*` plus a suffix (`*.log`),
 * optionally directory-only (`dist/`), and none negates. Such a pattern matches an entry's own name at any
 * depth, so testing the name is exact. Most real ignore files are like this; testing them without
 * node-ignore's general matcher roughly halves the built-in walk.
 */
interface NameRules {
	names: Set<string>;
	directoryNames: Set<string>;
	suffixes: string[];
	directorySuffixes: string[];
}

/** The rules of the ignore files of one directory. */
export interface IgnoreLayer {
	/** Absolute directory the patterns are relative to. */
	base: string;
	rules: Ignore;
	nameRules?: NameRules;
}

const NAME_PATTERN = /^(\*?)([^*?[\]\\/!#\s][^*?[\]\\/\s]*)(\/?)$/;

function toNameRules(texts: string[]): NameRules | undefined {
	const rules: NameRules = { names: new Set(), directoryNames: new Set(), suffixes: [], directorySuffixes: [] };
	for (const text of texts) {
		for (const rawLine of text.split(/\r?\n/)) {
			const line = rawLine.trimEnd();
			if (line === "" || line.startsWith("#")) continue;
			const match = NAME_PATTERN.exec(line);
			if (!match) return undefined;
			const [, star, name, slash] = match;
			if (star) (slash ? rules.directorySuffixes : rules.suffixes).push(name);
			else (slash ? rules.directoryNames : rules.names).add(name);
		}
	}
	return rules;
}

function matchesNameRules(rules: NameRules, name: string, isDirectory: boolean): boolean {
	if (rules.names.has(name)) return true;
	for (const suffix of rules.suffixes) if (name.endsWith(suffix)) return true;
	if (!isDirectory) return false;
	if (rules.directoryNames.has(name)) return true;
	for (const suffix of rules.directorySuffixes) if (name.endsWith(suffix)) return true;
	return false;
}

/** The layer for ignore-file texts found in `base` (undefined when there are none). */
export function createIgnoreLayer(
	base: string,
	contents: (string | undefined)[],
	{ ignoreCase = false }: { ignoreCase?: boolean } = {},
): IgnoreLayer | undefined {
	const present = contents.filter((text): text is string => text !== undefined);
	if (present.length === 0) return undefined;
	let rules: Ignore | undefined;
	return {
		base,
		// Built when first used: layers of name-only rules never need node-ignore (nor load it).
		get rules(): Ignore {
			if (!rules) {
				rules = loadIgnore()({ ignorecase: ignoreCase });
				for (const text of present) rules.add(text);
			}
			return rules;
		},
		// Name rules compare names exactly; folding case like node-ignore's regular expressions do is not worth
		// the risk of answering differently, so case-insensitive layers always use the general matcher.
		nameRules: ignoreCase ? undefined : toNameRules(present),
	};
}

/** Bytes read of one ignore file: a repository cannot make a walk read a huge (or endless) file. */
const IGNORE_FILE_MAX_BYTES = 1024 * 1024;

/** The tools' layer of `dir` (the directories above a search root). */
async function loadIgnoreLayer(dir: string): Promise<IgnoreLayer | undefined> {
	const contents = await Promise.all(
		IGNORE_FILE_NAMES.map((name) =>
			readRegularFile(join(dir, name), IGNORE_FILE_MAX_BYTES).then(
				(bytes) => bytes.toString("utf8"),
				() => undefined,
			),
		),
	);
	return createIgnoreLayer(dir, contents);
}

/** Ignore files that are not regular files (a FIFO named .gitignore) are skipped, never opened blocking. */
export function loadIgnoreLayerSync(
	dir: string,
	files: IgnoreFileOptions = TOOL_IGNORE_FILES,
): IgnoreLayer | undefined {
	const contents = files.names.map((name) => {
		try {
			return readRegularFileSync(join(dir, name), IGNORE_FILE_MAX_BYTES).bytes.toString("utf8");
		} catch {
			return undefined;
		}
	});
	return createIgnoreLayer(dir, contents, files);
}

/** The directories above `dir`, outermost first. */
export function ancestorsOf(dir: string): string[] {
	const ancestors: string[] = [];
	let current = dirname(dir);
	let previous = dir;
	while (current !== previous) {
		ancestors.unshift(current);
		previous = current;
		current = dirname(current);
	}
	return ancestors;
}

/**
 * Layers of the directories above `root` (ripgrep honours them too). A layer that ignores `root` itself is
 * left out: searching inside an ignored directory on purpose (say `node_modules`, or `dist` ignored by `dist/**`)
 * must find things.
 */
export async function loadAncestorLayers(root: string): Promise<IgnoreLayer[]> {
	const loaded = await Promise.all(ancestorsOf(root).map((ancestor) => loadIgnoreLayer(ancestor)));
	return loaded.filter(
		(layer): layer is IgnoreLayer => layer !== undefined && !isIgnoredByLayers([layer], root, true),
	);
}

function relativeTo(base: string, absolutePath: string): string | undefined {
	const prefix = base.endsWith(sep) ? base : base + sep;
	if (!absolutePath.startsWith(prefix)) return undefined;
	const relative = absolutePath.slice(prefix.length);
	return sep === "/" ? relative : relative.split(sep).join("/");
}

/** Per layer, matchers that re-include every directory shallower than a depth (index 0 is depth 2). */
const withShallowerDirectoriesIncluded = new WeakMap<Ignore, Ignore[]>();

/**
 * The layer's verdict from its rules that match the path itself. node-ignore's answer also ignores anything in
 * a directory the layer ignores, so when it says ignored the path is tested again by a copy of the layer whose
 * last rules re-include every directory above the path's depth, one anchored negation of stars per level:
 * patterns of depth, not of names, so nothing needs escaping.
 */
function testPathItself(layer: IgnoreLayer, path: string): TestResult {
	const result = layer.rules.test(path);
	const depth = path.replace(/\/$/, "").split("/").length;
	if (!result.ignored || depth === 1) return result;
	let matchers = withShallowerDirectoriesIncluded.get(layer.rules);
	if (!matchers) {
		matchers = [];
		withShallowerDirectoriesIncluded.set(layer.rules, matchers);
	}
	let matcher = matchers[depth - 2];
	if (!matcher) {
		// The layer's rules keep the case sensitivity they were compiled with.
		matcher = loadIgnore()().add(layer.rules);
		for (let shallower = 1; shallower < depth; shallower++) matcher.add(`!/${"*/".repeat(shallower)}`);
		matchers[depth - 2] = matcher;
	}
	return matcher.test(path);
}

/**
 * Whether the innermost layer with a rule matching the path itself ignores it (a deeper ignore file overrides a
 * shallower one, and `!pattern` re-includes). `layers` are outermost first. This is a walk's question, asked
 * about an entry whose directories the walk entered, so as git, rg and fd decide, an outer layer's verdict on a
 * directory above the path is not consulted again: a directory a shallower file ignores and a deeper one
 * re-includes (`!drafts/`) keeps its contents.
 */
export function isIgnoredByLayers(layers: readonly IgnoreLayer[], absolutePath: string, isDirectory: boolean): boolean {
	for (let i = layers.length - 1; i >= 0; i--) {
		const { nameRules } = layers[i];
		if (nameRules) {
			// Name rules never re-include, so a layer either ignores the entry or has nothing to say.
			const { base } = layers[i];
			const prefix = base.endsWith(sep) ? base : base + sep;
			if (absolutePath.length > prefix.length && absolutePath.startsWith(prefix)) {
				const name = absolutePath.slice(absolutePath.lastIndexOf(sep) + 1);
				if (matchesNameRules(nameRules, name, isDirectory)) return true;
			}
			continue;
		}
		const relative = relativeTo(layers[i].base, absolutePath);
		if (!relative) continue;
		const result = testPathItself(layers[i], isDirectory ? `${relative}/` : relative);
		if (result.ignored) return true;
		if (result.unignored) return false;
	}
	return false;
}

/**
 * "Is this file under `root` ignored?" for files found by other means (ripgrep), with the same rules the
 * built-in walker applies. Ignore files are read synchronously and cached per directory.
 */
export class IgnoreRuleCache {
	private readonly layersByDir = new Map<string, IgnoreLayer | undefined>();
	private readonly ignoredDirs = new Map<string, boolean>();

	private constructor(
		private readonly root: string,
		private readonly ancestorLayers: IgnoreLayer[],
	) {}

	static async forRoot(root: string): Promise<IgnoreRuleCache> {
		return new IgnoreRuleCache(root, await loadAncestorLayers(root));
	}

	private layerOf(dir: string): IgnoreLayer | undefined {
		if (!this.layersByDir.has(dir)) this.layersByDir.set(dir, loadIgnoreLayerSync(dir));
		return this.layersByDir.get(dir);
	}

	private isDirectoryIgnored(dir: string, layersAbove: readonly IgnoreLayer[]): boolean {
		let ignored = this.ignoredDirs.get(dir);
		if (ignored === undefined) {
			ignored = isIgnoredByLayers(layersAbove, dir, true);
			this.ignoredDirs.set(dir, ignored);
		}
		return ignored;
	}

	isIgnored(absoluteFilePath: string): boolean {
		if (relativeTo(this.root, absoluteFilePath) === undefined) return false;
		const dirs = [this.root];
		const below = relativeTo(this.root, dirname(absoluteFilePath));
		if (below) for (const segment of below.split("/")) dirs.push(join(dirs[dirs.length - 1], segment));
		const layers = [...this.ancestorLayers];
		for (const [index, dir] of dirs.entries()) {
			// A file in an ignored folder stays ignored whatever deeper ignore files say.
			if (index > 0 && this.isDirectoryIgnored(dir, layers)) return true;
			const layer = this.layerOf(dir);
			if (layer) layers.push(layer);
		}
		return isIgnoredByLayers(layers, absoluteFilePath, false);
	}
}
