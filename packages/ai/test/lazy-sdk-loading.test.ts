// Importing @agent/ai must not load any provider SDK: they are imported on a provider's first use, so a
// program that never talks to OpenAI never pays for loading its SDK.
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
	AI_SOURCE_ENTRY,
	loadedSdkPackages,
	PROVIDER_SDK_PACKAGES,
	traceModuleLoads,
	traceScript,
} from "./helpers/module-trace.js";

describe("importing the package", () => {
	it("loads none of the provider SDKs", async () => {
		const loaded = await traceModuleLoads([AI_SOURCE_ENTRY]);
		expect(loaded.some((url) => url.endsWith("/src/index.ts"))).toBe(true);
		expect(loaded.some((url) => url.endsWith("/src/event-stream.ts"))).toBe(true);
		expect(loadedSdkPackages(loaded)).toEqual([]);
	});

	// Node's HTTP client, compression and crypto load with the first request or login that needs them; an ES-module
	// import of node:fs would read its promises API and streams. Together ~15 ms of an import on Node 20, paid by a
	// program that may never call a provider. (node:net is not looked for: the trace's stderr, a pipe, loads it.)
	it("loads no HTTP, TLS, compression or crypto module, nor fs's promises API", async () => {
		const { output } = await traceScript(
			`await import(${JSON.stringify(pathToFileURL(AI_SOURCE_ENTRY).href)});` +
				" const loaded = process.moduleLoadList.filter((name) =>" +
				" /^NativeModule (_?https?|tls|zlib|crypto|fs\\/promises|internal\\/fs\\/streams)$/.test(name));" +
				" console.log(JSON.stringify(loaded));",
		);
		expect(JSON.parse(output)).toEqual([]);
	});
});

describe("preloading a provider", () => {
	const entry = JSON.stringify(pathToFileURL(AI_SOURCE_ENTRY).href);
	const undiciLoaded = "process.moduleLoadList.some((name) => name.includes('undici'))";

	it("loads the API's SDK and Node's fetch classes without a request", async () => {
		const { loaded, output } = await traceScript(
			`const ai = await import(${entry}); await ai.preloadApiProvider("openai-completions");` +
				` console.log(JSON.stringify(${undiciLoaded}));`,
		);
		expect(loadedSdkPackages(loaded)).toEqual(["openai"]);
		expect(JSON.parse(output)).toBe(true);
	});

	it("loads nothing for an API whose provider is a custom one, or that has no built-in adapter", async () => {
		const { loaded, output } = await traceScript(
			`const ai = await import(${entry});` +
				` ai.registerApiProvider({ api: "anthropic-messages", stream: () => { throw new Error("custom"); }, streamSimple: () => { throw new Error("custom"); } });` +
				` await ai.preloadApiProvider("anthropic-messages"); await ai.preloadApiProvider("no-such-api");` +
				` console.log(JSON.stringify(${undiciLoaded}));`,
		);
		expect(loadedSdkPackages(loaded)).toEqual([]);
		expect(JSON.parse(output)).toBe(false);
	});
});

describe("the module trace", () => {
	// Tracing the load of five SDKs (the AWS one is hundreds of modules) takes a while on a loaded machine.
	it("sees each SDK when it is imported, so an empty result above means something", { timeout: 120_000 }, async () => {
		const loaded = await traceModuleLoads([AI_SOURCE_ENTRY, ...PROVIDER_SDK_PACKAGES]);
		expect(loadedSdkPackages(loaded)).toEqual([...PROVIDER_SDK_PACKAGES]);
	});
});

describe("the HTTP client", () => {
	// On Node 22 an ES-module import of node:http reads its lazy WebSocket exports, which load undici (~30 ms of
	// start-up); node:https and TLS (~25 ms on Node 22) load with the first https request. Until then, neither.
	it("loads without loading undici, node:https or TLS", async () => {
		const transport = new URL("../src/providers/http-transport.ts", import.meta.url).href;
		const callbackServer = new URL("../src/oauth/callback-server.ts", import.meta.url).href;
		const { output } = await traceScript(
			`const { HttpTransport } = await import(${JSON.stringify(transport)}); await import(${JSON.stringify(callbackServer)});` +
				" new HttpTransport();" +
				` console.log(JSON.stringify(process.moduleLoadList.filter((name) => /undici|^NativeModule (https|tls)$/.test(name))));`,
		);
		expect(JSON.parse(output)).toEqual([]);
	});
});
