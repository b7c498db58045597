import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { AutocompleteItem } from "./types.js";

const MAX_PATH_ITEMS = 100;

/**
 * Completions for a file-system path being typed (`src/co`, `./`, `../x`, `~/Doc`, `/usr/l`): the
 * entries of its directory whose names start with the last segment, directories with a trailing "/".
 * Hidden entries appear only when the segment starts with ".".
 */
export function completePath(token: string, basePath: string, home = homedir()): AutocompleteItem[] {
	const slash = token.lastIndexOf("/");
	const directoryPart = slash === -1 ? "" : token.slice(0, slash + 1);
	const partial = slash === -1 ? token : token.slice(slash + 1);
	let directory: string;
	if (directoryPart.startsWith("~/") || directoryPart === "~/") directory = join(home, directoryPart.slice(2));
	else if (isAbsolute(directoryPart)) directory = directoryPart;
	else directory = join(basePath, directoryPart);
	let dirents: import("node:fs").Dirent[];
	try {
		dirents = readdirSync(directory, { withFileTypes: true });
	} catch {
		return [];
	}
	const lowerPartial = partial.toLowerCase();
	return dirents
		.filter((dirent) => dirent.name.toLowerCase().startsWith(lowerPartial))
		.filter((dirent) => partial.startsWith(".") || !dirent.name.startsWith("."))
		.map((dirent) => {
			const isDirectory =
				dirent.isDirectory() || (dirent.isSymbolicLink() && isDirectoryLink(join(directory, dirent.name)));
			const name = isDirectory ? `${dirent.name}/` : dirent.name;
			return { value: directoryPart + name, label: name, isDirectory };
		})
		.sort((a, b) => Number(b.isDirectory) - Number(a.isDirectory) || a.label.localeCompare(b.label))
		.slice(0, MAX_PATH_ITEMS)
		.map(({ value, label }) => ({ value, label }));
}

function isDirectoryLink(path: string): boolean {
	try {
		readdirSync(path);
		return true;
	} catch {
		return false;
	}
}
