import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

/** A real temporary directory to lay out resource files in. */
export interface TempTree {
	root: string;
	/** Absolute path of a path relative to the root. */
	path(...segments: string[]): string;
	/** Writes a file (creating its directories) and returns its absolute path. */
	write(relativePath: string, content: string): string;
	/** Writes several files at once. */
	writeAll(files: Record<string, string>): void;
	mkdir(relativePath: string): string;
	/** Creates a symbolic link at `linkPath` pointing to `target` (relative to the root unless absolute). */
	symlink(target: string, linkPath: string): string;
}

export function createTempTree(prefix = "agent-resources-"): TempTree & { remove(): void } {
	const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
	const path = (...segments: string[]) => join(root, ...segments);
	const tree = {
		root,
		path,
		write(relativePath: string, content: string): string {
			const target = path(relativePath);
			mkdirSync(dirname(target), { recursive: true });
			writeFileSync(target, content);
			return target;
		},
		writeAll(files: Record<string, string>): void {
			for (const [relativePath, content] of Object.entries(files)) tree.write(relativePath, content);
		},
		mkdir(relativePath: string): string {
			const target = path(relativePath);
			mkdirSync(target, { recursive: true });
			return target;
		},
		symlink(target: string, linkPath: string): string {
			const link = path(linkPath);
			mkdirSync(dirname(link), { recursive: true });
			symlinkSync(target.startsWith("/") ? target : path(target), link);
			return link;
		},
		remove(): void {
			rmSync(root, { recursive: true, force: true });
		},
	};
	return tree;
}

/** Returns a factory for temp trees that are removed after each test. */
export function useTempTrees(): (prefix?: string) => TempTree {
	const trees: Array<{ remove(): void }> = [];
	afterEach(() => {
		for (const tree of trees.splice(0)) tree.remove();
	});
	return (prefix) => {
		const tree = createTempTree(prefix);
		trees.push(tree);
		return tree;
	};
}

/** A skill file's text with the given frontmatter lines. */
export function skillMarkdown(frontmatter: Record<string, string | boolean>, body = "Do the thing."): string {
	const lines = Object.entries(frontmatter).map(([key, value]) => `${key}: ${value}`);
	return `---\n${lines.join("\n")}\n---\n${body}\n`;
}
