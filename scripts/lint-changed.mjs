// The lint half of `pnpm check`: `biome check` on the files that changed since its last clean run. Biome keeps no
// cache and parses every file each time (~4 s of CPU for the whole repository on the CI machine), so without this
// a warm `pnpm check` would cost that on every run. The record lives in node_modules/.cache: a fresh clone (CI)
// has none and checks everything, and so does any change to Biome's version, its configuration or .gitignore.
// Limit: a diagnostic that depends on another file (Biome's project rules) is found when either file changes.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const recordPath = join(root, "node_modules/.cache/lint-changed.json");
// Above this many changed files one `biome check .` is cheaper than a long argument list.
const maxListedFiles = 200;

const hash = (data) => createHash("sha1").update(data).digest("hex");

function readRecord() {
	try {
		return JSON.parse(readFileSync(recordPath, "utf8"));
	} catch {
		return undefined;
	}
}

function configKey() {
	const biomeVersion = createRequire(join(root, "package.json"))("@biomejs/biome/package.json").version;
	const configs = ["biome.json", ".gitignore"].map((file) => readFileSync(join(root, file), "utf8"));
	return hash([biomeVersion, ...configs].join("\0"));
}

function currentFiles() {
	const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
		cwd: root,
		encoding: "utf8",
		maxBuffer: 64 * 1024 * 1024,
	});
	const files = new Map();
	for (const file of new Set(listed.split("\0"))) {
		if (file === "" || !existsSync(join(root, file))) continue;
		files.set(file, hash(readFileSync(join(root, file))));
	}
	return files;
}

const key = configKey();
const files = currentFiles();
const record = readRecord();
const known = record?.config === key ? record.files : {};
const changed = [...files].filter(([file, digest]) => known[file] !== digest).map(([file]) => file);

if (changed.length > 0) {
	const biome = join(
		dirname(createRequire(join(root, "package.json")).resolve("@biomejs/biome/package.json")),
		"bin/biome",
	);
	const targets = record?.config === key && changed.length <= maxListedFiles ? changed : ["."];
	const args = [
		"check",
		"--files-ignore-unknown=true",
		"--no-errors-on-unmatched",
		...process.argv.slice(2),
		...targets,
	];
	const result = spawnSync(process.execPath, [biome, ...args], { cwd: root, stdio: "inherit" });
	if (result.status !== 0) process.exit(result.status ?? 1);
} else {
	console.log(`biome: no file changed since its last clean run (${files.size} files)`);
}
mkdirSync(dirname(recordPath), { recursive: true });
writeFileSync(recordPath, JSON.stringify({ config: key, files: Object.fromEntries(files) }));
