import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

const loaderUrl = new URL("./module-trace-loader.mjs", import.meta.url).href;
const registerHooks = `data:text/javascript,import { register } from "node:module"; register(${JSON.stringify(loaderUrl)});`;

/** The package's source entry and its built entry (`pnpm build` / `pnpm bench` produce the latter). */
export const AI_SOURCE_ENTRY = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
/** What `import("@agent/ai")` loads: the package's bundled entry (package.json "exports"; built by `pnpm build`). */
export const AI_BUILT_ENTRY = fileURLToPath(new URL("../../dist/bundle/index.js", import.meta.url));

/** The npm packages of the provider SDKs, as they appear in resolved module paths. */
export const PROVIDER_SDK_PACKAGES = [
	"@anthropic-ai/sdk",
	"openai",
	"@google/genai",
	"@aws-sdk/client-bedrock-runtime",
	"@mistralai/mistralai",
] as const;

/**
 * Imports each of `entries` (file paths or package specifiers), in order, in a fresh Node process and
 * returns the URL of every module it resolved. TypeScript sources run untranspiled by a build.
 */
export async function traceModuleLoads(entries: string[]): Promise<string[]> {
	const imports = entries
		.map((entry) => (entry.startsWith("/") ? pathToFileURL(entry).href : entry))
		.map((specifier) => `await import(${JSON.stringify(specifier)});`)
		.join(" ");
	return (await traceScript(imports)).loaded;
}

/**
 * Runs `source` (an ES module body; it may `await import(...)` TypeScript sources) in a fresh Node process;
 * returns the URL of every module it resolved and what it printed.
 */
export async function traceScript(source: string): Promise<{ loaded: string[]; output: string }> {
	const dir = mkdtempSync(join(tmpdir(), "agent-module-trace-"));
	const traceFile = join(dir, "trace.txt");
	try {
		const { stdout } = await run(process.execPath, ["--import", registerHooks, "--input-type=module", "-e", source], {
			cwd: fileURLToPath(new URL("../..", import.meta.url)),
			env: { ...process.env, AGENT_MODULE_TRACE_FILE: traceFile },
		});
		return { loaded: readFileSync(traceFile, "utf8").split("\n").filter(Boolean), output: stdout };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The SDK packages among loaded module URLs. */
export function loadedSdkPackages(urls: string[]): string[] {
	return PROVIDER_SDK_PACKAGES.filter((name) => urls.some((url) => url.includes(`/node_modules/${name}/`)));
}
