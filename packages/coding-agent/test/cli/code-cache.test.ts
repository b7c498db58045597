// The CLI bundle's own code cache, where Node has no compile cache (< 22.1; src/cli/compile-cache.ts): what a run
// writes under <agentDir>/cache/compile, and that the next run takes it as it is.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import nodeModule from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAst } from "rollup/parseAst";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox, runCli } from "../helpers/cli-sandbox.js";
import { startFakeModelServerForFile, textReply, toolCallReply } from "../helpers/fake-model-server.js";

const DIST = fileURLToPath(new URL("../../dist", import.meta.url));
const CHUNKS = join(DIST, "chunks");

/** The `import()` expressions of a script, by their source text. */
function dynamicImports(code: string): string[] {
	const found: string[] = [];
	const visit = (node: unknown): void => {
		if (!node || typeof node !== "object") return;
		if (Array.isArray(node)) {
			for (const item of node) visit(item);
			return;
		}
		const { type, start, end } = node as { type?: string; start: number; end: number };
		if (type === "ImportExpression") found.push(code.slice(start, end));
		for (const value of Object.values(node)) visit(value);
	};
	visit(parseAst(code));
	return found;
}

describe("the command line's bundle", () => {
	it("makes its dynamic imports through the entry: no chunk holds an import(), which vm.Script cannot run", () => {
		const chunks = readdirSync(CHUNKS).filter((name) => name.endsWith(".cjs"));
		expect(chunks.length).toBeGreaterThan(20);
		const withImports = chunks.filter((name) => dynamicImports(readFileSync(join(CHUNKS, name), "utf8")).length);
		expect(withImports).toEqual([]);
		// The one import() left, which the chunks call (`globalThis[Symbol.for("agent.import")]`).
		expect(dynamicImports(readFileSync(join(DIST, "agent.cjs"), "utf8"))).toEqual(["import(specifier, options)"]);
	});

	it("is stamped with an id from its chunks' text", () => {
		expect(readFileSync(join(DIST, "agent.cjs"), "utf8")).toMatch(/"agent-bundle-id:[0-9a-f]{16}"/);
	});
});

const nodeCaches = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function";

describe.skipIf(nodeCaches)("the bundle's code cache (Node < 22.1)", () => {
	const server = startFakeModelServerForFile();
	let sandbox: CliSandbox;
	afterEach(() => sandbox?.cleanup());

	const bundleId = () => /"agent-bundle-id:([0-9a-f]{16})"/.exec(readFileSync(join(DIST, "agent.cjs"), "utf8"))?.[1];
	const cacheDir = () => join(sandbox.agentDir, "cache", "compile", `agent-${process.version}-${process.arch}`);
	/** Each entry with its inode: an entry written again is a new file (renamed over the old). */
	const entries = () =>
		new Map(readdirSync(cacheDir()).map((name) => [name, statSync(join(cacheDir(), name)).ino] as const));

	/** The name of the largest entry (the chunk with the most code a run compiled). */
	const largestEntry = (): string => {
		const sizes = [...entries().keys()].map((name) => ({ name, size: statSync(join(cacheDir(), name)).size }));
		return sizes.reduce((largest, entry) => (entry.size > largest.size ? entry : largest)).name;
	};

	async function printRun(prompt = "hi", env: NodeJS.ProcessEnv = {}): Promise<void> {
		server.enqueue(textReply("ok"));
		const result = await runCli(sandbox, ["--no-session", "-p", prompt], { env });
		expect(result, result.stderr).toMatchObject({ code: 0, stdout: "ok\n" });
	}

	it("keeps an entry for each chunk a run loaded, and the next run uses them as they are", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		await printRun();
		const first = entries();
		expect(first.size).toBeGreaterThan(5);
		for (const name of first.keys()) {
			expect(name.startsWith(`${bundleId()}-`)).toBe(true);
			expect(existsSync(join(CHUNKS, name.slice(17)))).toBe(true);
		}
		await printRun();
		expect(entries()).toEqual(first);
	});

	it("replaces an entry V8 refuses, and the run goes on without it", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		await printRun();
		const entry = join(cacheDir(), largestEntry());
		writeFileSync(entry, "not V8's code");
		await printRun();
		expect(readFileSync(entry, "utf8")).not.toBe("not V8's code");
		expect(statSync(entry).size).toBeGreaterThan(1000);
	});

	it("compiles again a chunk whose entry's code is damaged, which V8 alone would take", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		await printRun();
		const before = entries();
		const largest = largestEntry();
		const entry = join(cacheDir(), largest);
		const bytes = readFileSync(entry);
		// The middle of the code; the header V8 checks (and the length) stay as they were.
		for (let i = bytes.length >> 1; i < (bytes.length >> 1) + 64; i++) bytes[i] = (bytes[i] as number) ^ 0x5a;
		writeFileSync(entry, bytes);
		await printRun();
		const after = entries();
		expect(after.get(largest)).not.toBe(before.get(largest));
		expect(readFileSync(entry).equals(bytes)).toBe(false);
	});

	it("writes a run's entries before its second turn changes a V8 flag: the next run takes them", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		writeFileSync(join(sandbox.cwd, "note.txt"), "a note\n");
		const turns = async () => {
			server.enqueue(
				toolCallReply([{ name: "read", arguments: { path: "note.txt" } }]),
				toolCallReply([{ name: "read", arguments: { path: "note.txt" } }]),
				textReply("ok"),
			);
			const result = await runCli(sandbox, ["--no-session", "-p", "read it twice"]);
			expect(result, result.stderr).toMatchObject({ code: 0, stdout: "ok\n" });
		};
		await turns();
		const first = entries();
		expect(first.size).toBeGreaterThan(5);
		// Made after the flag changed, V8 would refuse them now, and they would be written again.
		await turns();
		expect(entries()).toEqual(first);
	});

	it("keeps nothing with NODE_DISABLE_COMPILE_CACHE=1", async () => {
		sandbox = createCliSandbox({ modelServerUrl: server.baseUrl });
		await printRun("hi", { NODE_DISABLE_COMPILE_CACHE: "1" });
		expect(existsSync(cacheDir())).toBe(false);
	});
});
